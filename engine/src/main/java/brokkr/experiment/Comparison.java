package brokkr.experiment;

import brokkr.cost.PriceTable;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.stats.Paired;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A paired comparison of two candidates on one benchmark: the same tasks, trial by trial. Candidate A
 * and B come from one experiment directory or from two (a re-run, another model's run), aligned by task
 * id and trial (the cell's repetition); only trials scored on both sides count, tasks without such a
 * trial are listed and left out, and so are the unmatched trials of the tasks that stay (counted).
 * Per task: each side's mean reward and pass^k estimate {@code C(c_t, k)/C(n_t, k)} over the matched
 * trials, for k up to the fewest matched trials of any task; over tasks: {@link Paired} statistics of
 * the differences A - B (mean, paired standard error and 95% interval, paired t and sign-flip p-values,
 * minimum detectable effect). Infrastructure failures are never scored, so never matched.
 * Plain data; drawn in {@code brokkr.magics}.
 *
 * @param tasks          the matched tasks, in A's order
 * @param unmatched      tasks of either side left out, with why
 * @param trialsExcluded scored trials of matched tasks without a partner on the other side
 * @param reward         the per-task mean rewards compared
 * @param passHatK       pass^1..pass^K compared (empty without a matched task)
 * @param agentUsd       the agent's US dollars per episode compared over the same trials (priced from their
 *                       recorded tokens at the standard price table), beside the score's difference; null when a
 *                       matched trial of either side is unpriced (a dash, never $0)
 */
public record Comparison(
        String benchmark,
        Side a,
        Side b,
        List<TaskDifference> tasks,
        List<Unmatched> unmatched,
        int trialsExcluded,
        Paired reward,
        List<Paired> passHatK,
        Paired agentUsd) {

    /** One side: a candidate of the experiment in {@code dir}. */
    public record Side(String candidate, String dir) {
        /** The candidate, with its directory when the two sides come from two. */
        public String label(boolean withDir) {
            return withDir ? candidate + " (" + dir + ")" : candidate;
        }
    }

    /** One scored trial: the cell's repetition (from 0), its reward and whether it succeeded. */
    public record Trial(int repetition, double reward, boolean success, double agentUsd) {
        /** A trial whose cost is not known. */
        public Trial(int repetition, double reward, boolean success) {
            this(repetition, reward, success, Double.NaN);
        }
    }

    /** A matched task: the trials both sides scored, each side's mean reward and pass^k over them. */
    public record TaskDifference(
            String taskId, int trials, double rewardA, double rewardB, List<Double> passHatKA, List<Double> passHatKB) {
        public double rewardDifference() {
            return rewardA - rewardB;
        }

        public double passHatKDifference(int k) {
            return passHatKA.get(k - 1) - passHatKB.get(k - 1);
        }
    }

    /** A task left out: {@code "only in A"}, {@code "only in B"} or {@code "no trial scored by both"}. */
    public record Unmatched(String taskId, String reason) {}

    /** Whether the two sides come from different directories. */
    public boolean acrossDirectories() {
        return !a.dir().equals(b.dir());
    }

    /** The largest k compared (0 without a matched task). */
    public int maxK() {
        return passHatK.size();
    }

    /**
     * Compares {@code a}'s trials with {@code b}'s, by task id and trial: each map is task id → its
     * scored trials, tasks in the order they should be shown.
     */
    public static Comparison of(
            String benchmark, Side a, Side b, Map<String, List<Trial>> trialsA, Map<String, List<Trial>> trialsB) {
        List<Unmatched> unmatched = new ArrayList<>();
        int excluded = 0;
        List<String> matchedIds = new ArrayList<>();
        List<List<Trial>> matchedA = new ArrayList<>(), matchedB = new ArrayList<>();
        for (var e : trialsA.entrySet()) {
            List<Trial> other = trialsB.get(e.getKey());
            if (other == null) {
                unmatched.add(new Unmatched(e.getKey(), "only in A"));
                continue;
            }
            Map<Integer, Trial> byRepA = byRepetition(e.getValue()), byRepB = byRepetition(other);
            TreeSet<Integer> common = new TreeSet<>(byRepA.keySet());
            common.retainAll(byRepB.keySet());
            if (common.isEmpty()) {
                unmatched.add(new Unmatched(e.getKey(), "no trial scored by both"));
                continue;
            }
            excluded += byRepA.size() - common.size() + byRepB.size() - common.size();
            matchedIds.add(e.getKey());
            matchedA.add(common.stream().map(byRepA::get).toList());
            matchedB.add(common.stream().map(byRepB::get).toList());
        }
        for (var e : trialsB.entrySet()) {
            if (!trialsA.containsKey(e.getKey())) unmatched.add(new Unmatched(e.getKey(), "only in B"));
        }
        int maxK = matchedA.stream().mapToInt(List::size).min().orElse(0);
        List<TaskDifference> tasks = new ArrayList<>();
        for (int i = 0; i < matchedIds.size(); i++) {
            tasks.add(new TaskDifference(
                    matchedIds.get(i),
                    matchedA.get(i).size(),
                    meanReward(matchedA.get(i)),
                    meanReward(matchedB.get(i)),
                    curve(matchedA.get(i), maxK),
                    curve(matchedB.get(i), maxK)));
        }
        Paired reward = Paired.of(
                tasks.stream().mapToDouble(TaskDifference::rewardA).toArray(),
                tasks.stream().mapToDouble(TaskDifference::rewardB).toArray());
        List<Paired> passHatK = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) {
            int kk = k;
            passHatK.add(Paired.of(
                    tasks.stream().mapToDouble(t -> t.passHatKA().get(kk - 1)).toArray(),
                    tasks.stream().mapToDouble(t -> t.passHatKB().get(kk - 1)).toArray()));
        }
        double[] usdA = matchedA.stream().mapToDouble(Comparison::meanUsd).toArray(),
                usdB = matchedB.stream().mapToDouble(Comparison::meanUsd).toArray();
        boolean priced = usdA.length > 0
                && java.util.Arrays.stream(usdA).noneMatch(Double::isNaN)
                && java.util.Arrays.stream(usdB).noneMatch(Double::isNaN);
        return new Comparison(
                benchmark,
                a,
                b,
                List.copyOf(tasks),
                List.copyOf(unmatched),
                excluded,
                reward,
                List.copyOf(passHatK),
                priced ? Paired.of(usdA, usdB) : null);
    }

    /**
     * Candidate {@code a} of {@code storeA} against {@code b} of {@code storeB} (the same store for two
     * candidates of one experiment), one comparison per benchmark both ran, in A's order.
     * IllegalArgumentException when they share no benchmark.
     */
    public static List<Comparison> between(
            ExperimentQuery storeA, String dirA, String a, ExperimentQuery storeB, String dirB, String b) {
        Map<String, Map<String, List<Trial>>> sideA = trials(storeA, a), sideB = trials(storeB, b);
        List<Comparison> out = new ArrayList<>();
        for (var e : sideA.entrySet()) {
            Map<String, List<Trial>> other = sideB.get(e.getKey());
            if (other != null) out.add(of(e.getKey(), new Side(a, dirA), new Side(b, dirB), e.getValue(), other));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(a + " (" + dirA + ": " + String.join(", ", sideA.keySet()) + ") and " + b
                    + " (" + dirB + ": " + String.join(", ", sideB.keySet()) + ") ran no benchmark in common");
        }
        return out;
    }

    /**
     * Which two candidates to compare: the ones named, else in one directory its only two candidates;
     * across two directories A defaults to DIR1's only candidate and B to A's name when DIR2 has it,
     * else DIR2's only candidate. IllegalArgumentException naming the candidates there are otherwise.
     *
     * @return {@code [a, b]}
     */
    public static List<String> resolve(
            List<String> candidatesA, List<String> candidatesB, boolean twoDirectories, String a, String b) {
        if (a != null && !candidatesA.contains(a))
            throw new IllegalArgumentException(
                    "no candidate '" + a + "' (candidates: " + String.join(", ", candidatesA) + ")");
        if (b != null && !candidatesB.contains(b))
            throw new IllegalArgumentException(
                    "no candidate '" + b + "' (candidates: " + String.join(", ", candidatesB) + ")");
        if (!twoDirectories) {
            if (a == null && b == null) {
                if (candidatesA.size() != 2) {
                    throw new IllegalArgumentException("the experiment has " + candidatesA.size() + " candidates ("
                            + String.join(", ", candidatesA) + "): name the two to compare with --a and --b");
                }
                return List.copyOf(candidatesA);
            }
            if (a == null || b == null) {
                List<String> rest = candidatesA.stream()
                        .filter(c -> !c.equals(a == null ? b : a))
                        .toList();
                if (rest.size() != 1)
                    throw new IllegalArgumentException("name both candidates with --a and --b (candidates: "
                            + String.join(", ", candidatesA) + ")");
                return a == null ? List.of(rest.getFirst(), b) : List.of(a, rest.getFirst());
            }
            if (a.equals(b))
                throw new IllegalArgumentException("compare needs two different candidates, got '" + a + "' twice");
            return List.of(a, b);
        }
        String ra = a != null ? a : only(candidatesA, "the first directory", "--a");
        String rb = b != null ? b : candidatesB.contains(ra) ? ra : only(candidatesB, "the second directory", "--b");
        return List.of(ra, rb);
    }

    private static String only(List<String> candidates, String where, String flag) {
        if (candidates.size() != 1) {
            throw new IllegalArgumentException(where + " has " + candidates.size() + " candidates ("
                    + String.join(", ", candidates) + "): name one with " + flag);
        }
        return candidates.getFirst();
    }

    /** The active candidates of a store, in the spec's order. */
    public static List<String> candidates(ExperimentQuery store) {
        return store.cells().stream()
                .filter(Cell::active)
                .map(Cell::candidate)
                .distinct()
                .toList();
    }

    /** Benchmark → task id (in the spec's order) → the candidate's scored trials of the store's current cells. */
    static Map<String, Map<String, List<Trial>>> trials(ExperimentQuery store, String candidate) {
        Map<CellKey, Cell> cells = new HashMap<>();
        Map<String, Map<String, List<Trial>>> out = new LinkedHashMap<>();
        for (Cell c : store.cells()) {
            if (!c.active() || !c.candidate().equals(candidate)) continue;
            cells.put(c.key(), c);
            out.computeIfAbsent(c.benchmark(), x -> new LinkedHashMap<>())
                    .computeIfAbsent(c.taskId(), x -> new ArrayList<>());
        }
        Map<Long, EpisodeCost> costs = store.episodeCosts(true);
        PriceTable prices = Scorecard.prices(store);
        for (Attempt at : store.attempts(true, false)) {
            Cell c = cells.get(new CellKey(at.environmentId(), at.agentId(), at.repetition()));
            if (c == null || !at.completed()) continue;
            List<Trial> trials = out.get(c.benchmark()).get(c.taskId());
            // A cell is scored once; should a store hold two verdicts for one, the first (oldest) counts.
            if (trials.stream().noneMatch(t -> t.repetition() == at.repetition()))
                trials.add(new Trial(
                        at.repetition(),
                        at.reward(),
                        at.success(),
                        costs.containsKey(at.id()) ? costs.get(at.id()).usd(Evidence.AGENT, prices) : Double.NaN));
        }
        return out;
    }

    private static Map<Integer, Trial> byRepetition(List<Trial> trials) {
        Map<Integer, Trial> out = new TreeMap<>();
        for (Trial t : trials) out.putIfAbsent(t.repetition(), t);
        return out;
    }

    private static double meanUsd(List<Trial> trials) {
        double s = 0;
        for (Trial t : trials) s += t.agentUsd();
        return s / trials.size();
    }

    private static double meanReward(List<Trial> trials) {
        double s = 0;
        for (Trial t : trials) s += t.reward();
        return s / trials.size();
    }

    private static List<Double> curve(List<Trial> trials, int maxK) {
        int c = (int) trials.stream().filter(Trial::success).count();
        List<Double> out = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) out.add(PassHatK.of(trials.size(), c, k));
        return out;
    }
}
