package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.ContentHash;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.eval.Rejudging;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.provider.HttpProvider;
import brokkr.python.PyJson;
import brokkr.run.Cancellation;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Judge re-grading from records: every completed attempt of an experiment's store whose grade has
 * model-judged checks is judged again by another judge model, from its recorded transcript, through
 * its benchmark's {@link Rejudging}; nothing else runs. The new verdicts go into the store's
 * {@code regrade} table, one row per attempt and regrade run, beside the attempts, which are never
 * changed; each call of the judge is recorded there with its exact request, as during a run. The
 * result compares the new verdicts with the recorded ones: statements (NL assertions) agreeing,
 * episode verdicts (success) agreeing, and every disagreement.
 *
 * <p>The store is opened as a run opens it (its run lock held), so a regrade never writes beside a
 * running experiment.
 */
public final class Regrade {
    private Regrade() {}

    /** The table of new verdicts (created when a first regrade writes; a store without it has had none). */
    public static final String TABLE = "regrade";

    public static final int DEFAULT_PARALLELISM = 4;

    /** Where an attempt is in the experiment: its benchmark, candidate, task and trial (from 1). */
    public record Place(long attemptId, String benchmark, String candidate, String taskId, int trial) {}

    /** A statement on which the new judge and the recorded verdict differ (null: that answer did not cover it). */
    public record Disagreement(Place place, String statement, Boolean recorded, Boolean now) {}

    /** An episode whose verdict (success) changed with the new judge. */
    public record EpisodeChange(Place place, double recordedReward, double newReward) {}

    /** An attempt the new judge gave no verdict on (unreachable, or an answer the benchmark cannot read). */
    public record Failure(Place place, String error) {}

    /**
     * One regrade run. {@code attempts}: completed attempts in the store; {@code rejudged}: those the
     * judge answered; {@code withoutJudgedChecks}: those whose grade had no judged check (nothing to
     * ask); {@code failures}: those it gave no verdict on. Statements and episodes are compared over the
     * rejudged attempts.
     */
    public record Result(
            StoreLocation dir,
            int run,
            String judge,
            int attempts,
            int rejudged,
            int withoutJudgedChecks,
            List<Failure> failures,
            int statements,
            int statementsAgreeing,
            int episodesAgreeing,
            List<Disagreement> disagreements,
            List<EpisodeChange> episodeChanges) {
        public Result {
            failures = List.copyOf(failures);
            disagreements = List.copyOf(disagreements);
            episodeChanges = List.copyOf(episodeChanges);
        }

        /** Every attempt with judged checks got a verdict from the new judge. */
        public boolean complete() {
            return failures.isEmpty();
        }

        /** The report as a person reads it. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(
                    Locale.ROOT,
                    "regrade %d of %s with judge %s: %d completed attempts, %d re-judged, %d without judged checks, %d without a new verdict%n",
                    run,
                    dir.display(),
                    judge,
                    attempts,
                    rejudged,
                    withoutJudgedChecks,
                    failures.size()));
            sb.append("assertions agreeing: ")
                    .append(ratio(statementsAgreeing, statements))
                    .append('\n');
            sb.append("episode verdicts agreeing: ")
                    .append(ratio(episodesAgreeing, rejudged))
                    .append('\n');
            if (!disagreements.isEmpty()) {
                sb.append("\ndisagreements (recorded -> new):\n");
                for (Disagreement d : disagreements) {
                    sb.append("  ")
                            .append(where(d.place()))
                            .append(": ")
                            .append(verdict(d.recorded()))
                            .append(" -> ")
                            .append(verdict(d.now()))
                            .append("  ")
                            .append(d.statement())
                            .append('\n');
                }
            }
            if (!episodeChanges.isEmpty()) {
                sb.append("\nepisode verdicts changed (reward recorded -> new):\n");
                for (EpisodeChange e : episodeChanges) {
                    sb.append("  ")
                            .append(where(e.place()))
                            .append(": ")
                            .append(reward(e.recordedReward()))
                            .append(" -> ")
                            .append(reward(e.newReward()))
                            .append('\n');
                }
            }
            if (!failures.isEmpty()) {
                sb.append("\nwithout a new verdict:\n");
                for (Failure f : failures)
                    sb.append("  ")
                            .append(where(f.place()))
                            .append(": ")
                            .append(f.error())
                            .append('\n');
            }
            return sb.toString();
        }

        private static String ratio(int n, int of) {
            return of == 0 ? "–" : String.format(Locale.ROOT, "%d/%d (%.1f%%)", n, of, 100.0 * n / of);
        }

        private static String where(Place p) {
            return p.benchmark() + " " + p.candidate() + " task " + p.taskId() + " trial " + p.trial() + " (attempt "
                    + p.attemptId() + ")";
        }

        /** Verdicts as the judge's field reads: met, not met; a statement the answer did not cover: missing. */
        public static String verdict(Boolean met) {
            return met == null ? "missing" : met ? "met" : "not met";
        }

        private static String reward(double r) {
            return String.format(Locale.ROOT, "%.3g", r);
        }
    }

