package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.command.CommandContext;
import brokkr.domains.tau2.cli.Tau2Command;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.value.Json;
import brokkr.value.PyDict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Tau2CommandTest {
    record Outcome(int code, String out, String err) {}

    static Outcome run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        List<String> argv = new ArrayList<>(List.of("tau2"));
        argv.addAll(List.of(args));
        int code = Main.run(
                argv,
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Outcome(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void wrongArgumentsAreUsageErrors() {
        for (String[] bad : List.of(
                new String[] {},
                new String[] {"walk"},
                new String[] {"run", "--agent", "gold"},
                new String[] {"run", "--domain", "retail"},
                new String[] {"run", "--domain", "nowhere", "--agent", "gold"},
                new String[] {"run", "--domain", "retail", "--agent", "clever"},
                new String[] {"run", "--domain", "retail", "--agent", "llm"},
                new String[] {"run", "--domain", "retail", "--agent", "llm", "--model", "m"},
                new String[] {"run", "--domain", "retail", "--agent", "llm", "--model", "m", "--judge-model", "j"},
                new String[] {"run", "--domain", "retail", "--agent", "llm", "--model", "m", "--user-model", "u"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--model", "m"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--split", "dev"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--split", "test", "--task", "1"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--task", "no-such-task"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--trials", "0"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--max-steps"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--bogus"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--agent-stop-token"},
                new String[] {"run", "--domain", "retail", "--agent", "gold", "--seed", "x"})) {
            Outcome r = run(bad);
            assertEquals(2, r.code(), String.join(" ", bad) + "\n" + r.err());
            assertTrue(r.err().contains("usage: ./brokkr tau2 run"), r.err());
        }
        assertTrue(Main.commands().values().stream().anyMatch(c -> c.name().equals("tau2")));
    }

    /**
     * One domain name everywhere: {@code tau2-retail} (experiments, notebooks) and upstream's short {@code retail}
     * are one lookup, for {@code tau2 run} and {@code conformance tau2} alike, with the same output.
     */
    @Test
    void theDomainsFullAndShortNamesAreOneLookup() throws Exception {
        Outcome shortName = run("run", "--domain", "retail", "--agent", "gold", "--task", "5");
        Outcome fullName = run("run", "--domain", "tau2-retail", "--agent", "gold", "--task", "5");
        assertEquals(0, shortName.code(), shortName.err());
        assertEquals(0, fullName.code(), fullName.err());
        // the same lines but the run's wall time
        assertEquals(
                shortName.out().replaceAll(" in \\d+\\.\\d s", ""),
                fullName.out().replaceAll(" in \\d+\\.\\d s", ""));
        assertTrue(fullName.out().startsWith("tau2 retail: 1 task(s) x 1 trial(s), agent gold"), fullName.out());
        List<String> corpus =
                Files.readAllLines(ConformanceCommandTest.corpus("gold.jsonl")).subList(0, 3);
        Path three = Files.write(Files.createTempFile("retail-gold-3", ".jsonl"), corpus);
        for (String name : List.of("retail", "tau2-retail")) {
            var r = ConformanceCommandTest.main("conformance", "tau2", "--domain", name, "--corpus", three.toString());
            assertEquals(0, r.code(), name + ": " + r.out() + r.err());
            assertTrue(r.out().matches("3 sequences, \\d+ calls, 0 mismatches\n"), r.out());
        }
        Files.delete(three);
        Outcome unknown = run("run", "--domain", "tau2-nowhere", "--agent", "gold");
        assertTrue(
                unknown.err()
                        .startsWith(
                                "brokkr tau2: unknown domain 'tau2-nowhere' (available: airline, banking_knowledge, retail, telecom)"),
                unknown.err());
    }

    /**
     * Splits are the domain's: telecom's test split runs; its small and full splits name tasks of
     * tasks_full.json (absent here) and are refused, saying why and which splits are available.
     */
    @Test
    void splitsAreTheDomainsOwn() {
        Outcome test = run("run", "--domain", "telecom", "--agent", "stop", "--split", "test", "--parallelism", "4");
        assertEquals(0, test.code(), test.err());
        assertTrue(
                test.out().lines().findFirst().orElseThrow().startsWith("tau2 telecom: 40 task(s) x 1 trial(s)"),
                test.out());
        for (String[] missing : List.of(new String[] {"small", "20"}, new String[] {"full", "2285"})) {
            Outcome r = run("run", "--domain", "telecom", "--agent", "stop", "--split", missing[0]);
            assertEquals(2, r.code(), r.err());
            assertTrue(
                    r.err().contains("split '" + missing[0] + "' names " + missing[1] + " tasks but only")
                            && r.err().contains("tasks_full.json")
                            && r.err().contains("available splits: train, test, base"),
                    r.err());
        }
        Outcome dev = run("run", "--domain", "retail", "--agent", "gold", "--split", "dev");
        assertTrue(dev.err().contains("Invalid task split name: dev. Valid splits are:"), dev.err());
    }

    @Test
    void goldRunPrintsOneLinePerEpisodeAndTheAverage(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("episodes.jsonl");
        Outcome r = run(
                "run",
                "--domain",
                "retail",
                "--agent",
                "gold",
                "--task",
                "0",
                "--task",
                "5",
                "--trials",
                "2",
                "--parallelism",
                "3",
                "--out",
                log.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "tau2 retail: 2 task(s) x 2 trial(s), agent gold, user scripted, judge scripted-gold-verdict"),
                lines.get(0));
        assertEquals(
                List.of("0", "1", "1.0", "agent_stop"),
                List.of(lines.get(2).split("\\s+")).subList(0, 4));
        assertTrue(lines.get(2).contains("pass DB NL_ASSERTION"), lines.get(2));
        assertTrue(r.out().contains("average reward: 1.0000 over 4 episode(s) of 2 task(s)"), r.out());
        assertTrue(r.out().contains("pass^2: 1.0000"), r.out());
        List<String> records = Files.readAllLines(log);
        assertEquals(4, records.size());
        PyDict first = Json.parse(records.get(0)).asDict();
        assertEquals("0", first.get("task_id").asStr());
        assertEquals("scripted-gold-verdict", first.get("judge").asStr());
        assertEquals(
                "Hi! How can I help you today?",
                first.get("messages").asList().get(0).asDict().get("content").asStr());
    }

    @Test
    void stopRunSaysWhyEpisodesLost() {
        Outcome r = run("run", "--domain", "retail", "--agent", "stop", "--task", "0", "--task", "10");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(
                lines.get(2).startsWith("0 ")
                        && lines.get(2).contains("0.0")
                        && lines.get(2).contains("failed DB"),
                lines.get(2));
        assertTrue(
                lines.get(3).startsWith("10 ") && lines.get(3).contains("1.0"),
                "task 10 needs no write and has no NL assertion: " + lines.get(3));
        assertTrue(r.out().contains("average reward: 0.5000"), r.out());
    }

    /**
     * Issue 10 item 12: a record file whose last line was cut short (a killed run) gets a new line before
     * the next record, with a warning naming the file, so every new record is whole; a new file is
     * owner-only (transcripts are private data).
     */
    @Test
    void outEndsACutLastLineAndANewFileIsPrivate(@TempDir Path dir) throws Exception {
        Path fresh = dir.resolve("fresh.jsonl");
        Outcome first = run("run", "--domain", "retail", "--agent", "gold", "--task", "0", "--out", fresh.toString());
        assertEquals(0, first.code(), first.err());
        assertEquals(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"),
                Files.getPosixFilePermissions(fresh));
        String whole = Files.readString(fresh);
        String cut = whole.substring(0, whole.length() / 2);
        Path log = dir.resolve("killed.jsonl");
        Files.writeString(log, whole + cut);
        Outcome r =
                run("run", "--domain", "retail", "--agent", "gold", "--task", "5", "--out", log.toString(), "--append");
        assertEquals(0, r.code(), r.err());
        assertTrue(
                r.err()
                        .contains(log + " ended in an incomplete line (" + cut.getBytes(StandardCharsets.UTF_8).length
                                + " bytes after the last newline"),
                r.err());
        List<String> lines = Files.readAllLines(log);
        assertEquals(3, lines.size(), "the cut record stays one line of its own");
        assertEquals(cut, lines.get(1));
        assertEquals("0", Json.parse(lines.get(0)).asDict().get("task_id").asStr());
        assertEquals("5", Json.parse(lines.get(2)).asDict().get("task_id").asStr(), "the new record is whole");
        assertTrue(Files.readString(log).endsWith("\n"));
        Outcome again =
                run("run", "--domain", "retail", "--agent", "gold", "--task", "0", "--out", log.toString(), "--append");
        assertFalse(
                again.err().contains("incomplete line"),
                "a file ending in a newline is appended to as it is: " + again.err());
        assertEquals(4, Files.readAllLines(log).size());
    }

    /** A record file that cannot be opened is the command's error, before any episode runs: it names the file, exit 2. */
    @Test
    void outThatCannotBeOpenedIsRefusedBeforeAnyEpisode(@TempDir Path dir) {
        Path missingDir = dir.resolve("no-such-dir").resolve("x.jsonl");
        for (Path bad : List.of(dir, missingDir)) {
            Outcome r = run("run", "--domain", "retail", "--agent", "gold", "--task", "0", "--out", bad.toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--out " + bad), r.err());
            assertTrue(
                    r.err()
                            .contains(
                                    bad.equals(dir)
                                            ? "is a directory, not a file"
                                            : "no directory " + missingDir.getParent()),
                    r.err());
            assertFalse(r.err().contains("usage:"), "not a usage error: " + r.err());
            assertEquals("", r.out(), "nothing ran");
        }
    }

    /** Issue 10 item 16: a run in which every episode lost its model has no verdict at all: exit 3, and stderr says how many. */
    @Test
    void episodesWithoutAVerdictGiveExitStatusThree() throws Exception {
        try (var server = brokkr.provider.testing.ScriptedModelServer.start(
                req -> brokkr.provider.testing.ScriptedModelServer.Reply.json(
                        400, "{\"error\": {\"message\": \"no such model\"}}"))) {
            ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
            int code = new Tau2Command(new CommandContext(Registry.process(), server.openAiEnv()))
                    .run(
                            List.of(
                                    "run",
                                    "--domain",
                                    "retail",
                                    "--agent",
                                    "llm",
                                    "--model",
                                    "m",
                                    "--user-model",
                                    "u",
                                    "--judge-model",
                                    "j",
                                    "--task",
                                    "0",
                                    "--trials",
                                    "2"),
                            new PrintStream(o, true, StandardCharsets.UTF_8),
                            new PrintStream(e, true, StandardCharsets.UTF_8));
            String out = o.toString(StandardCharsets.UTF_8), err = e.toString(StandardCharsets.UTF_8);
            assertEquals(3, code, err);
            // Issue 31 item 8: nothing scored is said as such, never an average of 0.
            assertTrue(out.contains("average reward: - (nothing scored: none of 2 episode(s) has a verdict)"), out);
            assertFalse(out.contains("0.0000"), out);
            assertTrue(
                    err.contains(
                            "2 of 2 episode(s) have no verdict (not scored; first: task 0 trial 1: infrastructure failure: "),
                    err);
            assertTrue(err.contains("exit status 3"), err);
        }
        assertTrue(new Tau2Command(CommandContext.process()).usage().contains("3 when some episode has no verdict"));
    }

    /** The llm agent path through the CLI: every model is an OpenAI-compatible server on loopback. */
    @Test
    void llmAgentRunSendsUpstreamsSeedsAndRecordsTheRequests(@TempDir Path dir) throws Exception {
        brokkr.domains.tau2.runner.Tau2Domain domain = brokkr.domains.tau2.runner.Tau2Domains.load("retail");
        brokkr.domains.tau2.model.TaskSpec task = domain.task("2"); // has NL assertions, so the judge is asked
        try (var server = brokkr.provider.testing.ScriptedModelServer.ofCandidate((history, tools) -> {
            // One server plays all three roles, told apart by their system prompts.
            String system = history.get(0).content();
            if (system.equals(brokkr.domains.tau2.evaluator.ModelNlJudge.SYSTEM_PROMPT)) {
                return brokkr.conversation.Turn.of(new brokkr.conversation.Message.Assistant("{\"results\": []}"));
            }
            if (system.equals(domain.agentSystemPrompt()))
                return new brokkr.domains.tau2.agent.GoldReplayAgent(task).next(history, tools);
            return new brokkr.domains.tau2.user.ScriptedUser(task).next(history, tools);
        })) {
            Path log = dir.resolve("llm.jsonl");
            ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
            int code = new Tau2Command(new CommandContext(Registry.process(), server.openAiEnv()))
                    .run(
                            List.of(
                                    "run",
                                    "--domain",
                                    "retail",
                                    "--agent",
                                    "llm",
                                    "--model",
                                    "m-agent",
                                    "--user-model",
                                    "m-user",
                                    "--judge-model",
                                    "m-judge",
                                    "--task",
                                    "2",
                                    "--trials",
                                    "2",
                                    "--out",
                                    log.toString()),
                            new PrintStream(o, true, StandardCharsets.UTF_8),
                            new PrintStream(e, true, StandardCharsets.UTF_8));
            String out = o.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, e.toString(StandardCharsets.UTF_8));
            assertTrue(out.contains("agent openai:m-agent, user openai:m-user, judge openai:m-judge"), out);
            assertTrue(out.contains("user_stop"), "upstream's LLMAgent does not stop; the user does: " + out);
            assertTrue(out.contains("average reward: 1.0000 over 2 episode(s)"), out);
            List<String> records = Files.readAllLines(log);
            long[] seeds = {626729, 373753};
            for (int t = 0; t < 2; t++) {
                PyDict rec = Json.parse(records.get(t)).asDict();
                assertEquals(seeds[t], ((brokkr.value.PyInt) rec.get("seed")).longValue());
                PyDict calls = rec.get("model_calls").asDict();
                for (String side : List.of("agent", "user")) {
                    PyDict body = Json.parse(calls.get(side)
                                    .asList()
                                    .get(0)
                                    .asDict()
                                    .get("request_body")
                                    .asStr())
                            .asDict();
                    assertEquals(seeds[t], ((brokkr.value.PyInt) body.get("seed")).longValue(), side);
                    assertEquals(0.0, ((brokkr.value.PyFloat) body.get("temperature")).value(), side);
                    if (side.equals("agent"))
                        assertEquals("auto", body.get("tool_choice").asStr());
                    else assertNull(body.get("tool_choice"), "upstream's user simulator has no tools");
                }
                PyDict judgeBody = Json.parse(calls.get("judge")
                                .asList()
                                .get(0)
                                .asDict()
                                .get("request_body")
                                .asStr())
                        .asDict();
                assertNull(judgeBody.get("seed"), "upstream's judge has no seed");
                assertNull(judgeBody.get("tool_choice"));
                assertEquals("m-judge", judgeBody.get("model").asStr());
            }
        }
    }

    /**
     * Episodes that could not finish (the user simulator's server refuses a request) or whose grading
     * could not (the judge's answer is not JSON) are reported, not scored: "-" for the reward, why, and
     * excluded from the average and pass^k, as upstream excludes infrastructure errors.
     */
    @Test
    void infrastructureAndGradingFailuresAreReportedAndExcluded(@TempDir Path dir) throws Exception {
        brokkr.domains.tau2.runner.Tau2Domain domain = brokkr.domains.tau2.runner.Tau2Domains.load("retail");
        java.util.Map<String, brokkr.domains.tau2.model.TaskSpec> byPrompt = new java.util.HashMap<>(),
                byRequest = new java.util.HashMap<>();
        for (String id : List.of("2", "5")) {
            byPrompt.put(domain.userSystemPrompt().apply(domain.task(id)), domain.task(id));
            byRequest.put(domain.task(id).requestText(), domain.task(id));
        }
        long secondTrialSeed = brokkr.domains.tau2.runner.TrialSeeds.of(300, 2)[1];
        try (var server = brokkr.provider.testing.ScriptedModelServer.start(req -> {
            var d = req.chat();
            String system = d.history().get(0).content();
            brokkr.conversation.Turn t;
            if (system.equals(brokkr.domains.tau2.evaluator.ModelNlJudge.SYSTEM_PROMPT)) {
                t = brokkr.conversation.Turn.of(new brokkr.conversation.Message.Assistant("All met, I think."));
            } else if (system.equals(domain.agentSystemPrompt())) {
                t = new brokkr.domains.tau2.agent.GoldReplayAgent(
                                byRequest.get(d.history().get(2).content()))
                        .next(d.history(), d.tools());
            } else {
                brokkr.domains.tau2.model.TaskSpec task = byPrompt.get(system);
                if (task.id().equals("5")
                        && ((brokkr.value.PyInt) req.json().get("seed")).longValue() == secondTrialSeed) {
                    return brokkr.provider.testing.ScriptedModelServer.Reply.json(
                            400, "{\"error\": {\"message\": \"bad request\"}}");
                }
                t = new brokkr.domains.tau2.user.ScriptedUser(task).next(d.history(), d.tools());
            }
            return brokkr.provider.testing.ScriptedModelServer.Reply.json(
                    brokkr.provider.OpenAiChat.encodeResponse(t.message(), d.model(), "chatcmpl-" + req.index()));
        })) {
            Path log = dir.resolve("failures.jsonl");
            ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
            int code = new Tau2Command(new CommandContext(Registry.process(), server.openAiEnv()))
                    .run(
                            List.of(
                                    "run",
                                    "--domain",
                                    "retail",
                                    "--agent",
                                    "llm",
                                    "--model",
                                    "m-agent",
                                    "--user-model",
                                    "m-user",
                                    "--judge-model",
                                    "m-judge",
                                    "--task",
                                    "2",
                                    "--task",
                                    "5",
                                    "--trials",
                                    "2",
                                    "--out",
                                    log.toString()),
                            new PrintStream(o, true, StandardCharsets.UTF_8),
                            new PrintStream(e, true, StandardCharsets.UTF_8));
            assertEquals(
                    Main.EXIT_NO_VERDICT,
                    code,
                    "3 of 4 episodes have no verdict: " + e.toString(StandardCharsets.UTF_8));
            assertTrue(
                    e.toString(StandardCharsets.UTF_8)
                            .contains("3 of 4 episode(s) have no verdict (not scored; first: task 2 trial 1: "),
                    e.toString(StandardCharsets.UTF_8));
            String all = o.toString(StandardCharsets.UTF_8).strip();
            // One row per episode (the judge's parse error runs on to a second line).
            List<String> rows = all.lines().filter(l -> l.matches("\\d+ .*")).toList();
            assertEquals(4, rows.size(), all);
            for (int trial : List.of(1, 2)) {
                String row = rows.get(trial - 1);
                assertEquals(
                        List.of("2", String.valueOf(trial), "-", "user_stop"),
                        List.of(row.split("\\s+")).subList(0, 4),
                        row);
                assertTrue(row.contains("grading failed: judge: judge answer is not JSON"), row);
            }
            assertEquals(
                    List.of("5", "1", "1.0", "user_stop"),
                    List.of(rows.get(2).split("\\s+")).subList(0, 4),
                    rows.get(2));
            assertEquals(
                    List.of("5", "2", "-", "infrastructure_error", "0"),
                    List.of(rows.get(3).split("\\s+")).subList(0, 5),
                    rows.get(3));
            assertTrue(
                    rows.get(3)
                            .endsWith(
                                    "not evaluated: openai m-user: HTTP 400 (not retried): {\"error\": {\"message\": \"bad request\"}}"),
                    rows.get(3));
            assertTrue(
                    all.contains(
                            "average reward: 1.0000 over 1 episode(s) of 1 task(s) (3 infrastructure failure(s) excluded)"),
                    all);
            assertTrue(all.endsWith("pass^1: 1.0000"), all);
            List<String> records = Files.readAllLines(log);
            assertEquals(4, records.size());
            PyDict graded = Json.parse(records.get(0)).asDict(),
                    cut = Json.parse(records.get(3)).asDict();
            assertTrue(((brokkr.value.PyBool) graded.get("infrastructure_failure")).value());
            assertTrue(graded.get("grading_failure").asStr().startsWith("judge: judge answer is not JSON"));
            assertEquals(
                    1,
                    graded.get("model_calls").asDict().get("judge").asList().size(),
                    "the judge's unparsable answer is recorded");
            assertEquals("infrastructure_error", cut.get("termination_reason").asStr());
            assertTrue(cut.get("grading_failure").isNone());
            assertEquals(
                    400L,
                    ((brokkr.value.PyInt) cut.get("model_calls")
                                    .asDict()
                                    .get("user")
                                    .asList()
                                    .get(0)
                                    .asDict()
                                    .get("status"))
                            .longValue());
        }
    }

    /**
     * Everything tau2 run's flags set is expressible in an experiment file: the preset's definitions
     * are the ones the equivalent experiment plans (same EnvironmentDef and AgentDef ids), so the two
     * share cells, and trial i is repetition i - 1.
     */
    @Test
    void itsFlagsAreAnExperimentsDefinitions(@TempDir Path dir) throws Exception {
        brokkr.experiment.Registry registry = brokkr.experiment.Registry.load();
        Tau2Command.Args a = Tau2Command.parse(
                List.of(
                        "run",
                        "--domain",
                        "retail",
                        "--agent",
                        "llm",
                        "--model",
                        "m-agent",
                        "--user-model",
                        "m-user",
                        "--judge-model",
                        "m-judge",
                        "--provider",
                        "vllm",
                        "--task",
                        "5",
                        "--task",
                        "12",
                        "--seed",
                        "7",
                        "--max-steps",
                        "50",
                        "--max-errors",
                        "3",
                        "--enforce-protocol",
                        "--agent-stop-token",
                        "--trials",
                        "2"),
                registry);
        Tau2Command.Preset preset = Tau2Command.preset(a, registry);
        Path file = dir.resolve("same.yaml");
        Files.writeString(file, """
                name: same
                domain: tau2-retail
                tasks: ["5", "12"]
                options: {run_seed: 7, max_steps: 50, max_errors: 3, enforce_communication_protocol: true, agent_stop_token: true}
                candidates:
                  - {id: agent, provider: vllm, model: m-agent, options: {temperature: 0.0, tool_choice: auto}}
                user: {provider: vllm, model: m-user, options: {temperature: 0.0}}
                judge: {provider: vllm, model: m-judge, options: {temperature: 0.0}}
                repetitions: 2
                """);
        var plan = Planner.plan(brokkr.experiment.ExperimentSpec.read(file), registry)
                .units();
        assertEquals(4, plan.size());
        List<String> presetCells = new ArrayList<>(), experimentCells = new ArrayList<>();
        for (var env : preset.environments())
            for (int r = 0; r < a.trials(); r++)
                presetCells.add(env.id() + " " + preset.agent().id() + " " + r);
        for (var p : plan)
            experimentCells.add(p.cell().env().id() + " " + p.cell().agent().id() + " "
                    + p.cell().repetition());
        assertEquals(experimentCells, presetCells);
        assertEquals(
                PyDict.of(
                        "max_steps",
                        50,
                        "max_errors",
                        3,
                        "enforce_communication_protocol",
                        true,
                        "run_seed",
                        7,
                        "agent_stop_token",
                        true),
                preset.environments().getFirst().options());
        // The scripted candidates: no user or judge named, so the benchmark's scripted ones.
        Tau2Command.Preset gold = Tau2Command.preset(
                Tau2Command.parse(List.of("run", "--domain", "retail", "--agent", "gold", "--task", "5"), registry),
                registry);
        assertEquals(new brokkr.eval.ModelRef("scripted", "gold"), gold.agent().modelRef());
        assertEquals(
                brokkr.domains.tau2.runner.Tau2Benchmark.DEFAULT_JUDGE,
                gold.environments().getFirst().models().get("judge"));
        assertEquals(
                new brokkr.domains.tau2.retail.RetailBenchmark()
                        .environment("5", java.util.Map.of())
                        .id(),
                gold.environments().getFirst().id(),
                "without flags, an experiment's default definition");
    }

    /**
     * Issue 31 item 9: --out refuses a file that exists (before: two runs appended into one file silently)
     * unless --append (add to it) or --force (replace it, still owner-only).
     */
    @Test
    void outRefusesAnExistingFileUnlessAppendOrForce(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.jsonl");
        assertEquals(
                0,
                run("run", "--domain", "retail", "--agent", "gold", "--task", "0", "--out", log.toString())
                        .code());
        String before = Files.readString(log);
        Outcome refused = run("run", "--domain", "retail", "--agent", "gold", "--task", "5", "--out", log.toString());
        assertEquals(2, refused.code(), refused.err());
        assertEquals(
                "brokkr tau2: --out " + log
                        + " exists; give --append to add to it or --force to replace it (refused: two runs in one file)",
                refused.err().strip());
        assertEquals(before, Files.readString(log), "the file is untouched");
        Files.setPosixFilePermissions(log, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Outcome forced =
                run("run", "--domain", "retail", "--agent", "gold", "--task", "5", "--out", log.toString(), "--force");
        assertEquals(0, forced.code(), forced.err());
        List<String> lines = Files.readAllLines(log);
        assertEquals(1, lines.size(), "replaced");
        assertEquals("5", Json.parse(lines.getFirst()).asDict().get("task_id").asStr());
        assertEquals(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"),
                Files.getPosixFilePermissions(log));
        Outcome both = run(
                "run",
                "--domain",
                "retail",
                "--agent",
                "gold",
                "--task",
                "5",
                "--out",
                log.toString(),
                "--force",
                "--append");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("give --append or --force, not both"), both.err());
        assertEquals(
                2,
                run("run", "--domain", "retail", "--agent", "gold", "--task", "5", "--append")
                        .code());
    }

    /**
     * Issue 31 item 5: --timeout-seconds and --max-attempts reach every model of the run and change no
     * content id (before: no such flags, and the options were part of the candidate's identity).
     */
    @Test
    void timeoutAndAttemptsAreFlagsThatChangeNoContentId() {
        Registry registry = Registry.load();
        List<String> base = List.of(
                "run",
                "--domain",
                "retail",
                "--agent",
                "llm",
                "--model",
                "m",
                "--user-model",
                "u",
                "--judge-model",
                "j",
                "--task",
                "5");
        List<String> timed = new ArrayList<>(base);
        timed.addAll(List.of("--timeout-seconds", "7", "--max-attempts", "2"));
        Tau2Command.Preset plain = Tau2Command.preset(Tau2Command.parse(base, registry), registry);
        Tau2Command.Preset fast = Tau2Command.preset(Tau2Command.parse(timed, registry), registry);
        assertEquals(plain.agent().id(), fast.agent().id());
        assertEquals(
                plain.environments().getFirst().id(),
                fast.environments().getFirst().id());
        var options = fast.agent().modelRef().options();
        assertEquals(7L, ((brokkr.value.PyInt) options.get("timeout_seconds")).longValue());
        assertEquals(2L, ((brokkr.value.PyInt) options.get("max_attempts")).longValue());
        assertEquals(
                7L, ((brokkr.value.PyInt) fast.roles().get("user").options().get("timeout_seconds")).longValue());
        assertTrue(run("--help").out().contains("--timeout-seconds"));
    }

    /**
     * Issue 31 item 7: an episode that ended other than by an agent or user stop is graded 0 and counted, as
     * upstream's evaluate_simulation does ("Simulation terminated prematurely"); its row says so (before:
     * "not evaluated", while the average counted its 0).
     */
    @Test
    void anEpisodeEndedEarlyIsSaidToBeGradedZeroAsItIsCounted() {
        Outcome r = run("run", "--domain", "retail", "--agent", "gold", "--task", "0", "--max-steps", "1");
        assertEquals(0, r.code(), r.err());
        String row = r.out().lines().filter(l -> l.startsWith("0 ")).findFirst().orElseThrow();
        assertTrue(row.contains("ended early (max_steps): reward 0, as upstream grades it"), row);
        assertFalse(row.contains("not evaluated"), row);
        assertTrue(r.out().contains("average reward: 0.0000 over 1 episode(s)"), r.out());
    }
}
