package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.ExperimentStore.CellState;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Branches of a checkpoint run into an experiment directory's store as ordinary attempts, through the
 * store's one write path ({@link ExperimentStore#record}): each branch is its own cell
 * ({@link Branches#cell}: the task's definition marked with its checkpoint, repetition = branch
 * index), so {@code experiment show}, {@code attempts}, {@code transcript}, {@code verify-world} and the
 * report list it, and it never collides with the whole episode's cell.
 *
 * <p>Scorecards: a branch cell's candidate label is the candidate's with the checkpoint
 * ({@link #label}: {@code gold [branch 3f2a9c1b@2]}, plus the user or judge a variant changes), so branch
 * attempts form their own scorecard row (pass^k over the branches of one checkpoint: how reliably the
 * candidate finishes from there) and never enter the plain candidate's row, its tasks or its pass^k.
 * Running the same branch again is a resume: a cell with a completed attempt is not run twice, its
 * stored attempt is returned.
 */
public final class StoredBranches {
    private StoredBranches() {}

    /**
     * Runs {@code branches} ({@code parallelism} at a time, through the one runner) into the store of
     * {@code dir} (created when absent; its run lock held meanwhile), committing each attempt as it
     * finishes; returns the attempts, with their store ids, in the branches' order.
     */
    public static List<Attempt> run(
            Path dir, List<Branches.Branch> branches, Function<ModelRef, Candidate> models, int parallelism)
            throws InterruptedException {
        Policy policy = Policy.of(parallelism);
        Plan plan = plan(branches, models);
        List<Plan.Unit> units = plan.units();
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            Map<String, EnvironmentDef> envs = new LinkedHashMap<>();
            Map<String, AgentDef> agents = new LinkedHashMap<>();
            List<Cell> cells = new ArrayList<>();
            for (int i = 0; i < units.size(); i++) {
                Evaluation.Cell c = units.get(i).cell();
                envs.putIfAbsent(c.env().id(), c.env());
                agents.putIfAbsent(c.agent().id(), c.agent());
                Cell cell = StoreSink.row(units.get(i));
                if (cells.stream().anyMatch(x -> x.key().equals(cell.key()))) {
                    Branches.Branch b = branches.get(i);
                    throw new IllegalArgumentException("branch " + b.index() + " of checkpoint "
                            + b.checkpoint().id() + " (" + b.variant().label() + ") is named twice");
                }
                cells.add(cell);
            }
            store.addCells(envs.values(), agents.values(), cells);
            Map<CellKey, CellState> states = store.query().cellStates();
            Map<CellKey, Attempt> stored = new LinkedHashMap<>();
            if (cells.stream().anyMatch(c -> states.get(c.key()).completed() > 0)) {
                for (Attempt a : store.query().attempts(false, true)) {
                    if (a.completed()) stored.put(new CellKey(a.environmentId(), a.agentId(), a.repetition()), a);
                }
            }
            List<Plan.Unit> pending = units.stream()
                    .filter(u -> states.get(StoreSink.key(u)).completed() == 0)
                    .toList();
            Map<CellKey, Attempt> ran = new LinkedHashMap<>();
            try (StoreSink sink = new StoreSink(store, ProgressListener.NONE)) {
                try {
                    Runner.run(new Plan(pending, plan.models()), policy, sink);
                } finally {
                    sink.close();
                }
                for (Attempt a : sink.recorded())
                    ran.put(new CellKey(a.environmentId(), a.agentId(), a.repetition()), a);
            }
            if (Thread.interrupted()) throw new InterruptedException("interrupted while running branches");
            List<Attempt> out = new ArrayList<>();
            for (Cell c : cells) out.add(stored.containsKey(c.key()) ? stored.get(c.key()) : ran.get(c.key()));
            return out;
        }
    }

    /** Branches as a plan's cells, each under its {@link #label}: what the runner runs, stored or not. */
    public static Plan plan(List<Branches.Branch> branches, Function<ModelRef, Candidate> models) {
        List<Plan.Unit> units = new ArrayList<>();
        for (Branches.Branch b : branches) units.add(Plan.Unit.of(b, label(b)));
        return Planner.of(units, models);
    }

    /** Runs branches ({@code parallelism} at a time) without storing them; attempts in the branches' order. */
    public static List<Attempt> runUnstored(
            List<Branches.Branch> branches, Function<ModelRef, Candidate> models, int parallelism) {
        return Runner.attempts(plan(branches, models), Policy.of(parallelism));
    }

    /**
     * A branch cell's candidate label: the candidate's (its scripted name, or PROVIDER/MODEL), then the
     * checkpoint's id (12 hex digits) and cut, and the harness, user or judge the variant changes.
     */
    public static String label(Branches.Branch b) {
        Checkpoint cp = b.checkpoint();
        ModelRef agent = Branches.cell(b).agent().modelRef();
        StringBuilder sb = new StringBuilder(
                agent.provider().equals(BenchmarkProvider.SCRIPTED) ? agent.model() : agent.toString());
        sb.append(" [branch ").append(cp.id(), 0, 12).append('@').append(cp.at());
        if (b.variant().harness() != null)
            sb.append(" harness=").append(b.variant().harness().label());
        if (b.variant().user() != null) sb.append(" user=").append(b.variant().user());
        if (b.variant().judge() != null) sb.append(" judge=").append(b.variant().judge());
        return sb.append(']').toString();
    }
}