    /** Re-grades with the registry's benchmarks and model providers, {@value #DEFAULT_PARALLELISM} judge calls at once. */
    public static Result run(Path dir, String provider, String model) {
        return run(dir, provider, model, Registry.process(), DEFAULT_PARALLELISM);
    }

    /**
     * Re-judges every completed attempt in {@code dir}'s store with the judge {@code provider}'s
     * {@code model} (as each benchmark asks its judge: {@link Rejudging#judge}), at most
     * {@code parallelism} calls at once, and stores the new verdicts as regrade run {@code n} (one
     * more than the store's last). IllegalArgumentException when {@code dir} holds no experiment or
     * the judge cannot be made (an unknown or unconfigured provider, an unknown scripted judge), before
     * anything is written. A judge of provider {@code scripted} is the benchmark's own, made per task.
     */
    public static Result run(Path dir, String provider, String model, Registry registry, int parallelism) {
        return run(dir, provider, model, registry, parallelism, false);
    }

    /**
     * As above; with {@code cached}, an HTTP judge's calls go through the model-call cache kept in the
     * store ({@code model_cache}, keyed by the exact request and the attempt's trial): judging the
     * same records again with the same judge sends nothing, and each call served is recorded as a hit.
     */
    public static Result run(
            Path dir, String provider, String model, Registry registry, int parallelism, boolean cached) {
        if (!Files.isRegularFile(ExperimentStore.file(dir)))
            throw new IllegalArgumentException(dir + " holds no experiment (no " + ExperimentStore.FILE + ")");
        return run(StoreLocation.of(dir), provider, model, registry, parallelism, cached);
    }

