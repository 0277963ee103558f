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
 * @param isolation      how the child is contained: {@link Isolation#BWRAP} unless a plain process was asked
 *                       for ({@code harness_options: {sandbox: process}}); a sandbox that should be contained by
 *                       bubblewrap where bubblewrap does not work does not start (never a silent fallback)
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
            new SandboxConfig(256, Duration.ofSeconds(10), 1 << 20, Isolation.BWRAP);

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
         * only the JDK and the sandbox's own classes mounted, a size-limited scratch tmpfs (writable), a
         * read-only {@code /dev}; the JDK's process-spawn helper replaced by an empty file; no environment
         * variables.
         */
        BWRAP,
        /**
         * The child JVM as a plain process (JVM-level limits only: heap, time, output, process launcher, no
         * environment, the harness's own process unreadable): only when asked for by name, and warned about.
         */
        PROCESS;

        /** The name in harness options ({@code sandbox: bwrap | process}). */
        public String option() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The isolation named {@code name} in harness options; IllegalArgumentException for another name. */
        public static Isolation ofOption(String name) {
            for (Isolation i : values()) if (i.option().equals(name)) return i;
            throw new IllegalArgumentException("sandbox must be bwrap or process, not '" + name + "'");
        }

        /** bubblewrap's path: {@code /usr/bin/bwrap}, or {@code -Dbrokkr.sandbox.bwrap} (tests point it elsewhere). */
        static Path bwrapPath() {
            return Path.of(System.getProperty("brokkr.sandbox.bwrap", "/usr/bin/bwrap"));
        }

        /** Whether bubblewrap is installed and may create namespaces here (probed once per path: not on every kernel). */
        static boolean bwrapWorks() {
            return BwrapProbe.WORKS.computeIfAbsent(bwrapPath(), BwrapProbe::probe);
        }
    }

    private static final class BwrapProbe {
        static final java.util.Map<Path, Boolean> WORKS = new java.util.concurrent.ConcurrentHashMap<>();

        private static boolean probe(Path bwrap) {
            if (!Files.isExecutable(bwrap)) return false;
            try {
                Process p = new ProcessBuilder(bwrap.toString(), "--unshare-all", "--ro-bind", "/", "/", "true")
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
