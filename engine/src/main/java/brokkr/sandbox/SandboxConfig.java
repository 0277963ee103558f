package brokkr.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The limits of a sandbox JVM.
 *
 * @param heapMb         the child's maximum heap ({@code -Xmx}); an allocation beyond it is an
 *                       {@code OutOfMemoryError} in the snippet, which is its error result
 * @param evalTimeout    wall time one evaluation may take (time spent in the harness answering tool
 *                       calls is not counted); then it is stopped and its result is a timeout error
 * @param outputCapChars characters of a snippet's output the sandbox keeps (the rest is counted, not
 *                       kept); what a model is shown is truncated further by its harness
 * @param isolation      how the child is contained ({@link Isolation#detect()}: bubblewrap when present)
 */
public record SandboxConfig(int heapMb, Duration evalTimeout, int outputCapChars, Isolation isolation) {
    /** The child's heap range in MiB (harness option {@code heap_mb} is checked against it up front). */
    public static final int MIN_HEAP_MB = 32, MAX_HEAP_MB = 65536;

    public SandboxConfig {
        if (heapMb < MIN_HEAP_MB || heapMb > MAX_HEAP_MB)
            throw new IllegalArgumentException(
                    "heapMb must be between " + MIN_HEAP_MB + " and " + MAX_HEAP_MB + ", got " + heapMb);
        if (evalTimeout.isNegative() || evalTimeout.isZero())
            throw new IllegalArgumentException("evalTimeout must be positive");
        if (outputCapChars < 1) throw new IllegalArgumentException("outputCapChars must be at least 1");
    }

    public static final SandboxConfig DEFAULT =
            new SandboxConfig(256, Duration.ofSeconds(10), 1 << 20, Isolation.detect());

    public SandboxConfig withEvalTimeout(Duration d) {
        return new SandboxConfig(heapMb, d, outputCapChars, isolation);
    }

    public SandboxConfig withHeapMb(int mb) {
        return new SandboxConfig(mb, evalTimeout, outputCapChars, isolation);
    }

    /** How the sandbox JVM is contained by the operating system. */
    public enum Isolation {
        /**
         * bubblewrap ({@code bwrap}): new user, PID, network, IPC and UTS namespaces; a read-only root with
         * only the JDK, the sandbox's own classes and the episode's scratch folder (writable) mounted;
         * the JDK's process-spawn helper replaced by an empty file; no environment variables.
         */
        BWRAP,
        /** The child JVM as a plain process (JVM-level limits only: heap, time, output, process launcher, no environment). */
        PROCESS;

        static final Path BWRAP_PATH = Path.of("/usr/bin/bwrap");

        /** bubblewrap when it is installed (the environment variable {@code BROKKR_SANDBOX=process} forces a plain process). */
        public static Isolation detect() {
            if ("process".equals(System.getenv("BROKKR_SANDBOX"))) return PROCESS;
            return BwrapProbe.WORKS ? BWRAP : PROCESS;
        }
    }

    /** Whether bubblewrap is installed and may create namespaces here (probed once: it is not on every kernel). */
    private static final class BwrapProbe {
        static final boolean WORKS = probe();

        private static boolean probe() {
            if (!Files.isExecutable(Isolation.BWRAP_PATH)) return false;
            try {
                Process p = new ProcessBuilder(
                                Isolation.BWRAP_PATH.toString(), "--unshare-all", "--ro-bind", "/", "/", "true")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                return p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0;
            } catch (java.io.IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
