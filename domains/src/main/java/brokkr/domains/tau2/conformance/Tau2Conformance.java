package brokkr.domains.tau2.conformance;

import brokkr.domains.conformance.Corpus;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.Requestor;
import brokkr.python.PyException;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a tau2 conformance corpus (shared/conformance/tau2/README.md) against a port: gold files
 * (one record per task, {@code actions[]}) and fuzz files (one record per sequence, {@code calls[]}).
 * Each record runs on a fresh environment from the factory; every call's content, error flag and the
 * recorded hashes (where not null), plus the initial and final hashes, are compared. Gold records
 * also check their {@code env_assertions} ({@code met} of each, run in order on the replayed environment,
 * and the hashes after them) and replay the grader's gold environment ({@code grader_gold_*_hash}).
 *
 * <p>Every record was recorded in one process, in corpus order: state upstream keeps beyond one
 * environment (telecom's class-level VPN details, which an initialization action of an earlier record
 * may have changed) is folded over the records' init tasks ({@link EnvironmentFactory#processAfter}),
 * and within a gold record the grader's environment continues the replayed one's process (telecom's
 * bill-id draws).
 */
public final class Tau2Conformance {
    private Tau2Conformance() {}

    /** Builds a fresh environment: pristine when {@code initTaskId} is null, else from that task's initial state. */
    @FunctionalInterface
    public interface EnvironmentFactory {
        Tau2Environment create(String initTaskId);

        /**
         * The process state a record starts from, after a record on {@code initTaskId} started from
         * {@code before} (null: the process's start); null for domains without such state.
         */
        default Value processAfter(Value before, String initTaskId) {
            return null;
        }

        /** A fresh environment in a process whose state is {@code process} ({@link #processAfter}, or an environment's session). */
        default Tau2Environment create(String initTaskId, Value process) {
            return create(initTaskId);
        }

        /**
         * A fresh environment built with a record's {@code env_kwargs_extra} (constructor kwargs beyond the
         * domain's defaults, e.g. banking's {@code retrieval_kwargs}); null or absent for most records.
         */
        default Tau2Environment create(String initTaskId, Value process, PyDict envKwargs) {
            return create(initTaskId, process);
        }
    }

    /**
     * @param sequences           records replayed
     * @param calls               calls replayed
     * @param mismatches          differing items (a call's content/error/hash, an initial or final hash)
     * @param mismatchedSequences records with at least one difference
     * @param millis              wall time of the replay
     * @param hashMillis          time spent computing DB hashes (summed over workers)
     */
    public record Report(
            int sequences, int calls, int mismatches, int mismatchedSequences, long millis, long hashMillis) {
        /** The closing line of a replay, exactly as the conformance command prints it. */
        public String summaryLine() {
            return sequences + " sequences, " + calls + " calls, " + mismatches + " mismatches";
        }

        @Override
        public String toString() {
            return summaryLine() + " (" + mismatchedSequences + " sequences differ), " + millis + " ms";
        }
    }

    public static Report run(EnvironmentFactory factory, Path corpus, PrintStream out) {
        return run(factory, corpus, out, 1);
    }

