package brokkr.experiment;

import brokkr.conversation.Usage;
import brokkr.cost.PriceTable;
import brokkr.cost.RoleSpend;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.run.Plan;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What running a plan's pending cells would cost, before any runs ({@code experiment run --dry-run}): per
 * benchmark and candidate, the cells, the models by role, and the dollars an episode is expected to cost, each
 * role's typical tokens priced at the model the plan gives that role ({@link PriceTable}, today's prices).
 * Typical tokens come from a previous experiment ({@link Typical#of}): the mean tokens (cache reads and writes
 * apart, priced at their own rates) per completed episode of
 * the same candidate label and role, else of the role over all its candidates on that benchmark. A role with no
 * typical tokens or no price makes its row's estimate missing (a dash), never 0.
 *
 * @param rows      one per benchmark × candidate with pending cells, in plan order
 * @param totalUsd  the sum of the rows' estimates; NaN when a row has none
 */
public record CostEstimate(List<Row> rows, double totalUsd) {

    /** A benchmark × candidate: pending cells, its models by role, dollars per episode and in all. */
    public record Row(
            String benchmark,
            String candidate,
            int cells,
            Map<String, String> models,
            double usdPerEpisode,
            double usd) {}

    /** Mean tokens per completed episode by benchmark, candidate and role (and by benchmark and role). */
    public record Typical(Map<List<String>, Usage> byCandidate, Map<List<String>, Usage> byRole) {
        public static final Typical NONE = new Typical(Map.of(), Map.of());

        /** The means of the completed attempts of {@code store}'s active cells. */
        public static Typical of(ExperimentQuery store) {
            Map<CellKey, Cell> cells = new HashMap<>();
            for (Cell c : store.cells()) if (c.active()) cells.put(c.key(), c);
            Map<List<String>, long[]> byCandidate = new LinkedHashMap<>(), byRole = new LinkedHashMap<>();
            for (Attempt a : store.attempts(true)) {
                Cell c = cells.get(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
                if (c == null || !a.completed()) continue;
                for (RoleSpend s : RoleSpend.of(a.evidence())) {
                    add(byCandidate, List.of(c.benchmark(), c.candidate(), s.role()), s.usage());
                    add(byRole, List.of(c.benchmark(), s.role()), s.usage());
                }
            }
            return new Typical(means(byCandidate), means(byRole));
        }

        /**
         * The benchmarks' typical tokens per episode shipped with Brokkr ({@code typical-tokens.tsv} beside this
         * class: measured on each tau2 domain's test split under its gold candidate, characters / 4; the file says
         * how), by benchmark and role: an estimate of that kind, for a dry run without a previous experiment.
         */
        public static Typical domain() {
            Map<List<String>, Usage> byRole = new LinkedHashMap<>();
            try (var in = CostEstimate.class.getResourceAsStream("typical-tokens.tsv")) {
                if (in == null)
                    throw new IllegalStateException("missing resource brokkr/experiment/typical-tokens.tsv");
                for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) continue;
                    String[] f = line.split("\t");
                    byRole.put(List.of(f[0], f[1]), new Usage(Long.parseLong(f[2]), Long.parseLong(f[3])));
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new Typical(Map.of(), byRole);
        }

        /** The benchmarks this typical knows tokens of. */
        public java.util.Set<String> benchmarks() {
            java.util.Set<String> out = new java.util.TreeSet<>();
            byCandidate.keySet().forEach(k -> out.add(k.getFirst()));
            byRole.keySet().forEach(k -> out.add(k.getFirst()));
            return out;
        }

        Usage of(String benchmark, String candidate, String role) {
            Usage u = byCandidate.get(List.of(benchmark, candidate, role));
            return u != null ? u : byRole.get(List.of(benchmark, role));
        }

        private static void add(Map<List<String>, long[]> sums, List<String> key, Usage u) {
            long[] s = sums.computeIfAbsent(key, k -> new long[5]);
            s[0] += u.inputTokens();
            s[1] += u.outputTokens();
            s[2] += u.cacheReadTokens();
            s[3] += u.cacheWriteTokens();
            s[4]++;
        }

        private static Map<List<String>, Usage> means(Map<List<String>, long[]> sums) {
            Map<List<String>, Usage> out = new LinkedHashMap<>();
            sums.forEach((k, s) -> {
                long in = Math.round((double) s[0] / s[4]);
                // The cache's shares of the mean input, each rounded, never more than the input they are part of.
                long read = Math.min(in, Math.round((double) s[2] / s[4]));
                long write = Math.min(in - read, Math.round((double) s[3] / s[4]));
                out.put(k, new Usage(in, Math.round((double) s[1] / s[4]), read, write));
            });
            return out;
        }
    }

    /** The estimate of {@code plan}'s cells not in {@code done} (those with a verdict already). */
    public static CostEstimate of(Plan plan, Set<CellKey> done, Typical typical, PriceTable prices) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Map<List<String>, Row> rows = new LinkedHashMap<>();
        for (Plan.Unit u : plan.units()) {
            if (done.contains(StoreSink.key(u))) continue;
            String bench = u.cell().env().benchmark();
            Map<String, ModelRef> roles = new TreeMap<>(u.cell().env().models());
            roles.put(Evidence.AGENT, u.cell().agent().modelRef());
            double usd = 0;
            Map<String, String> models = new LinkedHashMap<>();
            for (var r : roles.entrySet()) {
                models.put(
                        r.getKey(), r.getValue().provider() + ":" + r.getValue().model());
                if (r.getValue().provider().equals(BenchmarkProvider.SCRIPTED)) continue; // asks no paid model
                Usage tokens = typical.of(bench, u.candidate(), r.getKey());
                usd += tokens == null
                        ? Double.NaN
                        : prices.usd(r.getValue().provider(), r.getValue().model(), tokens, today);
            }
            double perEpisode = usd;
            rows.merge(
                    List.of(bench, u.candidate()),
                    new Row(bench, u.candidate(), 1, models, perEpisode, perEpisode),
                    (a, b) -> new Row(
                            a.benchmark(),
                            a.candidate(),
                            a.cells() + 1,
                            a.models(),
                            a.usdPerEpisode(),
                            a.usd() + b.usd()));
        }
        double total = 0;
        for (Row r : rows.values()) total += r.usd();
        return new CostEstimate(new ArrayList<>(rows.values()), total);
    }
}
