package brokkr.experiment;

import brokkr.cost.PriceTable;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.stats.Estimate;
import brokkr.stats.OverTasks;
import brokkr.stats.Wilson;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * An experiment's scores, one row per benchmark × candidate, computed from completed attempts only:
 * infrastructure failures are counted but enter no metric. Average reward is over attempts and
 * pass^k over tasks, as upstream tau2's {@code compute_metrics}; per-task and per-check breakdowns say
 * where and why a candidate lost. Costs (tokens, durations, and what an episode costs on average: tokens,
 * model steps, tool calls, request characters, {@link EpisodeCost.Means}) are kept apart in {@link Cost}
 * because they differ between otherwise identical runs. Plain data: tables and text are drawn where they are
 * shown (the notebook's and CLI's renderers in {@code brokkr.magics}). The statistics over these
 * numbers (standard errors clustered by task, intervals) are derived on demand through
 * {@code brokkr.stats}: {@link CandidateScore#rewardEstimate}, {@link CandidateScore#passHatKEstimates}.
 *
 * @param pendingCells active cells with no completed attempt (not yet run, or failed on infrastructure)
 */
public record Scorecard(List<CandidateScore> rows, int cells, int pendingCells) {

    public record CandidateScore(
            String benchmark,
            String candidate,
            String agentId,
            int tasks,
            int attempts,
            int infrastructureFailures,
            double avgReward,
            List<Double> passHatK,
            List<TaskScore> perTask,
            List<CheckScore> perCheck,
            Map<TrustTier, Integer> trust,
            Cost cost) {
        /**
         * Whether any attempt was scored. Without one, {@code avgReward} is 0.0 (as upstream reports it)
         * but means nothing: displays show no value, never 0.000.
         */
        public boolean scored() {
            return attempts > 0;
        }

        /**
         * The average reward with its standard error clustered by task and 95% t interval (T - 1
         * degrees of freedom; clipped to [0, 1] when every task's mean reward is in it):
         * {@link OverTasks#mean(List)} over the tasks' trials. {@link Estimate#NONE} without a scored attempt.
         */
        public Estimate rewardEstimate() {
            Estimate e = OverTasks.mean(rewardClusters());
            return rewardsAreRates() ? e.clippedTo(0, 1) : e;
        }

        /** The design-effect Wilson interval of the average reward ({@link Wilson#clustered}); none unless rewards are in [0, 1]. */
        public Estimate.Interval rewardWilson() {
            return Wilson.clustered(rewardClusters());
        }

        /**
         * pass^k for k = 1..{@code passHatK().size()} with its standard error over tasks,
         * {@code sd(h_t)/sqrt(T)} for the per-task estimates {@code h_t = C(c_t, k)/C(n_t, k)}, and
         * 95% t interval clipped to [0, 1].
         */
        public List<Estimate> passHatKEstimates() {
            List<Estimate> out = new ArrayList<>();
            for (int k = 1; k <= passHatK.size(); k++)
                out.add(OverTasks.mean(taskPassHatK(k)).clippedTo(0, 1));
            return out;
        }

        /** The Wilson-type interval of each pass^k, every task one unit ({@link Wilson#clustered} over the per-task estimates). */
        public List<Estimate.Interval> passHatKWilson() {
            List<Estimate.Interval> out = new ArrayList<>();
            for (int k = 1; k <= passHatK.size(); k++) out.add(Wilson.clustered(OverTasks.units(taskPassHatK(k))));
            return out;
        }

        /** The fewest scored trials of any task (0 without a task). */
        public int minTrials() {
            return perTask.stream().mapToInt(TaskScore::trials).min().orElse(0);
        }

        /** The most scored trials of any task (0 without a task). */
        public int maxTrials() {
            return perTask.stream().mapToInt(TaskScore::trials).max().orElse(0);
        }

        private List<OverTasks.Cluster> rewardClusters() {
            return perTask.stream()
                    .filter(t -> t.trials() > 0)
                    .map(t -> new OverTasks.Cluster(t.trials(), t.avgReward()))
                    .toList();
        }

        private boolean rewardsAreRates() {
            return perTask.stream().allMatch(t -> t.avgReward() >= 0 && t.avgReward() <= 1);
        }

        private double[] taskPassHatK(int k) {
            return perTask.stream()
                    .mapToDouble(t -> PassHatK.of(t.trials(), t.successes(), k))
                    .toArray();
        }

        public CandidateScore withoutCost() {
            return new CandidateScore(
                    benchmark,
                    candidate,
                    agentId,
                    tasks,
                    attempts,
                    infrastructureFailures,
                    avgReward,
                    passHatK,
                    perTask,
                    perCheck,
                    trust,
                    null);
        }
    }

    public record TaskScore(String taskId, int trials, int successes, double avgReward, List<Double> passHatK) {}

    /** How often a check was evaluated and how often it failed. */
    public record CheckScore(String check, int evaluated, int failed) {}

    /**
     * The candidate's own tokens and the attempts' wall time (completed attempts), and its means per
     * completed episode ({@link EpisodeCost.Means}: tokens, model steps, tool calls, request characters).
     */
    public record Cost(
            long inputTokens,
            long outputTokens,
            double meanDurationMs,
            long totalDurationMs,
            EpisodeCost.Means perEpisode) {}

    /** The scores without costs: equal for two runs that graded the same. */
    public Scorecard withoutCost() {
        return new Scorecard(rows.stream().map(CandidateScore::withoutCost).toList(), cells, pendingCells);
    }

    /**
     * Scores the active cells of a store: the attempts without their evidence, and each completed one's
     * episode cost read from its evidence one attempt at a time ({@link ExperimentQuery#episodeCosts}).
     */
    public static Scorecard of(ExperimentQuery store) {
        return of(store, prices(store));
    }

    /** What a store's costs are priced at: the standard table with its experiment file's {@code prices:} over it. */
    public static PriceTable prices(ExperimentQuery store) {
        return ExperimentSpec.CostSpec.storedPrices(
                store.experiment().map(Map.Entry::getValue).orElse(""));
    }

    /** {@link #of(ExperimentQuery)}, money per episode at {@code prices} (derived from the recorded tokens). */
    public static Scorecard of(ExperimentQuery store, PriceTable prices) {
        List<Cell> cells = store.cells().stream().filter(Cell::active).toList();
        List<Attempt> attempts = store.attempts(true, false);
        // Read after the attempts, so that beside a running writer it has every attempt listed (and perhaps newer
        // ones).
        Map<Long, EpisodeCost> costs = store.episodeCosts(true);
        return of(cells, attempts, a -> costs.get(a.id()), prices);
    }

    /**
     * Scores {@code cells} from {@code attempts} (attempts of other cells are ignored), each episode's cost
     * from its evidence: attempts read with their evidence ({@link ExperimentQuery#attempts(boolean)}).
     */
    public static Scorecard of(List<Cell> cells, List<Attempt> attempts) {
        return of(cells, attempts, PriceTable.standard());
    }

    /** {@link #of(List, List)}, money per episode at {@code prices}. */
    public static Scorecard of(List<Cell> cells, List<Attempt> attempts, PriceTable prices) {
        return of(cells, attempts, a -> EpisodeCost.of(a.evidence()), prices);
    }

    private static Scorecard of(
            List<Cell> cells, List<Attempt> attempts, Function<Attempt, EpisodeCost> cost, PriceTable prices) {
        Map<CellKey, Cell> byKey = new LinkedHashMap<>();
        for (Cell c : cells) byKey.put(c.key(), c);
        // Groups in the cells' order: benchmark × candidate.
        Map<List<String>, List<Attempt>> groups = new LinkedHashMap<>();
        Map<List<String>, String> agentIds = new LinkedHashMap<>();
        Map<List<String>, List<String>> taskOrder = new LinkedHashMap<>();
        for (Cell c : cells) {
            List<String> g = List.of(c.benchmark(), c.candidate());
            groups.computeIfAbsent(g, x -> new ArrayList<>());
            agentIds.put(g, c.key().agentId());
            List<String> tasks = taskOrder.computeIfAbsent(g, x -> new ArrayList<>());
            if (!tasks.contains(c.taskId())) tasks.add(c.taskId());
        }
        Set<CellKey> completedCells = new HashSet<>();
        for (Attempt a : attempts) {
            Cell c = byKey.get(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
            if (c == null) continue;
            groups.get(List.of(c.benchmark(), c.candidate())).add(a);
            if (a.completed()) completedCells.add(c.key());
        }
        List<CandidateScore> rows = new ArrayList<>();
        for (var e : groups.entrySet())
            rows.add(score(
                    e.getKey().get(0),
                    e.getKey().get(1),
                    agentIds.get(e.getKey()),
                    taskOrder.get(e.getKey()),
                    e.getValue(),
                    cost,
                    prices));
        return new Scorecard(rows, cells.size(), cells.size() - completedCells.size());
    }

    private static CandidateScore score(
            String benchmark,
            String candidate,
            String agentId,
            List<String> taskOrder,
            List<Attempt> all,
            Function<Attempt, EpisodeCost> cost,
            PriceTable prices) {
        List<Attempt> done = all.stream().filter(Attempt::completed).toList();
        int infra = all.size() - done.size();
        Map<String, List<Attempt>> byTask = new LinkedHashMap<>();
        for (String t : taskOrder) byTask.put(t, new ArrayList<>());
        for (Attempt a : done) byTask.get(a.taskId()).add(a);
        byTask.values().removeIf(List::isEmpty); // upstream counts tasks with at least one evaluated simulation
        List<PassHatK.TaskTrials> trials = new ArrayList<>();
        for (List<Attempt> as : byTask.values())
            trials.add(new PassHatK.TaskTrials(
                    as.size(), (int) as.stream().filter(Attempt::success).count()));
        int maxK = PassHatK.maxK(trials);
        List<TaskScore> perTask = new ArrayList<>();
        int i = 0;
        for (var e : byTask.entrySet()) {
            PassHatK.TaskTrials t = trials.get(i++);
            List<Double> curve = new ArrayList<>();
            for (int k = 1; k <= maxK; k++) curve.add(PassHatK.of(t.trials(), t.successes(), k));
            perTask.add(new TaskScore(e.getKey(), t.trials(), t.successes(), mean(e.getValue()), curve));
        }
        Map<String, int[]> checks = new LinkedHashMap<>();
        Map<TrustTier, Integer> trust = new EnumMap<>(TrustTier.class);
        long in = 0, out = 0, dur = 0;
        for (Attempt a : done) {
            for (Check c : a.checks()) {
                int[] n = checks.computeIfAbsent(c.name(), x -> new int[2]);
                n[0]++;
                if (!c.passed()) n[1]++;
            }
            trust.merge(a.trust(), 1, Integer::sum);
            in += a.evidence().agentUsage().inputTokens();
            out += a.evidence().agentUsage().outputTokens();
            dur += a.durationMillis();
        }
        List<CheckScore> perCheck = new ArrayList<>();
        checks.forEach((k, n) -> perCheck.add(new CheckScore(k, n[0], n[1])));
        // Upstream returns avg_reward 0.0 and no pass^k when nothing was evaluated.
        return new CandidateScore(
                benchmark,
                candidate,
                agentId,
                byTask.size(),
                done.size(),
                infra,
                done.isEmpty() ? 0.0 : mean(done),
                PassHatK.curve(trials),
                perTask,
                perCheck,
                Map.copyOf(trust),
                new Cost(
                        in,
                        out,
                        done.isEmpty() ? 0 : (double) dur / done.size(),
                        dur,
                        EpisodeCost.Means.of(
                                done.stream().map(cost).filter(Objects::nonNull).toList(), prices)));
    }

    private static double mean(List<Attempt> as) {
        double s = 0;
        for (Attempt a : as) s += a.reward();
        return s / as.size();
    }

    /** The largest k any row reports pass^k for (0 without rows): how many pass^k columns a table of these rows has. */
    public int maxK() {
        return rows.stream().mapToInt(r -> r.passHatK().size()).max().orElse(0);
    }
}
