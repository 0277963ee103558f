package brokkr.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import brokkr.http.LoopbackHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link EnvServer} as a trainer calls it: a client in Python's standard library only ({@code gold_client.py},
 * urllib + json, run by /usr/bin/python3) plays the gold actions of every tau2 retail test task over HTTP, read from
 * upstream's task file, to reward 1.0 each, and sees a bad token, an unknown task or session, malformed actions and a
 * reset over the session cap refused clearly (never a 500).
 */
class EnvServerTest {
    private static final int MAX_SESSIONS = 2;

    @Test
    void aPythonClientPlaysEveryRetailTestTaskToRewardOneOverHttp() throws Exception {
        Registry registry = Registry.process();
        Path data = SharedDirs.tau2Data().resolve("data/tau2/domains/retail");
        Path script = Files.createTempFile("gold_client", ".py");
        try (var in = EnvServerTest.class.getResourceAsStream("gold_client.py")) {
            Files.write(script, in.readAllBytes());
        }
        String token = LoopbackHttp.newToken();
        // The NL assertions of retail's reward basis are judged by the scripted all-met judge (no model); the DB
        // checks are real.
        try (Env env = new Env(
                        registry.benchmark("tau2-retail"),
                        Env.Settings.defaults()
                                .withRoles(Map.of("judge", new ModelRef("scripted", "all-met")))
                                .withMaxSessions(MAX_SESSIONS),
                        registry.resolver());
                EnvServer server = EnvServer.start(env, token, LoopbackHttp.Options.LOOPBACK)) {
            ProcessBuilder pb = new ProcessBuilder(
                            "/usr/bin/python3",
                            script.toString(),
                            data.resolve("tasks.json").toString(),
                            data.resolve("split_tasks.json").toString(),
                            "test",
                            Integer.toString(MAX_SESSIONS))
                    .redirectErrorStream(true);
            pb.environment().put("BROKKR_ENV_URL", server.url().toString());
            pb.environment().put("BROKKR_ENV_TOKEN", token);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), out);
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("OK 40 tasks, reward 1.0 each"), out);
            assertEquals(0, env.liveSessions());
        } finally {
            Files.deleteIfExists(script);
        }
    }
}