    /** As above, on the store at {@code dir} (a directory's or a PostgreSQL schema, which must hold a store). */
    public static Result run(
            StoreLocation dir, String provider, String model, Registry registry, int parallelism, boolean cached) {
        if (parallelism < 1) throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        String judgeLabel = provider + ":" + model;
        Map<String, EnvironmentDef> firstEnvs = new LinkedHashMap<>();
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            for (EnvironmentDef e : q.environments().values()) firstEnvs.putIfAbsent(e.benchmark(), e);
        }
        // The judges first: an unknown or unconfigured provider is refused before the store is opened for writing.
        Map<String, Judge> judges = new HashMap<>();
        Semaphore calls = new Semaphore(parallelism);
        for (var first : firstEnvs.entrySet()) {
            BenchmarkProvider b = registry.benchmarks().get(first.getKey());
            Optional<Rejudging> rj = b == null ? Optional.empty() : b.rejudging();
            if (rj.isEmpty()) continue;
            ModelRef ref = rj.get().judge(provider, model);
            Function<EnvironmentDef, Candidate> make;
            if (ref.provider().equals(BenchmarkProvider.SCRIPTED)) {
                // The benchmark's own scripted judge, made per task as in a run; an unknown one is refused here.
                b.scripted("judge", ref, first.getValue());
                make = env -> b.scripted("judge", ref, env);
            } else {
                Candidate c = registry.resolver().apply(ref);
                if (cached && !(c instanceof HttpProvider)) {
                    throw new IllegalArgumentException("cache: the judge " + ref
                            + " is not an HTTP model, whose exact requests the cache is keyed by");
                }
                make = env -> c;
            }
            judges.put(first.getKey(), new Judge(rj.get(), ref, make));
        }
        try (ExperimentStore store = ExperimentStore.openForRun(dir);
                ModelCache cache = cached ? ModelCache.inStore(dir) : null) {
            ExperimentQuery query = store.query();
            Map<CellKey, Cell> cells = new HashMap<>();
            for (Cell c : query.cells()) cells.put(c.key(), c);
            Map<String, EnvironmentDef> envs = query.environments();
            List<Attempt> completed = query.attempts(false, false).stream()
                    .filter(Attempt::completed)
                    .toList();
            int run = store.connection().tx(null, () -> {
                try (Statement s = store.connection().connection().createStatement()) {
                    createTable(s, store.connection().dialect());
                    try (ResultSet r = s.executeQuery("SELECT COALESCE(MAX(run), 0) + 1 FROM " + TABLE)) {
                        r.next();
                        return r.getInt(1);
                    }
                }
            });
            // Every attempt is a unit of the one runner, all at once: the limit is on judge calls at once
            // (the semaphore, which a cache hit skips, as in a run), not on attempts being read.
            List<Outcome> outcomes = new ArrayList<>();
            List<brokkr.run.Job<Outcome>> jobs = new ArrayList<>();
            List<Integer> slots = new ArrayList<>();
            Cancellation cancellation = new Cancellation(); // the runner's, when it is cancelled (interrupted)
            for (Attempt light : completed) {
                EnvironmentDef env = envs.get(light.environmentId());
                Cell cell = cells.get(new CellKey(light.environmentId(), light.agentId(), light.repetition()));
                Place place = new Place(
                        light.id(),
                        env.benchmark(),
                        cell == null ? light.agentId() : cell.candidate(),
                        light.taskId(),
                        light.repetition() + 1);
                Judge judge = judges.get(env.benchmark());
                outcomes.add(new Outcome(place, null, null, null));
                if (judge == null) continue;
                slots.add(outcomes.size() - 1);
                jobs.add(new brokkr.run.Job<>() {
                    @Override
                    public String name() {
                        return "regrade-" + light.id();
                    }

                    @Override
                    public Outcome run(brokkr.run.RunModels models) {
                        return rejudge(
                                store,
                                run,
                                judgeLabel,
                                judge,
                                calls,
                                cancellation,
                                cache,
                                env,
                                place,
                                query.attempt(light.id()).orElseThrow());
                    }

                    @Override
                    public Outcome failed(
                            String error, brokkr.run.RunModels models, long startedAtMillis, long durationMillis) {
                        return new Outcome(place, null, null, error);
                    }
                });
            }
            brokkr.run.Sink.Ordered<Outcome> judged = brokkr.run.Sink.memory();
            Runner.run(
                    jobs,
                    ref -> {
                        throw new IllegalStateException("a regrade's judges are its own");
                    },
                    Policy.of(Math.max(1, Math.min(jobs.size(), Policy.MAX_PARALLELISM)))
                            .withCancellation(cancellation),
                    judged);
            if (Thread.currentThread().isInterrupted()) throw new IllegalStateException("interrupted while re-judging");
            for (int i = 0; i < slots.size(); i++)
                outcomes.set(slots.get(i), judged.results().get(i));
            int rejudged = 0, without = 0, statements = 0, agreeing = 0, episodesAgreeing = 0;
            List<Failure> failures = new ArrayList<>();
            List<Disagreement> disagreements = new ArrayList<>();
            List<EpisodeChange> changes = new ArrayList<>();
            for (Outcome o : outcomes) {
                if (o.error() != null) {
                    failures.add(new Failure(o.place(), o.error()));
                    continue;
                }
                if (o.rejudged() == null) {
                    without++;
                    continue;
                }
                rejudged++;
                for (Rejudging.Judgement j : o.rejudged().judgements()) {
                    statements++;
                    if (j.agrees()) agreeing++;
                    else disagreements.add(new Disagreement(o.place(), j.statement(), j.recorded(), j.now()));
                }
                if (o.recorded().success() == o.rejudged().success()) episodesAgreeing++;
                else
                    changes.add(new EpisodeChange(
                            o.place(), o.recorded().reward(), o.rejudged().reward()));
            }
            return new Result(
                    dir,
                    run,
                    judgeLabel,
                    completed.size(),
                    rejudged,
                    without,
                    failures,
                    statements,
                    agreeing,
                    episodesAgreeing,
                    disagreements,
                    changes);
        }
    }

    /** A benchmark's re-judging with its judge model (made per task: a scripted judge may know the task). */
    private record Judge(Rejudging rejudging, ModelRef ref, Function<EnvironmentDef, Candidate> model) {}

    /** What one attempt's re-judging gave: nothing to judge (both null), a verdict, or an error. */
    private record Outcome(Place place, Attempt recorded, Rejudging.Rejudged rejudged, String error) {}

    /** Judges one attempt again and commits its row (a failure's row too, with the calls made). */
    private static Outcome rejudge(
            ExperimentStore store,
            int run,
            String judgeLabel,
            Judge judge,
            Semaphore calls,
            Cancellation cancellation,
            ModelCache cache,
            EnvironmentDef env,
            Place place,
            Attempt a) {
        Evaluation.Recorder recorder = new Evaluation.Recorder();
        Optional<Rejudging.Rejudged> r;
        String error = null;
        Candidate model = judge.model().apply(env);
        Candidate limited = (history, tools) -> {
            // Interruptibly, and never past a cancellation: a cancelled regrade's units are interrupted and
            // abandoned, and one that waited here regardless (or got its turn before its interrupt arrived)
            // would make its call, and write its row, after the regrade returned.
            try {
                calls.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancellationException("the regrade was interrupted");
            }
            if (cancellation.isCancelled()) {
                calls.release();
                throw new CancellationException("the regrade was interrupted");
            }
            try {
                return model.next(history, tools);
            } finally {
                calls.release();
            }
        };
        // A hit skips the limit on calls at once, as in a run.
        Candidate used = cache != null && model instanceof HttpProvider http
                ? cache.around(http, limited, a.repetition() + 1)
                : limited;
        try {
            r = judge.rejudging().rejudge(env, a, recorder.wrap("judge", used));
        } catch (InfrastructureFailure e) {
            r = Optional.empty();
            error = Evaluation.INFRASTRUCTURE_FAILURE + e.getMessage();
        } catch (RuntimeException e) {
            r = Optional.empty();
            error = "harness error: " + e;
        }
        if (r.isEmpty() && error == null) return new Outcome(place, a, null, null);
        // Cancelled: the runner drops this unit's outcome, and its row is not written either.
        if (cancellation.isCancelled() || Thread.currentThread().isInterrupted())
            return new Outcome(place, a, null, "interrupted");
        write(store, run, judgeLabel, judge.ref(), a, r.orElse(null), error, recorder);
        return new Outcome(place, a, r.orElse(null), error);
    }

    static void createTable(Statement s, StoreDialect d) throws SQLException {
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS regrade(
                  run INTEGER NOT NULL, attempt_id ${BIGINT} NOT NULL REFERENCES attempt(id),
                  judge TEXT NOT NULL, judge_json TEXT NOT NULL, regraded_at ${BIGINT} NOT NULL,
                  status TEXT NOT NULL, reward ${REAL}, checks_json TEXT, evidence_json TEXT NOT NULL, error TEXT,
                  PRIMARY KEY(run, attempt_id))"""));
    }

    /** {@code status} of a row: the judge answered, or gave no verdict ({@code error} says why). */
    public static final String JUDGED = "judged", NO_VERDICT = "no_verdict";

    private static void write(
            ExperimentStore store,
            int run,
            String judgeLabel,
            ModelRef judgeRef,
            Attempt a,
            Rejudging.Rejudged r,
            String error,
            Evaluation.Recorder recorder) {
        PyDict details = r == null
                ? PyDict.empty()
                : PyDict.builder()
                        .put("recorded_reward", a.reward())
                        .put("reward", r.reward())
                        .put(
                                "judgements",
                                PyList.of(r.judgements().stream()
                                        .map(Regrade::judgementValue)
                                        .toList()))
                        .build();
        EvidenceCodec.Encoded ev = EvidenceCodec.encode(
                new Evidence(null, null, null, null, null, recorder.calls(), recorder.usage(), null, details));
        store.connection().tx(null, () -> {
            try (PreparedStatement b = store.connection()
                    .connection()
                    .prepareStatement("INSERT INTO blob(sha256, text) VALUES(?,?) ON CONFLICT DO NOTHING")) {
                for (var e : ev.blobs().entrySet()) {
                    b.setString(1, e.getKey());
                    store.connection().dialect().setAnyText(b, 2, e.getValue());
                    b.addBatch();
                }
                b.executeBatch();
            }
            try (PreparedStatement p = store.connection().connection().prepareStatement("""
                    INSERT INTO regrade(run, attempt_id, judge, judge_json, regraded_at, status, reward, checks_json, evidence_json, error)
                    VALUES(?,?,?,?,?,?,?,?,?,?)""")) {
                p.setInt(1, run);
                p.setLong(2, a.id());
                p.setString(3, judgeLabel);
                p.setString(4, ContentHash.canonicalJson(judgeRef.toValue()));
                p.setLong(5, System.currentTimeMillis());
                p.setString(6, r == null ? NO_VERDICT : JUDGED);
                if (r == null) p.setNull(7, Types.REAL);
                else p.setDouble(7, r.reward());
                p.setString(
                        8,
                        r == null
                                ? null
                                : PyJson.dumps(
                                        checksValue(r.checks()), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
                p.setString(9, ev.json());
                p.setString(10, error);
                p.executeUpdate();
            }
            return null;
        });
    }

    private static Value judgementValue(Rejudging.Judgement j) {
        return PyDict.builder()
                .put("statement", j.statement())
                .put("recorded", flag(j.recorded()))
                .put("now", flag(j.now()))
                .put("justification", j.justification() == null ? PyNone.NONE : Value.str(j.justification()))
                .build();
    }

    private static Value flag(Boolean b) {
        return b == null ? PyNone.NONE : PyBool.of(b);
    }

    private static Value checksValue(List<Check> checks) {
        List<Value> l = new ArrayList<>();
        for (Check c : checks) l.add(PyList.of(Value.str(c.name()), PyBool.of(c.passed())));
        return PyList.of(l);
    }

    // ---------------------------------------------------------------- reading

    /**
     * A stored row: which regrade run, which attempt, the judge, its status ({@value #JUDGED} or
     * {@value #NO_VERDICT}), the new reward and checks (null without a verdict), the judge's calls with
     * their exact requests and the judgements ({@code evidence.details().judgements}), and the error.
     */
    public record Stored(
            int run,
            long attemptId,
            String judge,
            ModelRef judgeModel,
            long regradedAtMillis,
            String status,
            Double reward,
            List<Check> checks,
            Evidence evidence,
            String error) {}

    /** Every stored regrade row, by run then attempt; none when the store has had no regrade. */
    public static List<Stored> stored(ExperimentQuery query) {
        return query.connection().read(() -> {
            List<Stored> out = new ArrayList<>();
            try (Statement s = query.connection().connection().createStatement()) {
                if (!query.connection().dialect().hasTable(s, TABLE)) return out;
                try (ResultSet r = s.executeQuery(
                        "SELECT run, attempt_id, judge, judge_json, regraded_at, status, reward, checks_json, "
                                + "evidence_json, error FROM " + TABLE + " ORDER BY run, attempt_id")) {
                    while (r.next()) {
                        double reward = r.getDouble(7);
                        boolean noReward = r.wasNull();
                        String checks = r.getString(8);
                        out.add(new Stored(
                                r.getInt(1),
                                r.getLong(2),
                                r.getString(3),
                                ModelRef.fromValue(Json.parse(r.getString(4))),
                                r.getLong(5),
                                r.getString(6),
                                noReward ? null : reward,
                                checks == null ? null : checks(Json.parse(checks)),
                                query.decodeEvidence(r.getString(9)),
                                r.getString(10)));
                    }
                }
            }
            return out;
        });
    }

    private static List<Check> checks(Value v) {
        List<Check> out = new ArrayList<>();
        for (Value x : v.asList())
            out.add(new Check(x.asList().get(0).asStr(), ((PyBool) x.asList().get(1)).value()));
        return out;
    }
}
