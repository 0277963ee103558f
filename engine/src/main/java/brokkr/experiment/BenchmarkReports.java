package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Report;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks' own reports ({@link BenchmarkProvider#reports}) over an experiment's current cells,
 * per benchmark × candidate in the cells' order, beside its {@link Scorecard}. Each cell is one
 * outcome: its completed attempt, else its last infrastructure failure; cells never run are left
 * out. A benchmark that is not registered here (a store made elsewhere) reports nothing.
 */
public final class BenchmarkReports {
    private BenchmarkReports() {}

    /** One report of one benchmark × candidate. */
    public record CandidateReport(String benchmark, String candidate, Report report) {}

    /** The reports of a store's current cells (read without evidence). */
    public static List<CandidateReport> of(ExperimentQuery store, Registry registry) {
        List<Cell> cells = store.cells().stream().filter(Cell::active).toList();
        return of(cells, store.attempts(true, false), store.environments(), registry);
    }

    /** The reports of {@code cells} from {@code attempts} (oldest first) and the cells' environment definitions. */
    public static List<CandidateReport> of(
            List<Cell> cells, List<Attempt> attempts, Map<String, EnvironmentDef> environments, Registry registry) {
        Map<CellKey, Attempt> deciding = new LinkedHashMap<>();
        for (Attempt a : attempts) {
            CellKey k = new CellKey(a.environmentId(), a.agentId(), a.repetition());
            Attempt before = deciding.get(k);
            // A completed attempt decides its cell; until there is one, the latest failure stands for it.
            if (before == null || !before.completed()) deciding.put(k, a);
        }
        Map<List<String>, List<Report.Outcome>> groups = new LinkedHashMap<>();
        for (Cell c : cells) {
            List<Report.Outcome> group =
                    groups.computeIfAbsent(List.of(c.benchmark(), c.candidate()), g -> new ArrayList<>());
            Attempt a = deciding.get(c.key());
            EnvironmentDef env = environments.get(c.key().environmentId());
            if (a != null && env != null) group.add(new Report.Outcome(env, a));
        }
        List<CandidateReport> out = new ArrayList<>();
        groups.forEach((g, outcomes) -> {
            BenchmarkProvider provider = registry.benchmarks().get(g.get(0));
            if (provider == null || outcomes.isEmpty()) return;
            for (Report r : provider.reports(List.copyOf(outcomes)))
                out.add(new CandidateReport(g.get(0), g.get(1), r));
        });
        return out;
    }
}
