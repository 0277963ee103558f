package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 items 5 and 6: what a cell's identity is made of. Operational settings (a model's timeout,
 * attempts, response cap) change no content id, so fixing a timeout resumes into the cells made; the
 * server a model is reached at is recorded on every attempt, and a resume against another one is
 * refused unless allowed.
 */
class RunIdentityTest {
    @TempDir
    Path tmp;

    ExperimentSpec spec(String candidate) throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: identity
                domain: quiz
                split: all
                candidates:
                %s
                repetitions: 2
                progress: false
                """.formatted(candidate));
        return ExperimentSpec.read(file);
    }

    /** Before: timeout_seconds and max_attempts were part of the AgentDef, so the second run started over (12 requests). */
    @Test
    void aTimeoutOrAttemptCountChangesNoContentIdAndTheRunResumesIntoTheCellsMade() throws Exception {
        Path dir = tmp.resolve("store");
        try (ScriptedModelServer server = ModelCacheTest.quizModel()) {
            Registry registry = ModelCacheTest.registry(ModelCacheTest.env(server));
            Experiments.run(spec("  - {id: m, provider: openai, model: quiz-model}"), dir, registry);
            assertEquals(6, server.requestCount());
            var again = Experiments.run(
                    spec("  - {id: m, provider: openai, model: quiz-model,"
                            + " options: {timeout_seconds: 30, max_attempts: 2, max_response_bytes: 100000}}"),
                    dir,
                    registry);
            assertEquals(6, again.skipped(), again.summary());
            assertEquals(6, server.requestCount(), "nothing ran again");
        }
        PyDict operational = PyDict.of("timeout_seconds", 30, "max_attempts", 2, "temperature", 0.0);
        AgentDef plain = AgentDef.of(new ModelRef("openai", "m", PyDict.of("temperature", 0.0)), "tools", null);
        AgentDef timed = AgentDef.of(new ModelRef("openai", "m", operational), "tools", null);
        assertEquals(plain.id(), timed.id());
        assertEquals(30, ((brokkr.value.PyInt) timed.modelRef().options().get("timeout_seconds")).longValue());
        // What changes a request is identity: a new candidate.
        assertNotEquals(
                plain.id(),
                AgentDef.of(new ModelRef("openai", "m", PyDict.of("temperature", 0.5)), "tools", null)
                        .id());
        // The same for the models of a task's definition (user simulator, judge).
        EnvironmentDef a = new EnvironmentDef(
                "b",
                "r",
                Map.of(),
                "t",
                Map.of("user", new ModelRef("openai", "u", PyDict.of("temperature", 0.0))),
                null);
        EnvironmentDef b = new EnvironmentDef(
                "b", "r", Map.of(), "t", Map.of("user", new ModelRef("openai", "u", operational)), null);
        assertEquals(a.id(), b.id());
    }

    /** Before: the base URL was recorded nowhere, and a run against another server resumed into the old cells. */
    @Test
    void theEndpointIsRecordedOnEveryAttemptAndAResumeAgainstAnotherIsRefusedUnlessAllowed() throws Exception {
        Path dir = tmp.resolve("store");
        ExperimentSpec spec = spec("  - {id: m, provider: openai, model: quiz-model}");
        String first;
        try (ScriptedModelServer server = ModelCacheTest.quizModel()) {
            first = server.openAiEnv().get("OPENAI_BASE_URL");
            Experiments.run(spec, dir, ModelCacheTest.registry(ModelCacheTest.env(server)));
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            for (Attempt at : q.attempts(true)) {
                assertEquals(
                        Map.of("agent", first.replaceAll("/$", "")),
                        at.evidence().endpoints());
                assertTrue(!at.evidence().toValue().toString().contains(ModelCacheTest.KEY), "no credential");
            }
        }
        try (ScriptedModelServer other = ModelCacheTest.quizModel()) {
            Registry registry = ModelCacheTest.registry(ModelCacheTest.env(other));
            String second = other.openAiEnv().get("OPENAI_BASE_URL").replaceAll("/$", "");
            var refused = assertThrows(
                    Experiments.EndpointChangedException.class,
                    () -> Experiments.run(spec, dir, registry, ProgressListener.NONE, new brokkr.run.Cancellation()));
            assertTrue(refused.getMessage().contains("6 stored cell(s)"), refused.getMessage());
            assertTrue(refused.getMessage().contains(first.replaceAll("/$", "")), refused.getMessage());
            assertTrue(refused.getMessage().contains(second), refused.getMessage());
            assertTrue(refused.getMessage().contains("--allow-endpoint-change"), refused.getMessage());
            assertEquals(0, other.requestCount());
            var allowed =
                    Experiments.run(spec, dir, registry, ProgressListener.NONE, new brokkr.run.Cancellation(), true);
            assertEquals(6, allowed.skipped(), allowed.summary());
        }
    }

    @Test
    void aBaseUrlIsRecordedWithoutCredentials() {
        assertEquals(
                "https://host:8443/v1",
                brokkr.provider.HttpProvider.withoutCredentials("https://user:sk-secret@host:8443/v1/?key=sk-x#f"));
        assertEquals("http://127.0.0.1:9/v1", brokkr.provider.HttpProvider.withoutCredentials("http://127.0.0.1:9/v1"));
    }
}
