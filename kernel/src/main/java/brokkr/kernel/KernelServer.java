package brokkr.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;

/**
 * A kernel process's life: serve the connection file's sockets until the client asks for a shutdown
 * (a {@code shutdown_request}) or dies, then end. The client is watched as ipykernel does: the kernel's
 * parent and, when {@code JPY_PARENT_PID} (set by jupyter_client) names an ancestor further up (a launcher
 * in between), that process too, each polled every second; the first to end ends the kernel, so no
 * kernel outlives its client as an orphan. Ending is bounded: a cell that ignores interrupts (or a socket
 * that will not close) gets {@link #GRACE_MS} ms, and then the process exits regardless; and so do the
 * shutdown hooks (a cell may register one that never ends, which {@code System.exit} would wait for
 * forever): {@link #HOOKS_GRACE_MS} ms after the JVM began to shut down, by whatever route, it halts.
 */
public final class KernelServer {
    private KernelServer() {}

    static final long GRACE_MS = 2_000;
    static final long HOOKS_GRACE_MS = 2_000;
    private static final long POLL_MS = 1_000;

    /** The status the kernel exits with ({@link #exit}); 1 when the JVM shuts down by another route. */
    private static volatile int exitStatus = 1;

    /**
     * Bounds the JVM's shutdown from here on: when it begins (by {@link #exit}, an uncontained exit from
     * a cell, a signal), a daemon watchdog halts the process {@link #HOOKS_GRACE_MS} ms later, so a hook
     * that never ends cannot keep the kernel alive. The watchdog is started by a hook of its own, which
     * returns at once: a shutdown whose hooks end in time is not delayed.
     */
    static void boundShutdown() {
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform()
                        .name("brokkr-shutdown-bound")
                        .unstarted(() -> Thread.ofPlatform()
                                .name("brokkr-halt-watchdog")
                                .daemon(true)
                                .start(() -> {
                                    try {
                                        Thread.sleep(HOOKS_GRACE_MS);
                                    } catch (InterruptedException e) {
                                        // halted all the same
                                    }
                                    CellOutput.kernelErr()
                                            .println("brokkr kernel: shutdown hooks did not end within "
                                                    + HOOKS_GRACE_MS + " ms; halting");
                                    Runtime.getRuntime().halt(exitStatus);
                                })));
    }

    /** Ends the process with {@code status}, its shutdown hooks bounded ({@link #boundShutdown}). */
    public static void exit(int status) {
        exitStatus = status;
        System.exit(status);
    }

    /** Serves until shutdown; returns the exit status for the process (0 asked to shut down, 1 orphaned). */
    public static int serve(KernelConnectionProperties props, BrokkrKernelBuilder builder, Map<String, String> env)
            throws Exception {
        // first of all: once the sockets answer, the client may die, and a dead ancestor can no longer be found
        List<ProcessHandle> clients = clients(ProcessHandle.current(), env.get("JPY_PARENT_PID"));
        boundShutdown();
        BrokkrKernel kernel = builder.build();
        BrokkrConnection connection = new BrokkrConnection(props);
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        kernel.onStartup();

        CompletableFuture<String> orphaned = new CompletableFuture<>();
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r ->
                Thread.ofPlatform().name("brokkr-client-watch").daemon(true).unstarted(r));
        watch.scheduleWithFixedDelay(
                () -> {
                    for (ProcessHandle c : clients)
                        if (!c.isAlive()) orphaned.complete("client process " + c.pid() + " exited");
                },
                POLL_MS,
                POLL_MS,
                TimeUnit.MILLISECONDS);

        CompletableFuture.anyOf(connection.closing(), orphaned).join();
        watch.shutdownNow();
        boolean asked = connection.closing().isDone();
        Thread teardown = Thread.ofPlatform()
                .name("brokkr-teardown")
                .daemon(true)
                .start(() -> {
                    if (!asked) {
                        CellOutput.kernelErr().println("brokkr kernel: " + orphaned.join() + "; shutting down");
                        kernel.onShutdown(false);
                        connection.close();
                    }
                    connection.waitUntilClose();
                });
        teardown.join(GRACE_MS);
        if (teardown.isAlive())
            CellOutput.kernelErr()
                    .println("brokkr kernel: a cell did not stop within " + GRACE_MS + " ms; exiting anyway");
        return asked ? 0 : 1;
    }

    /**
     * The processes whose end ends the kernel: its parent, and the ancestor {@code jpyParentPid} names when
     * it is one (a pid that is no ancestor, e.g. from another pid namespace, is ignored, as ipykernel does).
     */
    static List<ProcessHandle> clients(ProcessHandle self, String jpyParentPid) {
        List<ProcessHandle> out = new ArrayList<>();
        Optional<ProcessHandle> parent = self.parent();
        parent.ifPresent(out::add);
        long named;
        try {
            named = jpyParentPid == null ? -1 : Long.parseLong(jpyParentPid.strip());
        } catch (NumberFormatException e) {
            return out;
        }
        for (Optional<ProcessHandle> p = parent;
                p.isPresent() && p.get().pid() > 1;
                p = p.get().parent()) {
            if (p.get().pid() == named) {
                if (!out.contains(p.get())) out.add(p.get());
                break;
            }
        }
        return out;
    }
}
