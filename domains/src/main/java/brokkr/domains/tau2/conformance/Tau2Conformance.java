package brokkr.domains.tau2.conformance;

import brokkr.domains.tau2.environment.Tau2Environment;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Replays a tau2 conformance corpus (shared/conformance/tau2/README.md) against a port: gold files
 * (one record per task, {@code actions[]}) and fuzz files (one record per sequence, {@code calls[]}).
 * Each record runs on a fresh environment from the factory; every call's content, error flag and the
 * recorded hashes (where not null), plus the initial and final hashes, are compared. Gold records
 * also replay the grader's gold environment ({@code grader_gold_*_hash}). Telecom's
 * {@code env_assertions} are not checked here.
 */
public final class Tau2Conformance {
    private Tau2Conformance() {}

    /** Builds a fresh environment: pristine when {@code initTaskId} is null, else from that task's initial state. */
    @FunctionalInterface
    public interface EnvironmentFactory {
        Tau2Environment create(String initTaskId);
    }

    /**
     * @param sequences           records replayed
     * @param calls               calls replayed
     * @param mismatches          differing items (a call's content/error/hash, an initial or final hash)
     * @param mismatchedSequences records with at least one difference
     * @param millis              wall time of the replay
     * @param hashMillis          time spent computing DB hashes (summed over workers)
     */
    public record Report(int sequences, int calls, int mismatches, int mismatchedSequences, long millis, long hashMillis) {
        /** The closing line of a replay, exactly as the conformance command prints it. */
        public String summaryLine() {
            return sequences + " sequences, " + calls + " calls, " + mismatches + " mismatches";
        }

        @Override public String toString() {
            return summaryLine() + " (" + mismatchedSequences + " sequences differ), " + millis + " ms";
        }
    }

    public static Report run(EnvironmentFactory factory, Path corpus, PrintStream out) {
        return run(factory, corpus, out, 1);
    }

