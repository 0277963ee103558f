package brokkr.run;

import brokkr.conversation.Candidate;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branches;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What a run evaluates: its cells in order, each with the candidate label a scorecard shows, and where
 * its non-scripted models come from ({@code models}: a model reference to a candidate; the registry's
 * factories in production, a test's models in tests). A planner makes it (an experiment file, a
 * command's preset, a magic's arguments, a probe or a branch request) and has checked it: every
 * provider known, every scripted model known to its benchmark, every harness supported.
 */
public record Plan(List<Unit> units, Function<ModelRef, Candidate> models) {
    public Plan {
        units = List.copyOf(units);
        Objects.requireNonNull(models, "models");
    }

    /**
     * One cell of the plan: the evaluation cell, the candidate's label, and, for a branch of a checkpoint,
     * the branch (its cell is {@link Branches#cell}: it starts from the checkpoint's world and messages).
     */
    public record Unit(Evaluation.Cell cell, String candidate, Branches.Branch branch) {
        public Unit {
            Objects.requireNonNull(cell, "cell");
            Objects.requireNonNull(candidate, "candidate");
        }

        public Unit(Evaluation.Cell cell, String candidate) {
            this(cell, candidate, null);
        }

        /** A branch's unit: its cell as {@link Branches#cell} defines it. */
        public static Unit of(Branches.Branch b, String candidate) {
            return new Unit(Branches.cell(b), candidate, b);
        }

        public String name() {
            return cell.env().taskId() + "-" + candidate + "-" + cell.repetition();
        }
    }

    /** The model references the plan's cells name by role ({@code agent}, {@code user}, {@code judge}), scripted ones included. */
    public Map<String, Set<ModelRef>> modelsByRole() {
        Map<String, Set<ModelRef>> out = new LinkedHashMap<>();
        for (Unit u : units) {
            out.computeIfAbsent(Evidence.AGENT, r -> new LinkedHashSet<>())
                    .add(u.cell().agent().modelRef());
            u.cell()
                    .env()
                    .models()
                    .forEach((role, ref) -> out.computeIfAbsent(role, r -> new LinkedHashSet<>())
                            .add(ref));
        }
        return out;
    }

    /** True when some cell calls a model that is not its benchmark's own script. */
    public boolean usesModels() {
        return modelsByRole().values().stream()
                .flatMap(Set::stream)
                .anyMatch(r -> !r.provider().equals(BenchmarkProvider.SCRIPTED));
    }
}