    /**
     * Replays with {@code threads} workers: sequences are independent (each starts from its own fresh
     * environment), so they replay concurrently; differences are still printed in corpus order. A
     * corpus that is empty, unreadable or has a record of the wrong shape is a
     * {@link Corpus.CorpusException} naming the file and line (the first such line of the corpus).
     */
    /**
     * Runs {@code body} for 0..n-1 in index order, on this thread or on {@code threads} workers, taking no
     * further index once {@code stop} says so.
     */
    private static void inWorkers(int threads, int n, BooleanSupplier stop, IntConsumer body) {
        if (threads <= 1 || n < 2) {
            for (int i = 0; i < n && !stop.getAsBoolean(); i++) body.accept(i);
            return;
        }
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i; !stop.getAsBoolean() && (i = next.getAndIncrement()) < n; ) body.accept(i);
            }));
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    public static Report run(EnvironmentFactory factory, Path corpus, PrintStream out, int threads) {
        long t0 = System.nanoTime();
        List<Corpus.Line> lines = Corpus.lines(corpus);
        SeqResult[] results = new SeqResult[lines.size()];
        RuntimeException[] failures = new RuntimeException[lines.size()];
        // Parsed up front to fold the process state over the records; a line that does not parse is
        // reported when the replay reaches it, so the corpus's first bad line is still the one reported.
        Corpus.Record[] records = new Corpus.Record[lines.size()];
        // Parsing is a tenth of a replay: with several workers, they parse too (each line on its own).
        inWorkers(threads, records.length, () -> false, i -> {
            try {
                records[i] = lines.get(i).parse();
            } catch (RuntimeException e) { // a CorpusException naming the line; reported when the replay reaches it
                failures[i] = e;
            }
        });
        Value[] process = new Value[lines.size()];
        Value p = null;
        for (int i = 0; i < records.length; i++) {
            if (records[i] == null) continue;
            try {
                process[i] = p;
                p = factory.processAfter(p, initTaskId(records[i]));
            } catch (Corpus.CorpusException e) {
                failures[i] = e;
                records[i] = null;
            }
        }
        RuntimeException[] unparsed = failures.clone();
        AtomicBoolean failed = new AtomicBoolean();
        // Indices are taken in order, so when a line fails every earlier line has been taken and
        // finishes: the failure reported below is the corpus's first.
        inWorkers(threads, results.length, failed::get, i -> {
            try {
                if (unparsed[i] != null) throw unparsed[i];
                results[i] = replay(factory, records[i], process[i]);
            } catch (RuntimeException e) {
                failures[i] = e;
                failed.set(true);
            }
        });
        for (RuntimeException f : failures) if (f != null) throw f;
        int calls = 0, mismatches = 0, badSeqs = 0;
        long hashNanos = 0;
        for (SeqResult res : results) {
            calls += res.calls;
            mismatches += res.mismatches;
            hashNanos += res.hashNanos;
            if (res.mismatches > 0) {
                badSeqs++;
                if (out != null) out.println(res.firstDiff);
            }
        }
        Report rep = new Report(
                results.length,
                calls,
                mismatches,
                badSeqs,
                (System.nanoTime() - t0) / 1_000_000,
                hashNanos / 1_000_000);
        if (out != null) out.println(rep.summaryLine());
        return rep;
    }

    private static final class SeqResult {
        int calls, mismatches;
        long hashNanos;
        String firstDiff;

        /** A hash, timed: the hashing share of a replay is reported with its wall time. */
        String hash(Supplier<String> h) {
            long t = System.nanoTime();
            String v = h.get();
            hashNanos += System.nanoTime() - t;
            return v;
        }

        void diff(String what) {
            if (mismatches++ == 0) firstDiff = what;
        }
    }

    /** A gold record's task, or a fuzz record's {@code init_task_id} (null: pristine). */
    private static String initTaskId(Corpus.Record rec) {
        return rec.has("actions") ? rec.string("task_id") : rec.optionalString("init_task_id");
    }

    /** One corpus record replayed; a record of the wrong shape, or one the port cannot set up, fails at its line. */
    private static SeqResult replay(EnvironmentFactory factory, Corpus.Record rec, Value process) {
        try {
            return replayRecord(factory, rec, process);
        } catch (Corpus.CorpusException e) {
            throw e;
        } catch (RuntimeException e) {
            throw rec.fail("cannot replay this record: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** One tool call of a record, with the fields a replay needs checked up front. */
    private record Call(
            String requestor,
            String name,
            PyDict arguments,
            String content,
            boolean error,
            String dbHash,
            String userDbHash,
            boolean timingMasked) {
        /**
         * The hashes are required fields: a fuzz corpus records null where it did not hash (a read-only tool), but
         * a deleted hash would silently skip its comparison. A gold action always records its db_hash.
         */
        static Call of(Corpus.Record c, boolean gold) {
            return new Call(
                    c.string("requestor"),
                    c.string("name"),
                    c.object("arguments").value(),
                    c.string("content"),
                    c.bool("error"),
                    gold ? c.string("db_hash") : c.stringOrNull("db_hash"),
                    c.stringOrNull("user_db_hash"),
                    c.optionalBool("timing_masked", false));
        }
    }

    /** A gold record's env assertion: the recorded call and whether it was met. */
    private record Assertion(EnvAssertion assertion, boolean met) {
        static Assertion of(Corpus.Record a) {
            Value av = a.required("assert_value");
            return new Assertion(
                    new EnvAssertion(
                            Requestor.parse(a.string("env_type")),
                            a.string("func_name"),
                            a.object("arguments").value(),
                            !(av instanceof PyBool b) || b.value(),
                            null),
                    a.bool("met"));
        }
    }

    /**
     * Whether a gold record must carry {@code env_assertions}: only tasks with env assertions have them (telecom),
     * and upstream's evaluator on the gold trajectory lists one {@code evaluator.env_assertions_met} entry per
     * assertion, so a record whose evaluator ran assertions but whose {@code env_assertions} (or the hashes after
     * them) are gone is a corpus error, not a record without assertions.
     */
    private static boolean expectsEnvAssertions(Corpus.Record rec) {
        Value met = rec.object("evaluator").required("env_assertions_met");
        boolean evaluated = met instanceof PyList l && !l.isEmpty();
        if (evaluated || rec.has("env_assertions") || rec.has("db_hash_after_env_assertions")) {
            rec.required("env_assertions");
            return true;
        }
        return false;
    }

    private static SeqResult replayRecord(EnvironmentFactory factory, Corpus.Record rec, Value process) {
        SeqResult res = new SeqResult();
        boolean gold = rec.has("actions");
        if (!gold && !rec.has("calls"))
            throw rec.fail("a record has 'actions' (gold) or 'calls' (fuzz); this one has neither");
        String taskId = gold ? rec.string("task_id") : rec.optionalString("init_task_id");
        String label = gold ? "task " + taskId : "seq " + rec.required("seq") + " (" + rec.string("kind") + ")";
        List<Call> calls = rec.objects(gold ? "actions" : "calls").stream()
                .map(c -> Call.of(c, gold))
                .toList();
        String initialDb = rec.stringOrNull("initial_db_hash"),
                initialUserDb = rec.stringOrNull("initial_user_db_hash");
        String finalDb = rec.stringOrNull("final_db_hash"), finalUserDb = rec.stringOrNull("final_user_db_hash");
        // Every gold record is graded (README, "gold.jsonl"): a missing grader hash is a corpus error, never a
        // skipped comparison.
        boolean graded = gold;
        String graderDb = graded ? rec.stringOrNull("grader_gold_db_hash") : null;
        String graderUserDb = graded ? rec.stringOrNull("grader_gold_user_db_hash") : null;
        boolean withAssertions = gold && expectsEnvAssertions(rec);

        PyDict envKwargs =
                rec.has("env_kwargs_extra") ? rec.object("env_kwargs_extra").value() : null;
        Tau2Environment env =
                envKwargs == null ? factory.create(taskId, process) : factory.create(taskId, process, envKwargs);
        checkHash(res, label + " initial db_hash", initialDb, res.hash(env::dbHash), true);
        checkHash(res, label + " initial user_db_hash", initialUserDb, res.hash(env::userDbHash), true);
        int i = 0;
        for (Call c : calls) {
            res.calls++;
            Tau2Environment.ToolMessage m = env.getResponse(c.name(), c.arguments(), c.requestor());
            int index = i;
            Supplier<String> whereOf = () ->
                    label + " call " + index + " " + c.requestor() + " " + c.name() + " " + PyJson.dumps(c.arguments());
            String actual = c.timingMasked() ? maskTiming(m.content()) : m.content();
            if (!Objects.equals(c.content(), actual)) {
                res.diff(whereOf.get() + ": content\n  expected: " + c.content() + "\n  actual:   " + actual);
            } else if (c.error() != m.error()) {
                res.diff(whereOf.get() + ": error flag expected " + c.error() + ", got " + m.error());
            }
            if (c.dbHash() != null) checkHash(res, whereOf, ": db_hash", c.dbHash(), res.hash(env::dbHash), false);
            if (c.userDbHash() != null)
                checkHash(res, whereOf, ": user_db_hash", c.userDbHash(), res.hash(env::userDbHash), false);
            i++;
        }
        checkHash(res, label + " final db_hash", finalDb, res.hash(env::dbHash), true);
        checkHash(res, label + " final user_db_hash", finalUserDb, res.hash(env::userDbHash), true);
        if (withAssertions) {
            List<Assertion> assertions =
                    rec.objects("env_assertions").stream().map(Assertion::of).toList();
            for (int k = 0; k < assertions.size(); k++) {
                Assertion a = assertions.get(k);
                String what =
                        label + " env_assertion " + k + " " + a.assertion().funcName();
                try {
                    boolean met = env.runEnvAssertion(a.assertion());
                    if (met != a.met()) res.diff(what + ": met expected " + a.met() + ", got " + met);
                } catch (PyException e) {
                    res.diff(what + ": raised " + e.pyType() + ": " + e.str());
                }
            }
            checkHash(
                    res,
                    label + " db_hash_after_env_assertions",
                    rec.stringOrNull("db_hash_after_env_assertions"),
                    res.hash(env::dbHash),
                    true);
            checkHash(
                    res,
                    label + " user_db_hash_after_env_assertions",
                    rec.stringOrNull("user_db_hash_after_env_assertions"),
                    res.hash(env::userDbHash),
                    true);
        }
        if (graded) {
            // The grader's gold environment (EnvironmentEvaluator): fresh env, make_tool_call per action,
            // no sync_tools per call, exceptions swallowed; in the same process as the replayed one.
            Tau2Environment g = factory.create(taskId, env.session());
            for (Call c : calls) g.makeToolCall(c.name(), c.arguments(), c.requestor());
            checkHash(res, label + " grader_gold_db_hash", graderDb, res.hash(g::dbHash), true);
            checkHash(res, label + " grader_gold_user_db_hash", graderUserDb, res.hash(g::userDbHash), true);
        }
        return res;
    }

    private static void checkHash(
            SeqResult res, Supplier<String> where, String what, String expected, String actual, boolean nullable) {
        if (!Objects.equals(expected, actual)) checkHash(res, where.get() + what, expected, actual, nullable);
    }

    private static void checkHash(SeqResult res, String what, String expected, String actual, boolean nullable) {
        if (expected == null && (nullable || actual == null)) {
            if (actual != null && nullable) res.diff(what + ": expected null, got " + actual);
            return;
        }
        if (!Objects.equals(expected, actual)) res.diff(what + ": expected " + expected + ", got " + actual);
    }

    private static final Pattern TIMING =
            Pattern.compile("\n\n\\[Timing: retrieval=[0-9]+ms(?:, reranking=[0-9]+ms)?, total=[0-9]+ms\\]\\z");

    /** The corpus's {@code mask_kb_timing}: every digit run of the trailing timing suffix becomes "0". */
    static String maskTiming(String s) {
        Matcher m = TIMING.matcher(s);
        if (!m.find()) return s;
        return s.substring(0, m.start()) + m.group().replaceAll("[0-9]+", "0");
    }
}
