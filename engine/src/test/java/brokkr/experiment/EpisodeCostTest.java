package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.cost.PriceTable;
import brokkr.eval.Evidence;
import brokkr.eval.Interaction;
import brokkr.eval.ModelRef;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an episode costs ({@link EpisodeCost}) and the scorecard's means per completed episode
 * ({@link Scorecard.Cost#perEpisode}): from the protocol's own counts where it keeps them, else from the
 * recorded model calls; tokens missing (NaN), never 0, for a model that reports none.
 */
class EpisodeCostTest {
    @TempDir
    Path tmp;

    static ModelCall call(String provider, String body) {
        return new ModelCall(provider, "m", 1, body, 200, "{}", null, 0, 0);
    }

    static Evidence evidence(
            String transcriptJson, PyDict output, List<Evidence.RecordedCall> calls, Map<String, Usage> usage) {
        return new Evidence(null, Json.parse(transcriptJson), output, "agent_stop", null, calls, usage, null, null);
    }

    static final String TRANSCRIPT = """
            [{"role": "user", "content": "hi", "tool_calls": [{"id": "u1", "name": "toggle_airplane_mode", "arguments": {}}]},
             {"role": "assistant", "content": null, "tool_calls": [{"id": "a1", "name": "f", "arguments": {}}, {"id": "a2", "name": "g", "arguments": {}}]},
             {"role": "tool", "content": "ok"},
             {"role": "assistant", "content": "done", "tool_calls": null},
             {"role": "assistant", "content": null, "tool_calls": [{"id": "a3", "name": "f", "arguments": {}}]}]""";

    @Test
    void theProtocolsOwnCountsComeFirstAndAScriptedModelReportsNoTokens() {
        // tau2's shape: the protocol counted 7 steps of 9000 characters and 4 domain calls; the scripted gold agent
        // recorded no call.
        Evidence e = new Evidence(
                null,
                Json.parse(TRANSCRIPT),
                PyDict.empty(),
                "agent_stop",
                null,
                List.of(),
                Map.of(Evidence.AGENT, Usage.ZERO, "user", new Usage(50, 5)),
                null,
                null,
                new Interaction.Counts(7L, 9000L, 4L));
        EpisodeCost c = EpisodeCost.of(e);
        assertEquals(new EpisodeCost.Requests(7, 9000), c.requests());
        assertEquals(4, c.toolCalls(), "the protocol's count of domain calls, not the transcript's");
        assertNull(c.tokens(), "no call and no usage: not measured, not 0");
        // The counts survive the evidence's round trip (the store keeps evidence as its JSON value).
        assertEquals(e.counts(), Evidence.fromValue(e.toValue()).counts());
        // A protocol that counts only its tool calls: the transcript's count gives way, the requests stay unknown.
        Evidence calls = new Evidence(
                null,
                Json.parse(TRANSCRIPT),
                PyDict.empty(),
                "agent_stop",
                null,
                List.of(),
                Map.of(),
                null,
                null,
                Interaction.Counts.toolCalls(5));
        assertEquals(5, EpisodeCost.of(calls).toolCalls());
        assertNull(EpisodeCost.of(calls).requests());
    }

    /** Stores written before the counts were typed kept tau2's steps and characters as string keys of its output: they still read. */
    @Test
    void anOldStoresStringKeysStillRead() {
        Evidence e = evidence(
                TRANSCRIPT,
                PyDict.of(EpisodeCost.LEGACY_MODEL_STEPS, 7, EpisodeCost.LEGACY_REQUEST_CHARS, 9000),
                List.of(),
                Map.of(Evidence.AGENT, Usage.ZERO, "user", new Usage(50, 5)));
        EpisodeCost c = EpisodeCost.of(e);
        assertEquals(new EpisodeCost.Requests(7, 9000), c.requests());
        assertEquals(3, c.toolCalls(), "the assistant's calls only: the user's own tool call is not the candidate's");
        assertNull(e.counts());
    }

    /** The one measure of request sizes: each step's messages and tools, texts only, whatever model answers. */
    @Test
    void theCounterCountsStepsAndTheCharactersOfWhatIsSent() throws Exception {
        Interaction.Counter counter = new Interaction.Counter();
        var model = counter.wrap((history, tools) -> brokkr.conversation.Turn.of(new Message.Assistant("ok")));
        var tools = List.of(new brokkr.conversation.ToolSpec("f", "does f", PyDict.of("type", "object")));
        Message system = new Message.System("sys"), user = new Message.User("hello");
        Message.Assistant call = new Message.Assistant(null, List.of(new ToolCall("c1", "f", PyDict.of("a", 1))));
        model.next(List.of(system, user), tools);
        model.next(List.of(system, user, call, new Message.Tool("c1", "f", "done", false)), tools);
        long toolChars = "f".length() + "does f".length() + "{\"type\": \"object\"}".length();
        long first = 3 + 5 + toolChars, second = first + "f".length() + "{\"a\": 1}".length() + "done".length();
        assertEquals(new Interaction.Counts(2L, first + second, 1L), counter.counts(1L));
    }

    @Test
    void withoutProtocolCountsTheAgentsRecordedCallsAreItsStepsAndRequestCharacters() {
        List<Evidence.RecordedCall> calls = List.of(
                new Evidence.RecordedCall(Evidence.AGENT, call("scripted", "x".repeat(100))),
                new Evidence.RecordedCall("user", call("openai", "y".repeat(1000))),
                new Evidence.RecordedCall(Evidence.AGENT, call("scripted", "z".repeat(23))));
        EpisodeCost scripted = EpisodeCost.of(evidence(
                TRANSCRIPT, PyDict.empty(), calls, Map.of(Evidence.AGENT, Usage.ZERO, "user", new Usage(9, 9))));
        assertEquals(
                new EpisodeCost.Requests(2, 123),
                scripted.requests(),
                "the user simulator's call is not the candidate's");
        assertNull(scripted.tokens(), "calls of a scripted model report no tokens");

        // A real provider that reported 0 tokens reported them: 0, not missing.
        List<Evidence.RecordedCall> real = List.of(new Evidence.RecordedCall(Evidence.AGENT, call("openai", "{}")));
        assertEquals(
                Usage.ZERO,
                EpisodeCost.of(evidence("[]", PyDict.empty(), real, Map.of(Evidence.AGENT, Usage.ZERO)))
                        .tokens());

        // Neither counted nor recorded (a gold replay that asks no model): no steps, no characters.
        EpisodeCost none = EpisodeCost.of(evidence("[]", PyDict.empty(), List.of(), Map.of()));
        assertNull(none.requests());
        assertEquals(0, none.toolCalls());
    }

    @Test
    void meansAreOverTheEpisodesThatKnowAFigureAndMissingWhenNoneDoes() {
        var a = new EpisodeCost(new Usage(100, 10), new EpisodeCost.Requests(2, 500), 3);
        var b = new EpisodeCost(new Usage(300, 30), new EpisodeCost.Requests(4, 1500), 1);
        assertEquals(new EpisodeCost.Means(2, 200, 20, 3, 2, 1000), EpisodeCost.Means.of(List.of(a, b)));
        var scripted = new EpisodeCost(null, new EpisodeCost.Requests(5, 700), 2);
        EpisodeCost.Means m = EpisodeCost.Means.of(List.of(scripted, scripted));
        assertTrue(Double.isNaN(m.inputTokens()) && Double.isNaN(m.outputTokens()), m.toString());
        assertEquals(5, m.modelSteps());
        assertEquals(700, m.requestChars());
        assertEquals(EpisodeCost.Means.NONE, EpisodeCost.Means.of(List.of()));
    }

    /** A quiz model on loopback (OpenAI wire) reporting 40 + task number input tokens and 3 output tokens. */
    static ScriptedModelServer quizModel() {
        return ScriptedModelServer.start(req -> {
            var d = req.chat();
            String task = d.history().getLast().content().split(" ")[1];
            Message.Assistant answer = new Message.Assistant(
                    null,
                    List.of(new ToolCall("c1", "answer", PyDict.of("value", QuizBench.secret(task)))),
                    new Usage(40 + Integer.parseInt(task.substring(1)), 3));
            return Reply.json(OpenAiChat.encodeResponse(answer, d.model(), "chatcmpl-" + req.index()));
        });
    }

    /**
     * A small store, by hand: 3 quiz tasks x 2 trials of a loopback model reporting tokens and of the quiz's
     * scripted oracle (which asks no model). Loopback: tokens (40+41+42)*2/6 = 41 in, 3 out; one step and one
     * tool call an episode; request characters the mean length of the six bodies the server received. Oracle:
     * one tool call an episode, no tokens and no steps (missing, not 0).
     */
    @Test
    void theScorecardCarriesTheMeansPerEpisodeOfEachCandidate() throws Exception {
        var spec = ExperimentTest.spec(
                "all",
                2,
                2,
                0,
                List.of(
                        new ExperimentSpec.CandidateSpec(
                                "loopback", new ModelRef("openai", "quiz-model"), "tools", null),
                        new ExperimentSpec.CandidateSpec("oracle", new ModelRef("scripted", "oracle"), "tools", null)));
        Path dir = tmp.resolve("x");
        double bodyChars;
        try (ScriptedModelServer server = quizModel()) {
            Experiments.Result r = Experiments.run(spec, dir, ModelCacheTest.registry(ModelCacheTest.env(server)));
            assertEquals(12, r.completed(), r.summary());
            assertEquals(6, server.requestCount());
            bodyChars =
                    server.requests().stream().mapToInt(q -> q.body().length()).sum() / 6.0;
        }
        assertTrue(bodyChars > 100, "the requests carry the system prompt, the task and the tool: " + bodyChars);
        Scorecard card = Experiments.scorecard(dir);
        var loopback = ExperimentTest.row(card, "loopback").cost();
        assertEquals(new EpisodeCost.Means(6, 41, 3, 1, 1, bodyChars), loopback.perEpisode());
        assertTrue(Double.isNaN(loopback.perEpisode().usd(Evidence.AGENT)), "quiz-model has no price: a dash");
        assertEquals(41 * 6, loopback.inputTokens(), "the totals are the same tokens");
        var oracle = ExperimentTest.row(card, "oracle").cost().perEpisode();
        assertEquals(6, oracle.episodes());
        assertEquals(1.0, oracle.toolCalls());
        for (double missing :
                new double[] {oracle.inputTokens(), oracle.outputTokens(), oracle.modelSteps(), oracle.requestChars()
                }) {
            assertTrue(Double.isNaN(missing), oracle.toString());
        }

        // The store's scorecard (evidence read one attempt at a time) is the pure function of its attempts.
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<ExperimentStore.Cell> cells =
                    q.cells().stream().filter(ExperimentStore.Cell::active).toList();
            assertEquals(Scorecard.of(cells, q.attempts(true)), Scorecard.of(q));
            assertEquals(12, q.episodeCosts(true).size());

            // Priced from the recorded tokens at a table naming the model ($2 in, $8 out per million): episodes
            // of tasks q0..q2 cost (40..42 * 2 + 3 * 8) / 1e6, 106e-6 on average; the oracle (no model) and the
            // roles that asked none (user simulator, judge) are unpriced, not $0. A new price table changes the
            // figure, not the cells.
            PriceTable prices = PriceTable.pinned()
                    .with(
                            new com.fasterxml.jackson.databind.ObjectMapper()
                                    .readTree("{\"openai:quiz-model\": {\"input\": 2, \"output\": 8}}"),
                            "test");
            Scorecard priced = Scorecard.of(q, prices);
            EpisodeCost.Means m = ExperimentTest.row(priced, "loopback").cost().perEpisode();
            assertEquals(106e-6, m.usd(Evidence.AGENT), 1e-15);
            assertTrue(Double.isNaN(m.usd("user")) && Double.isNaN(m.usd("judge")), m.toString());
            assertTrue(Double.isNaN(
                    ExperimentTest.row(priced, "oracle").cost().perEpisode().usd(Evidence.AGENT)));
            assertEquals(card.withoutCost(), priced.withoutCost());
        }
    }

    @Test
    void toolCallsOfATranscriptThatIsNotAListAreNone() {
        assertEquals(0, EpisodeCost.toolCalls(Value.str("not a transcript")));
    }
}
