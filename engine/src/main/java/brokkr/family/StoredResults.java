package brokkr.family;

import brokkr.cost.PriceTable;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store side of {@link ResultFormat}s, kept out of the families: an experiment directory's active cells
 * as {@link ResultCell}s for an export, and an {@link ResultFormat.Imported} experiment written into a new
 * store.
 */
public final class StoredResults {
    private StoredResults() {}

    /**
     * The active cells of the experiment in {@code dir}, in the spec's order, each with the attempt that stands
     * for it: its completed attempt, else its last infrastructure failure, else null (not run).
     * IllegalArgumentException when {@code dir} holds no experiment.
     */
    public static List<ResultCell> read(Path dir) {
        return read(StoreLocation.of(dir));
    }

    /** As {@link #read(Path)}, from the store at {@code store} (a directory's or a PostgreSQL schema). */
    public static List<ResultCell> read(StoreLocation store) {
        try (ExperimentQuery q = ExperimentQuery.open(store)) {
            Map<CellKey, Attempt> chosen = new HashMap<>();
            List<Attempt> attempts = q.attempts(true);
            q.requireIntact(); // an export of an attempt without its record would be a wrong file, not a smaller one
            for (Attempt a : attempts) {
                CellKey k = new CellKey(a.environmentId(), a.agentId(), a.repetition());
                Attempt prev = chosen.get(k);
                if (prev == null || !prev.completed()) chosen.put(k, a);
            }
            Map<String, EnvironmentDef> envs = q.environments();
            Map<String, AgentDef> agents = new HashMap<>();
            List<ResultCell> out = new ArrayList<>();
            for (Cell c : q.cells()) {
                if (!c.active()) continue;
                AgentDef agent = agents.computeIfAbsent(
                        c.key().agentId(), id -> q.agent(id).orElseThrow());
                out.add(new ResultCell(
                        c.benchmark(),
                        c.candidate(),
                        c.taskId(),
                        c.key().repetition(),
                        envs.get(c.key().environmentId()),
                        agent,
                        chosen.get(c.key())));
            }
            return List.copyOf(out);
        }
    }

    /**
     * The price table the costs of the store at {@code store} are read at: its experiment file's {@code prices:}
     * over the standard table, as its scorecard prices them ({@link brokkr.experiment.Scorecard#prices}).
     */
    public static PriceTable prices(StoreLocation store) {
        try (ExperimentQuery q = ExperimentQuery.open(store)) {
            return Scorecard.prices(q);
        }
    }

    /**
     * Writes an import into {@code dir} as a new experiment: its definitions, its cells (active, in the
     * import's order) and their attempts, in one store. IllegalArgumentException when {@code dir} already
     * holds an experiment (an import never mixes with another run).
     */
    public static void write(Path dir, ResultFormat.Imported imported) {
        refuseExisting(dir);
        Map<String, EnvironmentDef> envs = new LinkedHashMap<>();
        Map<String, AgentDef> agents = new LinkedHashMap<>();
        List<Cell> cells = new ArrayList<>();
        List<ExperimentStore.Prepared> attempts = new ArrayList<>();
        for (ResultCell c : imported.cells()) {
            envs.putIfAbsent(c.environment().id(), c.environment());
            agents.putIfAbsent(c.agent().id(), c.agent());
            cells.add(new Cell(
                    new CellKey(c.environment().id(), c.agent().id(), c.repetition()),
                    c.candidate(),
                    c.benchmark(),
                    c.taskId(),
                    true));
            attempts.add(ExperimentStore.prepare(c.attempt()));
        }
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            store.register(imported.name(), imported.specJson(), envs.values(), agents.values(), cells);
            store.recordAll(attempts);
        }
    }

    /** IllegalArgumentException when {@code dir} already holds an experiment. */
    public static void refuseExisting(Path dir) {
        if (Files.exists(ExperimentStore.file(dir)))
            throw new IllegalArgumentException(dir + " already holds an experiment; import into a new directory");
    }
}
