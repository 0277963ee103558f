package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyDict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model-call cache ({@code cache: true}): an identical request (model, exact body, trial) is served
 * from the cache and recorded as a hit; a changed request is a miss; a re-run from a shared cache file
 * needs no model server; the cache holds no API key.
 */
class ModelCacheTest {
    @TempDir
    Path tmp;

    static final String KEY = "sk-cache-test-0123456789";

    /** An OpenAI-wire quiz model answering each task's secret, and echoing the key it was sent in its text. */
    static ScriptedModelServer quizModel() {
        return ScriptedModelServer.start(req -> {
            var d = req.chat();
            String[] words = d.history().getLast().content().split(" ");
            Message.Assistant answer = new Message.Assistant(
                    "my key is " + req.credential(),
                    List.of(new ToolCall("c1", "answer", PyDict.of("value", QuizBench.secret(words[1])))));
            return Reply.json(OpenAiChat.encodeResponse(answer, d.model(), "chatcmpl-" + req.index()));
        });
    }

    static Registry registry(Map<String, String> env) {
        return Registry.of(List.of(new QuizBench(3)), List.of(new ProviderModels("openai", env) {}));
    }

    static Map<String, String> env(ScriptedModelServer server) {
        Map<String, String> env = new HashMap<>(server.openAiEnv());
        env.put("OPENAI_API_KEY", KEY);
        return env;
    }

