package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentStore.Prepared;
import brokkr.run.Job;
import brokkr.run.Plan;
import brokkr.run.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The experiment store as a run's sink: each finished cell renders its attempt's JSON on its own
 * thread ({@code prepare}) and hands it to one writer thread, which commits every attempt waiting for
 * it in one transaction (group commit), so commits never hold up evaluation. An attempt that cannot be
 * rendered or stored as it is (an OutOfMemoryError on a huge transcript, SQLite's string-or-blob-too-big)
 * is replaced by an infrastructure failure saying so: a cell is never dropped because its record could
 * not be made. A failure of the store itself is fatal ({@link #fatal}): the runner starts no new cell
 * and rethrows it. {@link #close} waits for the writer to commit what it was given.
 */
public final class StoreSink implements Sink<Attempt>, AutoCloseable {
    private final ExperimentStore store;
    private final Function<Attempt, Prepared> prepare;
    private final ProgressListener progress;
    private final AtomicReference<Throwable> fatal = new AtomicReference<>();
    private final AtomicInteger completed = new AtomicInteger(),
            failed = new AtomicInteger(),
            notRecorded = new AtomicInteger();
    private final LinkedBlockingQueue<Prepared> queue = new LinkedBlockingQueue<>();
    private final Prepared endOfRun = new Prepared(null, null, null, Map.of(), 0);
    private final List<Attempt> recorded = new ArrayList<>();
    private final Thread writer;
    private boolean closed;

    public StoreSink(ExperimentStore store, ProgressListener progress) {
        this(store, ExperimentStore::prepare, progress);
    }

    /** As above, rendering each attempt with {@code prepare} (tests make it fail). */
    StoreSink(ExperimentStore store, Function<Attempt, Prepared> prepare, ProgressListener progress) {
        this.store = store;
        this.prepare = prepare;
        this.progress = progress;
        this.writer = Thread.ofPlatform().name("experiment-writer").start(this::write);
    }

    /** The store's rows for a plan's cells: key, candidate label, benchmark, task. */
    public static ExperimentStore.Cell row(Plan.Unit u) {
        return new ExperimentStore.Cell(
                key(u),
                u.candidate(),
                u.cell().provider().name(),
                u.cell().env().taskId(),
                true);
    }

    public static ExperimentStore.CellKey key(Plan.Unit u) {
        return new ExperimentStore.CellKey(
                u.cell().env().id(), u.cell().agent().id(), u.cell().repetition());
    }

    @Override
    public void accept(int index, Job<Attempt> job, Attempt attempt) {
        queue.add(prepared(attempt));
    }

    /** A refused attempt is stored like any other (an infrastructure failure: excluded from scores). */
    @Override
    public void acceptRefused(int index, Job<Attempt> job, Attempt attempt) {
        accept(index, job, attempt);
    }

    @Override
    public Throwable fatal() {
        return fatal.get();
    }

    public int completed() {
        return completed.get();
    }

    public int failed() {
        return failed.get();
    }

    public int notRecorded() {
        return notRecorded.get();
    }

    /** The attempts committed, with their store ids, in commit order (read after {@link #close}). */
    public synchronized List<Attempt> recorded() {
        return List.copyOf(recorded);
    }

    private void write() {
        List<Prepared> batch = new ArrayList<>();
        boolean end = false;
        while (!end) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            queue.drainTo(batch);
            end = batch.removeIf(x -> x == endOfRun);
            if (fatal.get() != null) {
                batch.clear();
                continue;
            }
            try {
                for (Attempt a : commit(batch)) {
                    (a.completed() ? completed : failed).incrementAndGet();
                    synchronized (this) {
                        recorded.add(a);
                    }
                    progress.attemptFinished(a);
                }
            } catch (Throwable e) {
                fatal.compareAndSet(null, e);
            }
            batch.clear();
        }
    }

    /** Waits for the writer to commit every attempt it was given. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        queue.add(endOfRun);
        boolean interrupted = false;
        while (true) {
            try {
                writer.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** The attempt rendered for the store, or its not-recordable failure when rendering it fails. */
    private Prepared prepared(Attempt a) {
        try {
            return prepare.apply(a);
        } catch (Throwable t) {
            notRecorded.incrementAndGet();
            return ExperimentStore.prepare(notRecordable(a, t));
        }
    }

    /** What is kept of an attempt that could not be recorded: its cell, timing and usage, and why. */
    private static Attempt notRecordable(Attempt a, Throwable t) {
        Evidence kept = new Evidence(
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of(),
                        a.evidence().usage(),
                        a.evidence().timings(),
                        null)
                .withEndpoints(a.evidence().endpoints()); // which server it was made against, for a resume's check
        return new Attempt(
                0,
                a.environmentId(),
                a.agentId(),
                a.repetition(),
                a.taskId(),
                Attempt.Status.INFRASTRUCTURE_FAILURE,
                List.of(),
                0.0,
                null,
                kept,
                "not recorded: " + t + " while storing the " + a.status().wire()
                        + " attempt; its evidence is dropped and the cell runs again on resume",
                a.startedAtMillis(),
                a.durationMillis());
    }

    /**
     * Commits a batch. When the batch fails because of one attempt rather than the store (an Error
     * such as OutOfMemoryError while binding it, or SQLite's string-or-blob-too-big), the attempts are
     * committed one by one and each one that fails alone is replaced by its not-recordable failure.
     */
    private List<Attempt> commit(List<Prepared> batch) {
        try {
            return store.recordAll(batch);
        } catch (Throwable t) {
            if (!attemptsFault(t)) throw t;
        }
        List<Attempt> out = new ArrayList<>();
        for (Prepared x : batch) {
            try {
                out.addAll(store.recordAll(List.of(x)));
            } catch (Throwable t) {
                if (!attemptsFault(t)) throw t;
                notRecorded.incrementAndGet();
                out.addAll(store.recordAll(List.of(ExperimentStore.prepare(notRecordable(x.attempt(), t)))));
            }
        }
        return out;
    }

    /** A failure that one attempt's size or content caused, as opposed to the store's (I/O, a vanished file, a constraint). */
    private static boolean attemptsFault(Throwable t) {
        if (t instanceof Error) return true;
        if (!(t instanceof ExperimentStore.StoreException se)) return false;
        if (se.getCause() instanceof org.sqlite.SQLiteException sq)
            return sq.getResultCode() == org.sqlite.SQLiteErrorCode.SQLITE_TOOBIG;
        // PostgreSQL: a text it cannot hold (U+0000 in a TEXT column: 22P05; invalid encoding: 22021), or a value
        // over its 1 GB field limit (54000, program_limit_exceeded).
        if (!(se.getCause() instanceof java.sql.SQLException sq)) return false;
        // A failed batch carries the server's error as its next exception.
        java.sql.SQLException why = sq.getNextException() != null ? sq.getNextException() : sq;
        String state = why.getSQLState() == null ? "" : why.getSQLState();
        return state.equals("22P05") || state.equals("22021") || state.equals("54000");
    }
}
