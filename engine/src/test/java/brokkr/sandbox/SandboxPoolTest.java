package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The process-wide pool keeps one warm sandbox JVM per core ready, each handed out once. */
class SandboxPoolTest {
    @Test
    void theSharedPoolKeepsOneWarmSandboxPerCore() throws Exception {
        // A config of this test's own, so its shared pool is this test's alone.
        SandboxConfig config = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(31));
        SandboxPool pool = SandboxPool.shared(config);
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(Math.min(64, cores), pool.size());
        try (Sandbox first = pool.acquire()) {
            assertTrue(first.evaluate("int mine = 1;", Sandbox.CallHandler.NONE).ok());
            long deadline = System.currentTimeMillis() + 120_000;
            while (pool.readyCount() < pool.size() && System.currentTimeMillis() < deadline) Thread.sleep(50);
            assertEquals(pool.size(), pool.readyCount(), "warm JVMs started ahead");
        }
        try (Sandbox next = pool.acquire()) {
            assertEquals(
                    Sandbox.Kind.COMPILE,
                    next.evaluate("mine", Sandbox.CallHandler.NONE).error().kind(),
                    "a warm sandbox has no earlier episode's state");
        } finally {
            pool.close();
        }
    }
}
