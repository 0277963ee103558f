package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Branching;
import brokkr.eval.Checkpoint;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.eval.Transcripts;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Inspect;
import brokkr.experiment.Planner;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Probes;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.StoredBranches;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints after the k-th tool call, branches and decision points of the wiki ({@link WikiBranching}), with the
 * scripted authors and with models behind the OpenAI wire on a loopback server, under the reference agent and the
 * Java REPL harness.
 */
class WikiBranchingTest {
    static final WikiBenchmark WIKI = new WikiBenchmark();
    static final WikiWorld W = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
    static final Function<ModelRef, Candidate> NO_MODELS = ref -> {
        throw new AssertionError("no model expected: " + ref);
    };

    static ModelRef scripted(String name) {
        return new ModelRef("scripted", name);
    }

    static Evaluation.Cell cell(ModelRef agent, Harness harness) {
        String space = harness.replGuidance() != null ? Harness.REPL : "tools";
        return new Evaluation.Cell(
                WIKI,
                WIKI.environment(WikiBenchmark.TASK, Map.of()),
                AgentDef.of(agent, space, null).withHarness(harness.toValue()),
                null,
                0);
    }

    static Evaluation.Cell cell(ModelRef agent) {
        return cell(agent, Harness.DEFAULT_REFERENCE);
    }

    /** The pages of a wiki kind in the order PageWriter writes them (path order). */
    static List<Map.Entry<String, String>> pages(ReferenceWiki.Kind kind) {
        return new ArrayList<>(new TreeMap<>(ReferenceWiki.of(W, kind)).entrySet());
    }

    static double grade(Map<String, String> wiki) {
        return WikiChecker.grade(Gold.of(W), WikiBenchmark.docs(W), wiki).score();
    }

    @Test
    void aCheckpointAfterTheThirdCallBranchesWithOtherAuthorsEachGradedOnItsOwnWiki() throws Exception {
        Checkpoint cp = Branches.checkpoint(cell(scripted("reference")), 3, NO_MODELS);
        assertEquals(Branching.TOOL_CALL, cp.cutUnit());
        List<Message> held = Transcripts.fromValue(cp.transcript());
        // system, task, then three write_file calls each with its result: the cut is after the third result
        assertEquals(8, held.size());
        assertTrue(held.getLast() instanceof Message.Tool t && t.content().startsWith("wrote "), held.toString());
        List<Map.Entry<String, String>> ref = pages(ReferenceWiki.Kind.REFERENCE);
        Workspace atCut = Workspace.fromValue(cp.world());
        Map<String, String> first3 = new TreeMap<>();
        for (int i = 0; i < 3; i++) first3.put(ref.get(i).getKey(), ref.get(i).getValue());
        assertEquals(first3, atCut.wiki());
        String before = WorldHash.sha256(cp.world(), true);

        // a branch's fork starts from the checkpoint's workspace value itself: shared, not copied
        Branches.Branch same = Branches.branch(cp, Branches.Variant.SAME, 0);
        WorldCell fork = new WorldCell(PyNone.NONE);
        PyDict setup = Branches.setup(same).install(cp.env(), fork);
        assertSame(cp.world(), fork.get());
        assertEquals(PyDict.of("checkpoint", cp.id(), "at", 3, "unit", "tool call"), setup.get(Branches.BRANCH));

        List<Branches.Branch> branches = List.of(
                same,
                Branches.branch(cp, Branches.Variant.SAME.withAgent(scripted("empty")), 1),
                Branches.branch(cp, Branches.Variant.SAME.withAgent(scripted("stale")), 2),
                Branches.branch(cp, Branches.Variant.SAME, 3));
        List<Attempt> as = StoredBranches.runUnstored(branches, NO_MODELS, 4);
        Attempt whole = Evaluation.evaluate(cell(scripted("reference")), NO_MODELS, new Evaluation.Recorder());
        for (Attempt a : as) assertTrue(a.completed(), String.valueOf(a.error()));
        // the same author goes on to the whole reference wiki: the whole episode's log and workspace
        for (Attempt a : List.of(as.get(0), as.get(3))) {
            assertEquals(1.0, a.reward());
            assertEquals(whole.evidence().transcript(), a.evidence().transcript());
            assertEquals(whole.evidence().finalWorldSha256(), a.evidence().finalWorldSha256());
            assertEquals(setup.get(Branches.BRANCH), a.evidence().setup().get(Branches.BRANCH));
        }
        // the empty author stops at once: the three pages of the checkpoint are its wiki
        assertEquals(grade(first3), as.get(1).reward());
        assertTrue(as.get(1).reward() < 1.0);
        assertEquals(
                held, Transcripts.fromValue(as.get(1).evidence().transcript()).subList(0, held.size()));
        // the stale author counts the three pages written and writes its own from the fourth on
        Map<String, String> mixed = new TreeMap<>(first3);
        List<Map.Entry<String, String>> stale = pages(ReferenceWiki.Kind.STALE);
        for (int i = 3; i < stale.size(); i++)
            mixed.put(stale.get(i).getKey(), stale.get(i).getValue());
        assertEquals(grade(mixed), as.get(2).reward());
        assertTrue(as.get(2).reward() != 1.0 && as.get(2).reward() != as.get(1).reward());
        // no branch changed the checkpoint
        assertEquals(before, WorldHash.sha256(cp.world(), true));
    }

