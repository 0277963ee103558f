package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.magics.view.RunView;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code %run} with a model candidate: the cell goes through the evaluation path with models made by
 * the registry's OpenAI factory (base URL from its environment), here a model server on loopback that
 * plays the domain's own scripted policies, so the run has a known outcome.
 */
class ModelRunTest {
    /** What the live display was shown, in order. */
    static final class Recording implements Display {
        final List<Object> shown = new CopyOnWriteArrayList<>();

        @Override
        public String show(Object value) {
            shown.add(value);
            return "run";
        }

        @Override
        public void update(String id, Object value) {
            shown.add(value);
        }
    }

    static Session session(ScriptedModelServer server, Recording display) {
        Registry models =
                Registry.process().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
        Session s = new Session(MagicRegistry.standard(), models);
        s.display(display);
        return s;
    }

    @Test
    void aModelCandidateWalksTheLoopOverHttpWithProgressAndTranscript() throws Exception {
        BenchmarkProvider loop = Benches.load(Registry.process(), "loop").provider();
        Candidate ideal = loop.scripted(
                Evidence.AGENT, new ModelRef(BenchmarkProvider.SCRIPTED, "ideal"), loop.environment("10", Map.of()));
        Recording display = new Recording();
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(ideal)) {
            Session s = session(server, display);
            s.magic("%domain load loop");
            RunView run = (RunView) s.magic("%run --task 10 --candidate openai:loop-walker");
            assertEquals(1.0, run.reward(), run.text());
            assertEquals("openai:loop-walker", run.candidate());
            assertTrue(run.passed(), run.text());
            int requests = server.requestCount();
            assertTrue(requests >= 10, "one request per step of the walk: " + requests);
            assertEquals("loop-walker", server.requests().getFirst().chat().model());
            List<Evidence.RecordedCall> calls = run.attempt().evidence().modelCalls();
            assertEquals(requests, calls.size(), "every request recorded in the attempt");
            assertTrue(calls.stream()
                    .allMatch(c -> c.role().equals(Evidence.AGENT) && c.call().status() == 200));
            assertTrue(run.html().contains("follow_pointer("), "the rendered transcript shows the tool calls");
            assertTrue(run.text().contains("grade: reward 1.0"), run.text());

            Session.RunProgress first = (Session.RunProgress) display.shown.getFirst();
            assertEquals(0, first.modelCalls());
            assertFalse(first.finished());
            Session.RunProgress last = (Session.RunProgress) display.shown.getLast();
            assertTrue(last.finished(), last.text());
            assertEquals(requests, last.modelCalls());
            assertTrue(
                    last.text().startsWith("loop task 10, openai:loop-walker: " + requests + " model calls, "),
                    last.text());
        }
    }

    /**
     * tau2 retail task 5 with every role a model: the server answers agent requests (they carry tools)
     * with the domain's gold replay and user requests with its scripted customer, both made through
     * the provider's own {@code scripted} for the task, so the episode is the gold one over HTTP.
     */
    @Test
    void tau2RunsAModelAgentOppositeAModelUser() throws Exception {
        BenchmarkProvider retail =
                Benches.load(Registry.process(), "tau2-retail").provider();
        EnvironmentDef env = retail.environment("5", Map.of());
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            String role = d.tools().isEmpty() ? "user" : Evidence.AGENT;
            Candidate c = retail.scripted(
                    role, new ModelRef(BenchmarkProvider.SCRIPTED, role.equals("user") ? "user" : "gold"), env);
            return Reply.json(OpenAiChat.encodeResponse(
                    c.next(d.history(), d.tools()).message(), d.model(), "chatcmpl-" + req.index()));
        })) {
            Recording display = new Recording();
            Session s = session(server, display);
            s.magic("%domain load tau2-retail");
            RunView run = (RunView) s.magic(
                    "%run --task 5 --candidate openai:agent-model --user openai:user-model --judge openai:judge-model");
            assertEquals(1.0, run.reward(), run.text());
            assertEquals("user_stop", run.stop(), "upstream's LLM agent does not stop; the customer does");
            assertEquals(
                    List.of("agent", "user"),
                    run.attempt().evidence().modelCalls().stream()
                            .map(Evidence.RecordedCall::role)
                            .distinct()
                            .sorted()
                            .toList(),
                    "task 5 has no NL assertion: the judge is not asked");
            assertTrue(
                    run.dialogue().stream().anyMatch(l -> l.role().equals("user")),
                    "the customer's turns are in the transcript");
            assertTrue(run.dialogue().stream().anyMatch(l -> l.role().equals("tool")), "and the tool results");
            assertTrue(run.checks().stream().anyMatch(c -> c.name().equals("DB") && c.passed()), run.text());
            assertTrue(server.requests().stream().anyMatch(r -> r.chat().model().equals("user-model")));
            assertTrue(((Session.RunProgress) display.shown.getLast()).finished());
        }
    }

    @Test
    void modelRunsSayWhatIsMissingBeforeRunning() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.sequence()) {
            Session s = session(server, new Recording());
            s.magic("%domain load tau2-retail");
            String missing = assertThrows(
                            MagicUsageException.class, () -> s.magic("%run --task 5 --candidate openai:m"))
                    .getMessage();
            assertTrue(
                    missing.contains(
                            "a model candidate on tau2-retail also needs --user PROVIDER:MODEL (the customer (user simulator))"
                                    + " and --judge PROVIDER:MODEL"),
                    missing);
            assertTrue(assertThrows(
                            MagicUsageException.class,
                            () -> s.magic("%run --task 5 --candidate openai:m --user gpt --judge openai:j"))
                    .getMessage()
                    .contains("--user takes PROVIDER:MODEL"));
            assertTrue(assertThrows(
                            MagicUsageException.class,
                            () -> s.magic("%run --task 5 --candidate nosuch:m --user openai:u --judge openai:j"))
                    .getMessage()
                    .contains("unknown model provider 'nosuch'"));
            assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%run --task 5 --candidate genius"))
                    .getMessage()
                    .contains("one of gold, stop, or a model as PROVIDER:MODEL"));
            assertTrue(assertThrows(
                            MagicUsageException.class,
                            () -> s.magic("%run --task 5 --candidate openai: --user openai:u --judge openai:j"))
                    .getMessage()
                    .contains("--candidate takes PROVIDER:MODEL"));
            s.magic("%domain load loop");
            assertTrue(assertThrows(
                            MagicUsageException.class,
                            () -> s.magic("%run --task 5 --candidate openai:m --user openai:u"))
                    .getMessage()
                    .contains("loop takes no --user model (its agent is the only model)"));
            assertEquals(0, server.requestCount(), "nothing ran");
        }
    }
}
