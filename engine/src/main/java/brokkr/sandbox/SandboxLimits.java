package brokkr.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The limits of a sandbox process that its JVM's own options cannot set (harness side only, never in the
 * sandbox image): a bounded tail of its standard error, and a cap on its tasks (threads and processes)
 * through a pids cgroup where this machine lets the harness make one.
 *
 * <p>Why a cgroup and not {@code RLIMIT_NPROC}: Linux exempts the root user from that limit in every user
 * namespace ({@code copy_process} checks {@code real_cred->user != INIT_USER}), and for other users it
 * counts every task the user has on the host (a harness with more threads than the limit could not start
 * a sandbox at all). A pids cgroup counts exactly the sandbox's process tree.
 */
final class SandboxLimits {
    private SandboxLimits() {}

    /** Bytes a snippet may write to its scratch folder under bubblewrap (a size-limited tmpfs). */
    static final long SCRATCH_BYTES = 64L << 20;
    /** Tasks (threads, processes) a sandbox's process tree may have; a sandbox JVM itself runs about 20. */
    static final int MAX_TASKS = 256;
    /** Bytes of the sandbox JVM's standard error kept (the end: a crash's reason is last); the rest is counted. */
    static final int STDERR_TAIL = 16 << 10;

    private static final AtomicInteger GROUPS = new AtomicInteger();
    private static final Path PARENT = taskGroupParent();

    /** Whether sandboxes here get a task limit (a pids cgroup the harness may create). */
    static boolean taskLimitAvailable() {
        return PARENT != null;
    }

