package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.Evidence;
import brokkr.eval.TrustTier;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each long text of an attempt is stored once: the raw response, the transcript and the answer refer to it. */
class EvidenceCodecTest {
    @TempDir
    Path tmp;

    /** A long answer with quotes, newlines, a tab, non-ASCII and an astral character, distinct per seed. */
    static String answer(int chars, int seed) {
        StringBuilder sb = new StringBuilder("answer " + seed + ": ");
        for (int i = 0; sb.length() < chars; i++)
            sb.append("line ").append(i).append(" says \"héllo\"\tand 𝄞 \\ done\n");
        return sb.toString();
    }

    /**
     * An attempt whose model answered {@code text}: the raw response (OpenAI's shape, UTF-8 as servers
     * send it), the transcript, the protocol's output, and a follow-up request repeating it in its
     * history (ASCII-escaped, as Brokkr encodes requests).
     */
    static Evidence evidence(String text) {
        String response = PyJson.dumps(
                PyDict.of(
                        "id",
                        "chatcmpl-1",
                        "choices",
                        List.of(PyDict.of("index", 0, "message", PyDict.of("role", "assistant", "content", text)))),
                PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        String followUp = PyJson.dumps(PyDict.of(
                "model",
                "m",
                "messages",
                List.of(
                        PyDict.of("role", "user", "content", "hi"),
                        PyDict.of("role", "assistant", "content", text),
                        PyDict.of("role", "user", "content", "and?"))));
        var calls = List.of(
                new Evidence.RecordedCall(
                        "agent",
                        new ModelCall(
                                "openai", "m", 1, "{\"model\": \"m\", \"messages\": []}", 200, response, null, 1, 2)),
                new Evidence.RecordedCall(
                        "agent", new ModelCall("openai", "m", 1, followUp, 200, "{\"choices\": []}", null, 3, 4)));
        var transcript =
                PyList.of(PyDict.of("role", "user", "content", "hi"), PyDict.of("role", "assistant", "content", text));
        return new Evidence(
                PyDict.of("seed", 1),
                transcript,
                PyDict.of("answer", text),
                "agent_stop",
                "ab".repeat(32),
                calls,
                Map.of("agent", new Usage(10, 20)),
                PyDict.of("protocol_ms", 5),
                PyDict.of("note", "short"));
    }

    @Test
    void noKeyOfTheEnvironmentIsStoredWhicheverProviderItBelongsTo() {
        // Fake keys of two providers in this JVM's environment (engine/pom.xml), in a tool message of the transcript
        // and a long answer (stored by reference): neither the evidence JSON nor a stored text keeps them.
        String openai = System.getenv("BROKKR_TEST_OPENAI_API_KEY"),
                anthropic = System.getenv("BROKKR_TEST_ANTHROPIC_API_KEY");
        org.junit.jupiter.api.Assumptions.assumeTrue(openai != null && anthropic != null, "set by engine/pom.xml");
        String text = "the environ said " + openai + " and " + anthropic + " " + answer(5_000, 3);
        var enc = EvidenceCodec.encode(evidence(text));
        for (String stored : concat(enc.json(), enc.blobs().values())) {
            assertFalse(stored.contains(openai) || stored.contains(anthropic), "a key was stored");
        }
        assertTrue(String.join("", enc.blobs().values()).contains(brokkr.provider.Secret.REDACTED));
    }

    private static List<String> concat(String first, java.util.Collection<String> rest) {
        List<String> out = new java.util.ArrayList<>(rest);
        out.add(first);
        return out;
    }

    @Test
    void aLongAnswerIsStoredOnceAndReadBackExactly() {
        String text = answer(100_000, 1);
        Evidence e = evidence(text);
        var enc = EvidenceCodec.encode(e);
        int whole = PyJson.dumps(e.toValue(), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false))
                .length();
        assertTrue(whole > 4 * text.length(), "stored whole it is " + whole + " chars, four copies of the answer");
        assertEquals(1, enc.blobs().size(), enc.blobs().keySet().toString());
        assertEquals(text, enc.blobs().values().iterator().next());
        assertTrue(
                enc.json().length() < 2_000,
                "the evidence refers to the answer: " + enc.json().length() + " chars");
        assertEquals(e, EvidenceCodec.decode(enc.json(), shas -> enc.blobs()));
        // Evidence stored whole (a version-1 store) reads as before.
        assertEquals(e, EvidenceCodec.decode(PyJson.dumps(e.toValue()), shas -> {
            throw new AssertionError("no blobs to fetch");
        }));
    }