    /** A model that writes the reference pages two per message. */
    static final Candidate PAIRS = (history, tools) -> {
        int written = 0;
        for (Message m : history) if (m instanceof Message.Tool t && t.name().equals("write_file")) written++;
        List<Map.Entry<String, String>> ref = pages(ReferenceWiki.Kind.REFERENCE);
        if (written >= ref.size()) return Turn.of(new Message.Assistant("done"));
        List<ToolCall> calls = new ArrayList<>();
        for (int i = written; i < Math.min(written + 2, ref.size()); i++) {
            PyDict args =
                    PyDict.of("path", ref.get(i).getKey(), "content", ref.get(i).getValue());
            calls.add(new ToolCall("c" + i, "write_file", args, PyJson.dumps(args), null));
        }
        return Turn.of(new Message.Assistant(null, calls));
    };

    @Test
    void aCutInsideOneMessageOrPastTheEpisodeIsRefused() {
        Function<ModelRef, Candidate> models = ref -> PAIRS;
        Evaluation.Cell pairs = cell(new ModelRef("test", "pairs"));
        IllegalArgumentException inside =
                assertThrows(IllegalArgumentException.class, () -> Branches.checkpoint(pairs, 3, models));
        assertTrue(
                inside.getMessage()
                        .contains("tool call 3 is not the last call of its model message (that message made"
                                + " calls 3 to 4 in one step): cut after tool call 2 or 4"),
                inside.getMessage());
        assertTrue(
                assertDoesNotThrow(() -> Branches.checkpoint(pairs, 4, models)).at() == 4);
        IllegalArgumentException past = assertThrows(
                IllegalArgumentException.class, () -> Branches.checkpoint(cell(scripted("reference")), 11, NO_MODELS));
        assertTrue(
                past.getMessage().contains("ended (answered) after 10 tool call(s), before tool call 11"),
                past.getMessage());
    }

    private static <T> T assertDoesNotThrow(org.junit.jupiter.api.function.ThrowingSupplier<T> s) {
        return org.junit.jupiter.api.Assertions.assertDoesNotThrow(s);
    }

    /** A probe's candidate that edits the first page and reads the fourth: what it finds is the rebuilt workspace. */
    static final Candidate EDITS_FIRST_READS_FOURTH = (history, tools) -> {
        List<Map.Entry<String, String>> ref = pages(ReferenceWiki.Kind.REFERENCE);
        String firstLine = ref.get(0).getValue().lines().findFirst().orElseThrow();
        PyDict edit =
                PyDict.of("path", ref.get(0).getKey(), "old_text", firstLine, "new_text", firstLine + " (edited)");
        PyDict read = PyDict.of("path", ref.get(3).getKey());
        return Turn.of(new Message.Assistant(
                null,
                List.of(
                        new ToolCall("e", "edit_file", edit, PyJson.dumps(edit), null),
                        new ToolCall("r", "read_file", read, PyJson.dumps(read), null))));
    };

