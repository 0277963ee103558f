package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sandbox's snippets compile against the sandbox JVM's class path (its image's jar), not the harness's:
 * a harness class (on this test JVM's class path) is a compile error, as the sandbox JVM sees it, instead
 * of compiling and failing at run time; and javac no longer indexes the harness's jars once per episode.
 */
class SandboxClassPathTest {
    private static final SandboxConfig CONFIG = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(20));

    @Test
    void harnessClassesDoNotCompileAndTheSandboxOwnDo() {
        try (Sandbox s = Sandbox.start(CONFIG)) {
            for (String use : List.of(
                    "brokkr.value.PyDict.empty()",
                    "new brokkr.sandbox.SandboxConfig(64, java.time.Duration.ofSeconds(1), 10, null)",
                    "org.junit.jupiter.api.Assertions.fail(\"x\")")) {
                Sandbox.EvalResult r = s.evaluate(use, Sandbox.CallHandler.NONE);
                assertEquals(
                        Sandbox.Kind.COMPILE,
                        r.error() == null ? null : r.error().kind(),
                        use + ": " + r);
                assertTrue(
                        r.error().message().contains("does not exist")
                                || r.error().message().contains("cannot find symbol"),
                        r.error().message());
            }
            Sandbox.EvalResult bridge =
                    s.evaluate("brokkr.sandbox.SandboxBridge.map(\"a\", 1).size()", Sandbox.CallHandler.NONE);
            assertEquals("1", bridge.value(), String.valueOf(bridge.error()));
            Sandbox.EvalResult jdk = s.evaluate(
                    "new java.util.TreeMap<>(Map.of(\"b\", 2, \"a\", 1)).toString()", Sandbox.CallHandler.NONE);
            assertEquals("\"{a=1, b=2}\"", jdk.value(), String.valueOf(jdk.error()));
        }
    }
}