    ExperimentSpec spec(String candidate, String cacheFile) throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: cached
                domain: quiz
                split: all
                candidates:
                %s
                repetitions: 2
                progress: false
                %s""".formatted(candidate, cacheFile == null ? "" : "cache_file: " + cacheFile + "\n"));
        return ExperimentSpec.read(file);
    }

    static final String CACHED = "  - {id: m, provider: openai, model: quiz-model, cache: true}";

    static List<ModelCall> calls(Path dir) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return q.attempts(true).stream()
                    .flatMap(a -> a.evidence().modelCalls().stream())
                    .map(Evidence.RecordedCall::call)
                    .toList();
        }
    }

    @Test
    void aRerunFromASharedCacheFileIsServedWholeWithoutAModelServer() throws Exception {
        Path cacheFile = tmp.resolve("shared").resolve("calls.db");
        ExperimentSpec spec = spec(CACHED, cacheFile.toString());
        Experiments.Result first;
        try (ScriptedModelServer server = quizModel()) {
            first = Experiments.run(spec, tmp.resolve("first"), registry(env(server)));
            assertEquals(6, server.requestCount(), "3 tasks x 2 trials, every call a miss");
        }
        assertTrue(calls(tmp.resolve("first")).stream().noneMatch(ModelCall::cacheHit));
        // The server is gone: every call of the re-run elsewhere is served from the cache, and said to be.
        Map<String, String> noServer = Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1", "OPENAI_API_KEY", KEY);
        Experiments.Result again = Experiments.run(spec, tmp.resolve("again"), registry(noServer));
        assertEquals(6, again.completed(), again.summary());
        assertEquals(
                first.scorecard().rows().getFirst().avgReward(),
                again.scorecard().rows().getFirst().avgReward());
        assertEquals(1.0, again.scorecard().rows().getFirst().avgReward());
        List<ModelCall> hits = calls(tmp.resolve("again"));
        assertEquals(6, hits.size());
        assertTrue(hits.stream().allMatch(ModelCall::cacheHit), "hits are recorded as such");
        // The exact requests are recorded with the hits, as they were with the calls that were sent.
        assertEquals(
                calls(tmp.resolve("first")).stream()
                        .map(ModelCall::requestBody)
                        .sorted()
                        .toList(),
                hits.stream().map(ModelCall::requestBody).sorted().toList());
        try (ExperimentQuery q = ExperimentQuery.open(tmp.resolve("again"))) {
            Attempt a = q.attempts(true).getFirst();
            assertTrue(
                    Inspect.record(q, a.id()).toString().contains("cache_hit"), "the stored record says it was a hit");
            assertTrue(
                    Inspect.transcript(q, a.id()).contains("model calls: 1 (1 served from the model-call cache)"),
                    Inspect.transcript(q, a.id()));
        }
    }

    @Test
    void theCacheInTheStoreServesAnIdenticalRequestAndAChangedOneIsAMiss() throws Exception {
        Path dir = tmp.resolve("store");
        try (ScriptedModelServer server = quizModel()) {
            Experiments.run(spec(CACHED, null), dir, registry(env(server)));
            assertEquals(6, server.requestCount());
            // A new definition whose requests are the same (its own system prompt, the text of the quiz's
            // default one): all hits, no request.
            Experiments.run(
                    spec(
                            "  - {id: m2, provider: openai, model: quiz-model, system_prompt: Answer the quiz., cache: true}",
                            null),
                    dir,
                    registry(env(server)));
            assertEquals(6, server.requestCount(), "identical requests are served from the store's cache");
            // A changed request (another system prompt) is a miss: sent, and recorded as sent.
            var r = Experiments.run(
                    spec(
                            "  - {id: m3, provider: openai, model: quiz-model, system_prompt: Be brief., cache: true}",
                            null),
                    dir,
                    registry(env(server)));
            assertEquals(12, server.requestCount(), r.summary());
            // Without cache: true nothing is served from it (seed: a new definition).
            Experiments.run(
                    spec("  - {id: m4, provider: openai, model: quiz-model, options: {seed: 3}}", null),
                    dir,
                    registry(env(server)));
            assertEquals(18, server.requestCount());
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            Map<String, Long> hitsByAgent = new HashMap<>();
            for (Attempt a : q.attempts(false)) {
                for (var c : a.evidence().modelCalls())
                    if (c.call().cacheHit()) hitsByAgent.merge(a.agentId(), 1L, Long::sum);
            }
            assertEquals(1, hitsByAgent.size(), "only the second definition was served: " + hitsByAgent);
            assertEquals(6L, hitsByAgent.values().iterator().next());
        }
    }

    @Test
    void theTrialIsPartOfTheKey() {
        String body = "{\"model\": \"m\"}";
        assertEquals(ModelCache.key("openai", "m", 1, body), ModelCache.key("openai", "m", 1, body));
        assertNotEquals(ModelCache.key("openai", "m", 1, body), ModelCache.key("openai", "m", 2, body));
        assertNotEquals(ModelCache.key("openai", "m", 1, body), ModelCache.key("openai", "m2", 1, body));
        assertNotEquals(ModelCache.key("openai", "m", 1, body), ModelCache.key("anthropic", "m", 1, body));
        assertNotEquals(ModelCache.key("openai", "m", 1, body), ModelCache.key("openai", "m", 1, body + " "));
    }

    @Test
    void theCacheNeverHoldsTheKey() throws Exception {
        Path cacheFile = tmp.resolve("keys.db");
        try (ScriptedModelServer server = quizModel()) {
            Experiments.run(spec(CACHED, cacheFile.toString()), tmp.resolve("keys"), registry(env(server)));
            assertTrue(
                    server.requests().stream().allMatch(r -> ("Bearer " + KEY).equals(r.credential())),
                    "the key was sent and echoed back");
        }
        try (ModelCache cache = ModelCache.sharedFile(cacheFile)) {
            assertEquals(6, cache.size());
        }
        try (Stream<Path> files = Files.list(tmp)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("keys.db"))
                    .toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertFalse(bytes.contains(KEY), f + " holds the key");
                assertTrue(
                        f.getFileName().toString().equals("keys.db") ? bytes.contains("my key is ") : true,
                        "the response is kept, redacted");
            }
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheFile)));
    }

    @Test
    void cacheSettingsAreReadStrictly() throws Exception {
        var e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> spec("  - {id: m, provider: openai, model: x, cache: yes please}", null));
        assertTrue(e.getMessage().contains("cache' must be true or false"), e.getMessage());
        e = assertThrows(
                ExperimentSpec.SpecException.class, () -> spec("  - {id: m, provider: openai, model: x}", "c.db"));
        assertTrue(e.getMessage().contains("no candidate or role says cache: true"), e.getMessage());
        ExperimentSpec s = spec(CACHED, "c.db");
        assertEquals(tmp.resolve("c.db").toAbsolutePath().normalize(), s.cache().file());
        assertTrue(s.cache().covers("agent", "m") && !s.cache().covers("user", "m"));
        assertTrue(s.toJson().contains("\"cache\""));
        assertFalse(
                spec("  - {id: m, provider: openai, model: x}", null).toJson().contains("\"cache\""),
                "a spec without a cache is stored as before");
    }
    /**
     * A {@code cache_file} that is not a Brokkr cache (another application's SQLite database, another experiment's
     * store, a text file) is refused by name before anything is created, and left byte for byte as it was: no
     * table added, no switch to WAL, no {@code -wal}/{@code -shm} beside it. A cache file made by Brokkr opens again.
     */
    @Test
    void aCacheFileThatIsNotABrokkrCacheIsRefusedAndLeftAlone() throws Exception {
        Path foreign = tmp.resolve("app.db");
        SqliteLibrary.prepare();
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + foreign);
                var st = c.createStatement()) {
            st.execute("CREATE TABLE people(name TEXT)");
            st.execute("INSERT INTO people VALUES ('ada')");
        }
        Path otherStore;
        try (ScriptedModelServer server = quizModel()) {
            otherStore = tmp.resolve("other");
            Experiments.run(spec(CACHED, null), otherStore, registry(env(server)));
        }
        Path text = tmp.resolve("notes.txt");
        Files.writeString(
                text,
                "not a database, but long enough to hold an SQLite header of one hundred bytes "
                        + "if it were one, which it is not");
        for (Path file : List.of(foreign, ExperimentStore.file(otherStore), text)) {
            byte[] before = Files.readAllBytes(file);
            Path dir = tmp.resolve("run-" + file.getFileName());
            var e = assertThrows(
                    ExperimentStore.StoreException.class,
                    () -> Experiments.run(spec(CACHED, file.toString()), dir, registry(Map.of("OPENAI_API_KEY", KEY))));
            assertTrue(e.getMessage().contains(file + " is not a Brokkr model-call cache"), e.getMessage());
            assertArrayEquals(before, Files.readAllBytes(file), file + " was changed");
            if (!file.equals(ExperimentStore.file(otherStore))) {
                assertFalse(Files.exists(Path.of(file + "-wal")), "a WAL beside " + file);
                assertFalse(Files.exists(Path.of(file + "-shm")), "an index beside " + file);
            }
            assertFalse(Files.exists(dir), "the experiment directory was created");
        }
        Path cacheFile = tmp.resolve("mine.db");
        try (ModelCache cache = ModelCache.sharedFile(cacheFile)) {
            cache.put("k", "openai", "m", 1, new ModelCache.Entry(200, "{}"));
        }
        try (ModelCache cache = ModelCache.sharedFile(cacheFile)) {
            assertEquals(1, cache.size(), "Brokkr's own cache file opens again");
        }
    }
}