    /**
     * Replays with {@code threads} workers: sequences are independent (each starts from its own fresh
     * environment), so they replay concurrently; differences are still printed in corpus order.
     */
    public static Report run(EnvironmentFactory factory, Path corpus, PrintStream out, int threads) {
        long t0 = System.nanoTime();
        List<String> lines;
        try {
            lines = Files.readAllLines(corpus, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SeqResult[] results = new SeqResult[lines.size()];
        if (threads <= 1) {
            for (int i = 0; i < results.length; i++) results[i] = replay(factory, Json.parse(lines.get(i)).asDict());
        } else {
            java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
            List<Thread> workers = new java.util.ArrayList<>();
            java.util.concurrent.atomic.AtomicReference<RuntimeException> failure = new java.util.concurrent.atomic.AtomicReference<>();
            for (int t = 0; t < threads; t++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i; (i = next.getAndIncrement()) < results.length; ) {
                            results[i] = replay(factory, Json.parse(lines.get(i)).asDict());
                        }
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
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
            if (failure.get() != null) throw failure.get();
        }
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
        Report rep = new Report(results.length, calls, mismatches, badSeqs, (System.nanoTime() - t0) / 1_000_000,
                hashNanos / 1_000_000);
        if (out != null) out.println(rep.summaryLine());
        return rep;
    }

    private static final class SeqResult {
        int calls, mismatches;
        long hashNanos;
        String firstDiff;

        /** A hash, timed: the hashing share of a replay is reported with its wall time. */
        String hash(java.util.function.Supplier<String> h) {
            long t = System.nanoTime();
            String v = h.get();
            hashNanos += System.nanoTime() - t;
            return v;
        }
        void diff(String what) {
            if (mismatches++ == 0) firstDiff = what;
        }
    }

    private static String str(PyDict d, String k) {
        Value v = d.get(k);
        return v == null || v.isNone() ? null : v.asStr();
    }

    private static SeqResult replay(EnvironmentFactory factory, PyDict rec) {
        SeqResult res = new SeqResult();
        boolean gold = rec.containsKey("actions");
        String label = gold ? "task " + str(rec, "task_id") : "seq " + rec.get("seq") + " (" + str(rec, "kind") + ")";
        Tau2Environment env = factory.create(gold ? str(rec, "task_id") : str(rec, "init_task_id"));
        checkHash(res, label + " initial db_hash", str(rec, "initial_db_hash"), res.hash(env::dbHash), true);
        checkHash(res, label + " initial user_db_hash", str(rec, "initial_user_db_hash"), res.hash(env::userDbHash), true);
        PyList calls = rec.get(gold ? "actions" : "calls").asList();
        int i = 0;
        for (Value cv : calls) {
            PyDict c = cv.asDict();
            res.calls++;
            String name = str(c, "name");
            String requestor = str(c, "requestor");
            Tau2Environment.ToolMessage m = env.getResponse(name, c.get("arguments").asDict(), requestor);
            int index = i;
            java.util.function.Supplier<String> whereOf = () -> label + " call " + index + " " + requestor + " " + name + " "
                    + brokkr.python.PyJson.dumps(c.get("arguments"));
            String content = str(c, "content");
            boolean masked = c.getOrDefault("timing_masked", PyNone.NONE) instanceof brokkr.value.PyBool b && b.value();
            String actual = masked ? maskTiming(m.content()) : m.content();
            if (!Objects.equals(content, actual)) {
                res.diff(whereOf.get() + ": content\n  expected: " + content + "\n  actual:   " + actual);
            } else if (c.get("error") instanceof brokkr.value.PyBool e && e.value() != m.error()) {
                res.diff(whereOf.get() + ": error flag expected " + e.value() + ", got " + m.error());
            }
            String dh = str(c, "db_hash");
            if (dh != null) checkHash(res, whereOf, ": db_hash", dh, res.hash(env::dbHash), false);
            String uh = str(c, "user_db_hash");
            if (uh != null) checkHash(res, whereOf, ": user_db_hash", uh, res.hash(env::userDbHash), false);
            i++;
        }
        checkHash(res, label + " final db_hash", str(rec, "final_db_hash"), res.hash(env::dbHash), true);
        checkHash(res, label + " final user_db_hash", str(rec, "final_user_db_hash"), res.hash(env::userDbHash), true);
        if (gold && rec.containsKey("grader_gold_db_hash")) {
            // The grader's gold environment (EnvironmentEvaluator): fresh env, make_tool_call per action,
            // no sync_tools per call, exceptions swallowed.
            Tau2Environment g = factory.create(str(rec, "task_id"));
            for (Value cv : calls) {
                PyDict c = cv.asDict();
                g.makeToolCall(str(c, "name"), c.get("arguments").asDict(), str(c, "requestor"));
            }
            checkHash(res, label + " grader_gold_db_hash", str(rec, "grader_gold_db_hash"), res.hash(g::dbHash), true);
            checkHash(res, label + " grader_gold_user_db_hash", str(rec, "grader_gold_user_db_hash"), res.hash(g::userDbHash), true);
        }
        return res;
    }

    private static void checkHash(SeqResult res, java.util.function.Supplier<String> where, String what, String expected,
                                  String actual, boolean nullable) {
        if (!Objects.equals(expected, actual)) checkHash(res, where.get() + what, expected, actual, nullable);
    }

    private static void checkHash(SeqResult res, String what, String expected, String actual, boolean nullable) {
        if (expected == null && (nullable || actual == null)) {
            if (actual != null && nullable) res.diff(what + ": expected null, got " + actual);
            return;
        }
        if (!Objects.equals(expected, actual)) res.diff(what + ": expected " + expected + ", got " + actual);
    }

    private static final java.util.regex.Pattern TIMING = java.util.regex.Pattern.compile(
            "\n\n\\[Timing: retrieval=[0-9]+ms(?:, reranking=[0-9]+ms)?, total=[0-9]+ms\\]\\z");

    /** The corpus's {@code mask_kb_timing}: every digit run of the trailing timing suffix becomes "0". */
    static String maskTiming(String s) {
        java.util.regex.Matcher m = TIMING.matcher(s);
        if (!m.find()) return s;
        return s.substring(0, m.start()) + m.group().replaceAll("[0-9]+", "0");
    }
}