    /** What the protocol counted is stored with the evidence, so a store read back (experiment show after a resume) has it. */
    @Test
    void theProtocolsCountsAreStoredAndReadBack() {
        Evidence e = new Evidence(
                PyDict.empty(),
                PyList.of(),
                PyDict.empty(),
                "agent_stop",
                null,
                List.of(),
                Map.of(),
                null,
                null,
                new brokkr.eval.Interaction.Counts(12L, 34_567L, 3L));
        var enc = EvidenceCodec.encode(e);
        assertTrue(
                enc.json().contains("\"counts\": {\"model_steps\": 12, \"request_chars\": 34567, \"tool_calls\": 3}"),
                enc.json());
        assertEquals(
                e.counts(),
                EvidenceCodec.decode(enc.json(), shas -> enc.blobs()).counts());
        assertEquals(EpisodeCost.of(e), EpisodeCost.of(EvidenceCodec.decode(enc.json(), shas -> enc.blobs())));
        // Evidence of a protocol that counted nothing stores no counts at all, as before.
        assertTrue(!EvidenceCodec.encode(evidence("short")).json().contains("\"counts\""));
    }

    @Test
    void textsThatLookLikeReferencesAndBodiesWithNulRoundTrip() {
        String fake = "\0blob:" + "0".repeat(64);
        var calls = List.of(new Evidence.RecordedCall(
                "agent",
                new ModelCall(
                        "openai",
                        "m",
                        1,
                        "req \0 with NUL " + answer(3000, 2),
                        500,
                        "[\"\\u0000json:" + "1".repeat(64) + "\"]",
                        "HTTP 500",
                        1,
                        2)));
        Evidence e = new Evidence(
                PyDict.of("x", fake),
                PyList.of(PyDict.of("role", "user", "content", "\0json:abc")),
                PyDict.of("a", List.of(fake, "\0")),
                null,
                null,
                calls,
                Map.of(),
                null,
                null);
        var enc = EvidenceCodec.encode(e);
        assertEquals(e, EvidenceCodec.decode(enc.json(), shas -> enc.blobs()));
    }

    @Test
    void theStoreKeepsEachLongAnswerOnceAcrossAttempts() throws Exception {
        Path dir = tmp.resolve("x");
        var spec = ExperimentTest.spec("all", 3, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        var plan = Planner.plan(spec, ExperimentTest.registry(1, new QuizBench.Models()))
                .units();
        String text = answer(400_000, 3);
        long[] ids = new long[3];
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            store.register(
                    spec.name(),
                    spec.toJson(),
                    List.of(plan.getFirst().cell().env()),
                    List.of(plan.getFirst().cell().agent()),
                    plan.stream().map(StoreSink::row).toList());
            for (int r = 0; r < 3; r++) {
                var row = StoreSink.row(plan.get(r));
                ids[r] = store.record(new Attempt(
                                0,
                                row.key().environmentId(),
                                row.key().agentId(),
                                r,
                                row.taskId(),
                                Attempt.Status.COMPLETED,
                                List.of(new Check("correct", true)),
                                1.0,
                                TrustTier.DETERMINISTIC,
                                evidence(text),
                                null,
                                0,
                                1))
                        .id();
            }
        }
        long bytes = Files.size(ExperimentStore.file(dir));
        int utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        // Three attempts, each with the answer four times over: kept once (plus pages' slack), where whole it was
        // twelve copies.
        assertTrue(bytes < 1.5 * utf8, "store of " + bytes + " bytes for a " + utf8 + "-byte answer");
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            for (long id : ids)
                assertEquals(evidence(text), q.attempt(id).orElseThrow().evidence());
            assertFalse(Inspect.transcript(q, ids[0]).isEmpty());
        }
    }
}
