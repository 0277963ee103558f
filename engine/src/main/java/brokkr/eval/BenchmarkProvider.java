package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.value.PyDict;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A benchmark on the one evaluation path. It brings a {@link WorldSetup}, a {@link Protocol} and an
 * {@link Evaluator}; its private data (gold actions, possible answers) stays inside those, so that an
 * {@link EnvironmentDef} can name a task by id only. Providers are found by {@link #name()} (the
 * experiment file's domain), through {@code ServiceLoader<BenchmarkProvider>} or an explicit registry.
 */
public interface BenchmarkProvider {
    /** The domain name experiment files use ({@code retail}, {@code loop}, ...). */
    String name();

    /** The task ids of a split, in the benchmark's order; IllegalArgumentException for an unknown split. */
    List<String> tasks(String split);

    /**
     * The content-addressed definition of one task, given the experiment's models by role
     * ({@code user}, {@code judge}); the provider keeps the roles it uses and fails when one it needs is
     * missing. IllegalArgumentException for an unknown task id.
     */
    EnvironmentDef environment(String taskId, Map<String, ModelRef> models);

    /**
     * The definition of one task with benchmark settings ({@code options}, e.g. tau2's
     * {@code max_steps}) over the benchmark's defaults: an experiment's domain {@code options}, a CLI
     * preset's flags. The settings become part of the definition's content, so a changed setting is a
     * new environment. A benchmark without settings accepts only none; IllegalArgumentException for an
     * option it does not know or a malformed value.
     */
    default EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
        if (!options.isEmpty()) {
            throw new IllegalArgumentException(
                    "benchmark " + name() + " has no options (given: " + String.join(", ", options.keys()) + ")");
        }
        return environment(taskId, models);
    }

    /**
     * What the benchmark offers an agent (the shape of its interaction) and the harnesses and action
     * spaces its protocol hosts; the planner refuses any other candidate before a cell runs. By default
     * only the reference agent with JSON tools in a sequence of user turns.
     */
    default AgentInterface agentInterface() {
        return AgentInterface.referenceTools(AgentInterface.Shape.USER_TURNS);
    }

    WorldSetup worldSetup();

    Protocol protocol();

    Evaluator evaluator();

    /**
     * The model provider name of models a benchmark supplies itself, per task: a scripted candidate
     * that replays gold answers, a scripted user simulator. Such models need the task's private data,
     * so only the provider can make them; an experiment names them as {@code provider: scripted}.
     */
    String SCRIPTED = "scripted";

    /**
     * This benchmark's scripted model {@code model.model()} for one task, playing {@code role}
     * ({@code agent}, {@code user}, {@code judge}). IllegalArgumentException for a name it does not know.
     */
    default Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        throw new IllegalArgumentException("benchmark " + name() + " has no scripted models");
    }

    /** How to replay a recorded run's tool calls from the initial world, when the benchmark can. */
    default Optional<WorldReplay> worldReplay() {
        return Optional.empty();
    }

    /**
     * The benchmark's own reports over one candidate's outcomes (one per cell of an experiment or a
     * preset: its completed attempt, else its last infrastructure failure), beyond the scorecard every
     * benchmark gets: what its upstream leaderboard reports. None by default. The attempts may come
     * without their evidence (a report reads verdicts, not transcripts).
     */
    default List<Report> reports(List<Report.Outcome> outcomes) {
        return List.of();
    }

    /**
     * What the benchmark shows a person exploring it (task table, task detail, forks, scripted
     * candidates), when it offers that; the notebook magics list and load only benchmarks that do.
     */
    default Optional<Exploration> exploration() {
        return Optional.empty();
    }

    /**
     * How to ask a judge again about stored attempts' transcripts, when the benchmark's grade has
     * model-judged checks ({@code ./brokkr experiment regrade}); none by default.
     */
    default Optional<Rejudging> rejudging() {
        return Optional.empty();
    }

    /**
     * Checkpoints and branches of live episodes and decision points of recorded ones ({@link Branches},
     * probes), when the benchmark's episode can be held at a cut ({@link Branching#cutUnit()}: tau2's customer
     * message, the wiki's tool call); none by default.
     */
    default Optional<Branching> branching() {
        return Optional.empty();
    }
}
