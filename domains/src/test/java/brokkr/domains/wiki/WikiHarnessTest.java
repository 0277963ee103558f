package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wiki under {@code harness: loop}, with the file tools and with the Java REPL, its models behind the OpenAI
 * wire on a loopback server: each lists and reads the documents and writes its wiki (the REPL model first sends
 * Java that does not compile and reads the error), and is graded on the one evaluation path. Attempts of different
 * candidates writing different wikis run four at once, each in its own workspace: every attempt scores its own
 * wiki's grade, and the records equal those of the same experiment run one attempt at a time.
 */
class WikiHarnessTest {
    @TempDir
    Path tmp;

    static final WikiWorld W = WikiWorld.generate(WikiWorld.PUBLIC_SEED);

    /** The wiki model {@code name} writes: {@code ...-stale} the stale variant, else the reference. */
    static Map<String, String> pages(String model) {
        return new TreeMap<>(ReferenceWiki.of(
                W, model.endsWith("-stale") ? ReferenceWiki.Kind.STALE : ReferenceWiki.Kind.REFERENCE));
    }

    static ToolCall call(int i, String name, Object... kv) {
        PyDict args = PyDict.of(kv);
        return new ToolCall("call_" + i, name, args, PyJson.dumps(args), null);
    }

    /** The loop model with the JSON tools: a pure function of its step (list, read all, write all, done). */
    static Message.Assistant toolsModel(String model, List<Message> history) {
        long step = history.stream().filter(m -> m instanceof Message.Assistant).count();
        List<ToolCall> calls = new ArrayList<>();
        if (step == 0) calls.add(call(0, "list_files", "path", "/docs"));
        else if (step == 1) {
            String listing = ((Message.Tool) history.getLast()).content();
            int i = 0;
            for (String p : listing.split("\n")) calls.add(call(i++, "read_file", "path", p));
        } else if (step == 2) {
            int i = 0;
            for (var p : pages(model).entrySet())
                calls.add(call(i++, "write_file", "path", p.getKey(), "content", p.getValue()));
        } else return new Message.Assistant("done");
        return new Message.Assistant(null, calls);
    }

    static final String BROKEN_JAVA = "wiki.list_files(\"/docs\"";

    /** The REPL model: broken Java, then Java that reads every document, then Java that writes every page, then done. */
    static Message.Assistant replModel(String model, List<Message> history) {
        long step = history.stream().filter(m -> m instanceof Message.Assistant).count();
        String code;
        if (step == 0) code = BROKEN_JAVA;
        else if (step == 1) {
            assertTrue(((Message.Tool) history.getLast()).content().startsWith("Compile error: "));
            code = "int chars = 0;\nfor (String p : wiki.list_files(\"/docs\").split(\"\\n\")) chars += "
                    + "wiki.read_file(p).length();\nchars";
        } else if (step == 2) {
            StringBuilder b = new StringBuilder();
            for (var p : pages(model).entrySet())
                b.append("wiki.write_file(")
                        .append(JavaApi.lit(p.getKey()))
                        .append(", ")
                        .append(JavaApi.lit(p.getValue()))
                        .append(");\n");
            code = b.toString();
        } else return new Message.Assistant("done");
        return new Message.Assistant(null, List.of(call(0, JavaRepl.TOOL, "code", code)));
    }

    static ExperimentSpec spec(int parallelism) {
        Harness tools = Harness.of("loop", "tools", null, PyDict.empty());
        Harness repl = Harness.of("loop", "repl", "inspect", PyDict.empty());
        var candidates = List.of(
                new ExperimentSpec.CandidateSpec("loop", new ModelRef("openai", "loop-ref"), "tools", null, tools),
                new ExperimentSpec.CandidateSpec("repl", new ModelRef("openai", "repl-ref"), "repl", null, repl),
                new ExperimentSpec.CandidateSpec(
                        "loop-stale", new ModelRef("openai", "loop-stale"), "tools", null, tools),
                new ExperimentSpec.CandidateSpec(
                        "repl-stale", new ModelRef("openai", "repl-stale"), "repl", null, repl));
        return new ExperimentSpec(
                "wiki-harness",
                List.of(new ExperimentSpec.DomainSpec("wiki", "public", null)),
                candidates,
                2,
                parallelism,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
    }

    /** What an attempt's record says beyond its ids and timings: equal between a parallel and a serial run. */
    record Outcome(String label, int repetition, double reward, Object checks, String finalWorld, Object transcript) {}

    static List<Outcome> outcomes(ExperimentQuery store, Map<String, String> labelOfAgent) {
        List<Outcome> out = new ArrayList<>();
        for (Attempt a : store.attempts(true))
            out.add(new Outcome(
                    labelOfAgent.get(a.agentId()),
                    a.repetition(),
                    a.reward(),
                    a.checks(),
                    a.evidence().finalWorldSha256(),
                    a.evidence().transcript()));
        out.sort(java.util.Comparator.comparing(Outcome::label).thenComparing(Outcome::repetition));
        return out;
    }

    @Test
    void loopAndReplHarnessesWriteTheirWikisInParallelAsInSeries() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            DecodedRequest req = r.chat();
            List<String> offered = req.tools().stream().map(ToolSpec::name).toList();
            boolean repl = req.model().startsWith("repl");
            assertEquals(repl ? List.of(JavaRepl.TOOL) : WikiTools.NAMES, offered);
            Message.Assistant m = repl ? replModel(req.model(), req.history()) : toolsModel(req.model(), req.history());
            return Reply.json(OpenAiChat.encodeResponse(m, req.model(), "chatcmpl-" + r.index()));
        })) {
            ProviderModels openai = new ProviderModels("openai", server.openAiEnv()) {};
            Registry registry = Registry.load().with(List.of(), List.of(openai));
            Map<String, String> labels = new TreeMap<>();
            for (var c : spec(1).candidates()) labels.put(c.agentDef().id(), c.label());

            var parallel = Experiments.run(spec(4), tmp.resolve("parallel"), registry);
            assertEquals(8, parallel.completed(), parallel.summary());
            Map<String, String> docs = WikiBenchmark.docs(W);
            double stale = WikiChecker.grade(Gold.of(W), docs, pages("x-stale")).score();
            assertTrue(stale < 1.0);
            List<Outcome> inParallel;
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("parallel"))) {
                inParallel = outcomes(store, labels);
                for (Attempt a : store.attempts(true)) {
                    String label = labels.get(a.agentId());
                    WikiChecker.Grade own = WikiChecker.grade(Gold.of(W), docs, pages(label));
                    assertEquals(own.score(), a.reward(), label);
                    assertEquals(own.checks(), a.checks().subList(1, a.checks().size()), label);
                    if (!label.endsWith("-stale")) assertEquals(1.0, a.reward(), label);
                    // The protocol's record holds the file calls, however the model made them: it replays to the
                    // attempt's final workspace, and the counts are the loop's.
                    assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), label);
                    var counts = a.evidence().counts();
                    assertEquals(4L, counts.modelSteps(), label);
                    assertEquals(1L + docs.size() + pages(label).size(), counts.toolCalls(), label);
                }
            }
            var serial = Experiments.run(spec(1), tmp.resolve("serial"), registry);
            assertEquals(8, serial.completed(), serial.summary());
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("serial"))) {
                assertEquals(inParallel, outcomes(store, labels));
            }
        }
    }
}