    @Test
    void aDecisionPointReplaysTheRecordsCallsOntoTheWorkspaceNotItsModels() throws Exception {
        Attempt rec = Evaluation.evaluate(cell(scripted("reference")), NO_MODELS, new Evaluation.Recorder());
        EnvironmentDef env = WIKI.environment(WikiBenchmark.TASK, Map.of());
        Value transcript = rec.evidence().transcript();
        DecisionPoint dp = Probes.decisionPoint(WIKI, env, transcript, 3);
        List<Map.Entry<String, String>> ref = pages(ReferenceWiki.Kind.REFERENCE);
        assertEquals(3, dp.at());
        assertEquals("tool call", dp.cutUnit());
        assertEquals("wrote " + ref.get(2).getKey(), dp.cutMessage());
        assertEquals(8, dp.history().size());
        assertEquals(WikiBenchmark.INSTRUCTIONS, dp.history().getFirst().content());
        // the record's own next action: the fourth page, with what the tool answered
        NextAction gold = dp.recorded().orElseThrow();
        assertEquals(NextAction.Kind.CALL, gold.kind());
        assertEquals(List.of("write_file"), gold.toolNames());
        assertEquals(
                ref.get(3).getKey(),
                gold.calls().getFirst().arguments().get("path").asStr());
        assertEquals(List.of(new NextAction.Result("wrote " + ref.get(3).getKey(), false)), gold.results());
        // the reference author answers as the record did; the empty one says it is done
        NextAction again = dp.answer(WIKI.scripted("agent", scripted("reference"), env));
        assertEquals(gold.callsText(), again.callsText());
        assertEquals(gold.results(), again.results());
        assertEquals(
                NextAction.Kind.TEXT,
                dp.answer(WIKI.scripted("agent", scripted("empty"), env)).kind());
        // the workspace is the one the record's three calls left: the first page is there to edit, the fourth is not
        NextAction probe = dp.answer(EDITS_FIRST_READS_FOURTH);
        assertEquals("edited " + ref.get(0).getKey(), probe.results().get(0).content());
        assertFalse(probe.results().get(0).error());
        assertTrue(probe.results().get(1).error(), probe.results().get(1).content());
        // ... and stays so: the same answer twice
        assertEquals(probe.results(), dp.answer(EDITS_FIRST_READS_FOURTH).results());

        ProbeResult r = Probes.probe(WIKI, dp, 0, scripted("reference"), "reference", 4, 0, NO_MODELS, 2);
        assertEquals(1.0, r.goldRate());
        assertEquals("wiki task catalog, tool call 3: reference, 4 samples", r.title());
        ProbeResult none = Probes.probe(WIKI, dp, 0, scripted("empty"), "empty", 3, 0, NO_MODELS, 2);
        assertEquals(0.0, none.goldRate());

        // a record whose results the workspace does not give does not replay; a cut past its calls is refused
        List<Value> tampered = new ArrayList<>(((PyList) transcript).items());
        int firstTool = 3; // system, user, assistant, tool
        tampered.set(
                firstTool, tampered.get(firstTool).asDict().with("content", Value.str("wrote /wiki/elsewhere.md")));
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class, () -> Probes.decisionPoint(WIKI, env, PyList.of(tampered), 3));
        assertTrue(bad.getMessage().contains("does not replay: tool call 1 (write_file)"), bad.getMessage());
        IllegalArgumentException far =
                assertThrows(IllegalArgumentException.class, () -> Probes.decisionPoint(WIKI, env, transcript, 11));
        assertTrue(far.getMessage().contains("has 10 tool call(s), not 11"), far.getMessage());
        // after the record's last call its next action is the author's "done"
        assertEquals(
                NextAction.Kind.TEXT,
                Probes.decisionPoint(WIKI, env, transcript, 10)
                        .recorded()
                        .orElseThrow()
                        .kind());
    }

    /** Java writing the reference pages, one {@code wiki.write_file} per page. */
    static String writeAllJava() {
        StringBuilder b = new StringBuilder();
        for (var p : pages(ReferenceWiki.Kind.REFERENCE))
            b.append("wiki.write_file(")
                    .append(JavaApi.lit(p.getKey()))
                    .append(", ")
                    .append(JavaApi.lit(p.getValue()))
                    .append(");\n");
        return b.toString();
    }

    static ToolCall call(String id, String name, Object... kv) {
        PyDict args = PyDict.of(kv);
        return new ToolCall(id, name, args, PyJson.dumps(args), null);
    }

    /**
     * The models behind the server: {@code repl-writer} (REPL: lists and reads in one snippet, writes every page in
     * the next, then done), {@code repl-rest} (REPL: one snippet writing every page, then done), {@code next-page}
     * (JSON tools: the page after those written so far, then done).
     */
    static Message.Assistant model(String name, List<Message> history) {
        long snippets = history.stream()
                .filter(m -> m instanceof Message.Assistant a
                        && a.toolCalls().stream().anyMatch(c -> c.name().equals(JavaRepl.TOOL)))
                .count();
        switch (name) {
            case "repl-writer" -> {
                if (snippets == 0)
                    return new Message.Assistant(
                            null,
                            List.of(call(
                                    "s0",
                                    JavaRepl.TOOL,
                                    "code",
                                    "int n = 0;\nfor (String p : wiki.list_files(\"/docs\").split(\"\\n\")) n += "
                                            + "wiki.read_file(p).length();\nn")));
                if (snippets == 1)
                    return new Message.Assistant(null, List.of(call("s1", JavaRepl.TOOL, "code", writeAllJava())));
                return new Message.Assistant("done");
            }
            case "repl-rest" -> {
                if (snippets == 0)
                    return new Message.Assistant(null, List.of(call("r0", JavaRepl.TOOL, "code", writeAllJava())));
                return new Message.Assistant("done");
            }
            case "next-page" -> {
                int written = 0;
                for (Message m : history) if (m instanceof Message.Tool t && "write_file".equals(t.name())) written++;
                List<Map.Entry<String, String>> ref = pages(ReferenceWiki.Kind.REFERENCE);
                if (written >= ref.size()) return new Message.Assistant("done");
                var p = ref.get(written);
                return new Message.Assistant(
                        null, List.of(call("n" + written, "write_file", "path", p.getKey(), "content", p.getValue())));
            }
            default -> throw new AssertionError("no model " + name);
        }
    }

    @Test
    void aReplCandidatesBranchRunsInTheReplAndModelsAreProbedOverTheWire() throws Exception {
        Map<String, List<List<String>>> offered = new ConcurrentHashMap<>();
        List<String> order = new CopyOnWriteArrayList<>();
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            DecodedRequest req = r.chat();
            offered.computeIfAbsent(req.model(), k -> new CopyOnWriteArrayList<>())
                    .add(req.tools().stream().map(ToolSpec::name).toList());
            order.add(req.model());
            return Reply.json(
                    OpenAiChat.encodeResponse(model(req.model(), req.history()), req.model(), "chatcmpl-" + r.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            Function<ModelRef, Candidate> models = registry.resolver();
            // a plain process: the test machine may have no working bubblewrap (containment is not what is tested)
            Harness repl = Harness.of("loop", "repl", "inspect", PyDict.of("sandbox", "process"));
            // 1 list_files + 12 read_file in the first snippet, then the writes: held after the third page
            int docs = WikiBenchmark.docs(W).size();
            int at = 1 + docs + 3;
            Checkpoint cp = Branches.checkpoint(cell(new ModelRef("openai", "repl-writer"), repl), at, models);
            Workspace held = Workspace.fromValue(cp.world());
            assertEquals(3, held.wiki().size());
            assertEquals(List.of(List.of(JavaRepl.TOOL), List.of(JavaRepl.TOOL)), offered.get("repl-writer"));

            // a branch with another model keeps the checkpoint's harness: a REPL candidate's branch is a REPL candidate
            Branches.Branch other =
                    Branches.branch(cp, Branches.Variant.SAME.withAgent(new ModelRef("openai", "repl-rest")), 0);
            AgentDef agent = Branches.cell(other).agent();
            assertEquals(cp.agent().harness(), agent.harness());
            assertEquals(Harness.REPL, agent.actionSpace());
            assertEquals("repl-rest", agent.model());
            // a branch may also name another harness: the JSON tools under the loop
            Branches.Branch json = Branches.branch(
                    cp,
                    Branches.Variant.SAME
                            .withAgent(new ModelRef("openai", "next-page"))
                            .withHarness(Harness.of("loop", "tools", null, PyDict.empty())),
                    1);
            assertEquals("tools", Branches.cell(json).agent().actionSpace());
            List<Attempt> as = StoredBranches.runUnstored(List.of(other, json), models, 2);
            for (Attempt a : as) {
                assertTrue(a.completed(), String.valueOf(a.error()));
                assertEquals(1.0, a.reward());
            }
            // the REPL branch was offered the REPL's one tool, its log starts with the checkpoint's
            assertEquals(List.of(List.of(JavaRepl.TOOL), List.of(JavaRepl.TOOL)), offered.get("repl-rest"));
            assertEquals(WikiTools.NAMES, offered.get("next-page").getFirst());
            List<Message> log = Transcripts.fromValue(as.get(0).evidence().transcript());
            List<Message> heldLog = Transcripts.fromValue(cp.transcript());
            assertEquals(heldLog, log.subList(0, heldLog.size()));
            // the branch's calls are its own: every page written again after the cut (the REPL's 10 writes)
            long writesAfter = log.subList(heldLog.size(), log.size()).stream()
                    .filter(m -> m instanceof Message.Tool t && "write_file".equals(t.name()))
                    .count();
            assertEquals(10, writesAfter);
            assertEquals(1L + docs + 3 + 10, as.get(0).evidence().counts().toolCalls());

            // a probe at the cut of the record of the whole REPL episode, answered by a model over the wire under the
            // reference agent and under harness loop/tools: both write the fourth page, the record's next action
            Attempt whole = Runner.attempts(
                            Planner.of(
                                    List.of(new Plan.Unit(
                                            cell(new ModelRef("openai", "repl-writer"), repl), "repl-writer")),
                                    models),
                            Policy.of(1))
                    .getFirst();
            assertTrue(whole.completed(), String.valueOf(whole.error()));
            assertEquals(1.0, whole.reward());
            EnvironmentDef env = WIKI.environment(WikiBenchmark.TASK, Map.of());
            DecisionPoint dp = Probes.decisionPoint(WIKI, env, whole.evidence().transcript(), at);
            assertEquals("write_file", dp.recorded().orElseThrow().toolNames().getFirst());
            for (Harness h : List.of(Harness.DEFAULT_REFERENCE, Harness.of("loop", "tools", null, PyDict.empty()))) {
                ProbeResult r = Probes.probe(
                        WIKI,
                        dp,
                        0,
                        new Probes.Agent(new ModelRef("openai", "next-page"), h.toValue(), "next-page " + h.label()),
                        null,
                        3,
                        0,
                        models,
                        3);
                assertEquals(1.0, r.goldRate(), r.table());
            }
        }
    }

    @TempDir
    Path tmp;

    @Test
    void storedBranchesAreOrdinaryAttemptsOfTheirOwnCellsReadAsBranchesAfterAToolCall() throws Exception {
        Checkpoint cp = Branches.checkpoint(cell(scripted("reference")), 2, NO_MODELS);
        List<Branches.Branch> bs = Branches.branches(cp, Branches.Variant.SAME.withAgent(scripted("empty")), 2);
        List<Attempt> stored = StoredBranches.run(tmp.resolve("b"), bs, NO_MODELS, 2);
        String label = StoredBranches.label(bs.getFirst());
        assertEquals("empty [branch " + cp.id().substring(0, 12) + "@2]", label);
        try (ExperimentQuery q = ExperimentQuery.open(tmp.resolve("b"))) {
            assertEquals(2, q.attempts(true).size());
            for (Attempt a : q.attempts(true)) {
                EnvironmentDef env = q.environment(a.environmentId()).orElseThrow();
                // its own environment: the task's marked with the checkpoint and the cut's unit
                assertEquals(cp.branchEvidence(), env.options().get(Branches.BRANCH));
                assertEquals(
                        "tool call",
                        env.options().get(Branches.BRANCH).asDict().get("unit").asStr());
                assertTrue(!env.id().equals(cp.env().id()));
            }
            String text = Inspect.transcript(q, stored.getFirst().id());
            assertTrue(text.contains("branch of checkpoint " + cp.id() + " at tool call 2\n"), text);
        }
    }
}
