package brokkr.sandbox;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warm sandbox JVMs, so an episode does not wait for JVM and compiler start-up: {@link #acquire()}
 * hands out a started sandbox and starts a replacement in the background. A sandbox is handed out once
 * and closed by its episode, never returned: no state crosses from one episode to the next.
 */
public final class SandboxPool implements AutoCloseable {
    private static final Map<SandboxConfig, SandboxPool> SHARED = new ConcurrentHashMap<>();

    private final SandboxConfig config;
    private final int size;
    private final Deque<Sandbox> ready = new ArrayDeque<>();
    private int starting;
    private boolean closed;

    public SandboxPool(SandboxConfig config, int size) {
        if (size < 0 || size > 64)
            throw new IllegalArgumentException("pool size must be between 0 and 64, got " + size);
        this.config = config;
        this.size = size;
    }

    /**
     * The process-wide pool for {@code config} ({@code -Dbrokkr.sandbox.pool=N} warm JVMs, default
     * {@link #defaultSize()}), closed at JVM exit.
     */
    public static SandboxPool shared(SandboxConfig config) {
        return SHARED.computeIfAbsent(config, c -> {
            SandboxPool p = new SandboxPool(c, Integer.getInteger("brokkr.sandbox.pool", defaultSize()));
            Runtime.getRuntime().addShutdownHook(new Thread(p::close, "sandbox-pool-close"));
            return p;
        });
    }

    /** A started sandbox, warm when one is ready (else started now); the caller closes it. */
    public Sandbox acquire() {
        Sandbox s;
        synchronized (this) {
            if (closed) throw new IllegalStateException("sandbox pool closed");
            s = ready.pollFirst();
        }
        refill();
        return s != null ? s : Sandbox.start(config);
    }

    /** Starts JVMs in the background until {@code size} are ready or starting. */
    public void refill() {
        int toStart;
        synchronized (this) {
            toStart = closed ? 0 : Math.max(0, size - ready.size() - starting);
            starting += toStart;
        }
        for (int i = 0; i < toStart; i++) {
            Thread.ofPlatform().daemon().name("sandbox-pool-start").start(() -> {
                Sandbox s = null;
                try {
                    s = Sandbox.start(config);
                } catch (RuntimeException e) {
                    // a failed warm start shows again, with its reason, when acquire() starts one itself
                } finally {
                    boolean keep;
                    synchronized (this) {
                        starting--;
                        keep = s != null && !closed;
                        if (keep) ready.addLast(s);
                    }
                    if (!keep && s != null) s.close();
                }
            });
        }
    }

    /**
     * One warm JVM per core: an experiment runs about as many episodes at once as there are cores, and
     * with one warm JVM for all of them every episode but one waited for a start of its own (a start is
     * mostly waiting on the sandbox JVM, so starting ahead overlaps it with the other episodes' work).
     */
    public static int defaultSize() {
        return Math.min(64, Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /** How many warm JVMs this pool keeps. */
    public int size() {
        return size;
    }

    public synchronized int readyCount() {
        return ready.size();
    }

    @Override
    public void close() {
        Deque<Sandbox> drop;
        synchronized (this) {
            closed = true;
            drop = new ArrayDeque<>(ready);
            ready.clear();
        }
        drop.forEach(Sandbox::close);
    }
}