    /**
     * One sandbox's pids cgroup: its process tree joins it before bubblewrap or the JVM starts (a shell
     * writes its own pid into it, then executes the command), so every thread counts from the first.
     */
    record TaskGroup(Path dir) {
        /** A new group with {@link #MAX_TASKS}, or null when this machine offers none. */
        static TaskGroup create() {
            if (PARENT == null) return null;
            Path dir =
                    PARENT.resolve("brokkr-sandbox-" + ProcessHandle.current().pid() + "-" + GROUPS.incrementAndGet());
            try {
                Files.createDirectory(dir);
                Files.writeString(dir.resolve("pids.max"), Integer.toString(MAX_TASKS));
                return new TaskGroup(dir);
            } catch (IOException | UnsupportedOperationException e) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // a cgroup folder that cannot be removed is empty: it holds no process
                }
                return null;
            }
        }

        /** {@code command} started inside this group. */
        List<String> wrap(List<String> command) {
            List<String> out = new ArrayList<>(
                    List.of("/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", dir.toString()));
            out.addAll(command);
            return out;
        }

        /** The highest number of tasks the group held (the kernel's {@code pids.peak}), or -1 when unknown. */
        long peak() {
            try {
                return Long.parseLong(Files.readString(dir.resolve("pids.peak")).strip());
            } catch (IOException | NumberFormatException e) {
                return -1;
            }
        }

        /** Removes the group once its tasks have ended (they may take a moment after a kill). */
        void remove() {
            for (int attempt = 0; attempt < 50; attempt++) {
                try {
                    Files.deleteIfExists(dir);
                    return;
                } catch (IOException e) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /**
     * The folder to make sandbox groups in: this process's own pids cgroup (v1, or v2 with the pids
     * controller on for its children), when the harness may create a group there and set its limit.
     * Probed once.
     */
    private static Path taskGroupParent() {
        List<Path> candidates = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                if (f.length < 3) continue;
                String rel = f[2].startsWith("/") ? f[2].substring(1) : f[2];
                if (List.of(f[1].split(",")).contains("pids"))
                    candidates.add(Path.of("/sys/fs/cgroup/pids").resolve(rel));
                else if (f[0].equals("0") && f[1].isEmpty()) {
                    candidates.add(Path.of("/sys/fs/cgroup").resolve(rel));
                    candidates.add(Path.of("/sys/fs/cgroup/unified").resolve(rel));
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        for (Path parent : candidates) {
            Path probe = parent.resolve(
                    "brokkr-sandbox-probe-" + ProcessHandle.current().pid());
            try {
                Files.createDirectory(probe);
                try {
                    if (Files.exists(probe.resolve("pids.max"))) {
                        Files.writeString(probe.resolve("pids.max"), Integer.toString(MAX_TASKS));
                        return parent;
                    }
                } finally {
                    Files.deleteIfExists(probe);
                }
            } catch (IOException | RuntimeException e) {
                // not here: the next candidate
            }
        }
        return null;
    }

    /**
     * Drains a sandbox JVM's standard error on a thread of its own and keeps the last
     * {@link #STDERR_TAIL} bytes: writes to file descriptor 2 (a snippet may open it) cost no disk and
     * no more memory than that, however many there are.
     */
    static final class StderrTail {
        private final byte[] ring = new byte[STDERR_TAIL];
        private long total;

        StderrTail(InputStream in, String name) {
            Thread t = new Thread(() -> drain(in), name);
            t.setDaemon(true);
            t.start();
        }

        private void drain(InputStream in) {
            byte[] buf = new byte[1 << 16];
            try (in) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    synchronized (this) {
                        for (int off = 0; off < n; ) {
                            int at = (int) (total % ring.length), k = Math.min(n - off, ring.length - at);
                            System.arraycopy(buf, off, ring, at, k);
                            off += k;
                            total += k;
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }

        /** Bytes written so far. */
        synchronized long total() {
            return total;
        }

        /** The last bytes written (up to {@link #STDERR_TAIL}), as text. */
        synchronized String text() {
            int kept = (int) Math.min(total, ring.length);
            byte[] out = new byte[kept];
            for (int i = 0; i < kept; i++) out[i] = ring[(int) ((total - kept + i) % ring.length)];
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final java.util.concurrent.atomic.AtomicReference<String> HIDDEN =
            new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * For a sandbox run as a plain process: makes the harness's own process non-dumpable
     * ({@code prctl(PR_SET_DUMPABLE, 0)}, once), so a process of the same user without
     * {@code CAP_SYS_PTRACE} cannot read its {@code /proc/<pid>/environ}, {@code mem} or {@code maps}
     * (the API keys are in the harness's environment). Null when done, else why not (the JDK's foreign
     * function interface unavailable): the README's "not enforced".
     */
    static String hideHarness() {
        HIDDEN.compareAndSet(null, setNotDumpable());
        String r = HIDDEN.get();
        return r.isEmpty() ? null : r;
    }

    private static String setNotDumpable() {
        try {
            var linker = java.lang.foreign.Linker.nativeLinker();
            var prctl = linker.downcallHandle(
                    linker.defaultLookup().find("prctl").orElseThrow(),
                    java.lang.foreign.FunctionDescriptor.of(
                            java.lang.foreign.ValueLayout.JAVA_INT,
                            java.lang.foreign.ValueLayout.JAVA_INT,
                            java.lang.foreign.ValueLayout.JAVA_LONG));
            int prSetDumpable = 4;
            int rc = (int) prctl.invokeExact(prSetDumpable, 0L);
            return rc == 0 ? "" : "prctl(PR_SET_DUMPABLE) returned " + rc;
        } catch (Throwable t) {
            return "prctl(PR_SET_DUMPABLE) could not be called: " + t;
        }
    }

    /**
     * {@code command} run without capabilities and unable to gain any ({@code setpriv}, where installed):
     * a harness running as root would otherwise give a plain-process sandbox {@code CAP_SYS_PTRACE}, which
     * reads a non-dumpable process's {@code /proc} files all the same.
     */
    static List<String> withoutCapabilities(List<String> command) {
        if (!Files.isExecutable(SETPRIV)) return command;
        List<String> out = new ArrayList<>(
                List.of(SETPRIV.toString(), "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"));
        out.addAll(command);
        return out;
    }
}
