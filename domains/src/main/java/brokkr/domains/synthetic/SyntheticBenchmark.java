package brokkr.domains.synthetic;

import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.eval.RunContext;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.ContentId;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the two synthetic benchmarks share on the evaluation path: a task is a size (the loop's depth,
 * the parallel table's number of ids) that seeds its world; the world is read-only; the candidate's
 * own system prompt, when it has one, goes before the task's instructions; an agent loop that stopped
 * on an infrastructure failure is rethrown as one, so it is recorded and excluded, never graded.
 */
public abstract class SyntheticBenchmark implements BenchmarkProvider {
    /** The generator's version: part of every EnvironmentDef, bumped when a world would change. */
    protected static final String REVISION = "brokkr-synthetic-1";

    private final Map<String, List<Integer>> splits;

    protected SyntheticBenchmark(Map<String, List<Integer>> splits) {
        this.splits = splits;
    }

    /** Splits in the order given ({@code name, sizes, name, sizes, ...}), unmodifiable. */
    @SuppressWarnings("unchecked")
    protected static Map<String, List<Integer>> splits(Object... namesAndSizes) {
        Map<String, List<Integer>> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < namesAndSizes.length; i += 2)
            out.put((String) namesAndSizes[i], List.copyOf((List<Integer>) namesAndSizes[i + 1]));
        return java.util.Collections.unmodifiableMap(out);
    }

    /** The splits by name, in their order: the one list every face shows. */
    public Map<String, List<Integer>> splits() {
        return splits;
    }

    /** The task's world (seeded by its size). */
    protected abstract Value world(int size);

    /** The benchmark's scripted candidate {@code name} for a task of {@code size}. */
    protected abstract Candidate scriptedAgent(String name, int size);

    /** Scripted candidates (the CLI's {@code --candidate} names) play the agent; there are no scripted users or judges. */
    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException(name() + " has no scripted " + role);
        return scriptedAgent(model.model(), size(env.taskId()));
    }

    @Override
    public List<String> tasks(String split) {
        List<Integer> sizes = splits.get(split);
        if (sizes == null)
            throw new IllegalArgumentException(
                    "unknown split '" + split + "' (one of " + String.join(", ", splits.keySet()) + ")");
        return sizes.stream().map(String::valueOf).toList();
    }

    protected static int size(String taskId) {
        try {
            int n = Integer.parseInt(taskId);
            if (n >= 1 && n <= 10_000) return n;
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("unknown task " + taskId + " (a task is a size from 1 to 10000)");
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        // No user simulator and no judge: the grade is a pure function of the transcript. The world's
        // content id pins what the generator produced for this size.
        return new EnvironmentDef(
                name(),
                REVISION,
                Map.of("world", ContentId.of(world(size(taskId))).hex()),
                taskId,
                Map.of(),
                null);
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            Value w = world(size(env.taskId()));
            fork.set(w);
            return PyDict.of("initial_world_sha256", WorldHash.sha256(w, true));
        };
    }

    /** The opening with the candidate's own system prompt (if any) before the task's instructions. */
    protected static List<Message> opening(RunContext ctx, List<Message> taskOpening) {
        if (ctx.systemPrompt() == null) return taskOpening;
        List<Message> out = new ArrayList<>(taskOpening);
        out.set(
                0,
                new Message.System(
                        ctx.systemPrompt() + "\n\n" + taskOpening.getFirst().content()));
        return out;
    }

    protected static Transcript requireScored(Transcript t) throws InfrastructureFailure {
        if (t.stop() == Transcript.Stop.INFRASTRUCTURE_FAILURE) {
            InfrastructureFailure f = t.failure();
            throw new InfrastructureFailure(f == null ? "infrastructure failure" : f.getMessage(), t.modelCalls(), f);
        }
        return t;
    }

    /**
     * The synthetic tools only read, so replaying a record's tool calls from the initial world leaves
     * the initial world: verify-world then checks the recorded final hash against it.
     */
    @Override
    public Optional<WorldReplay> worldReplay() {
        return Optional.of((env, evidence) -> world(size(env.taskId())));
    }

    /** The evidence's initial-world hash matches the task's world. */
    protected boolean setupVerified(EnvironmentDef env, PyDict setup) {
        Value h = setup.get("initial_world_sha256");
        return h != null && h.asStr().equals(WorldHash.sha256(world(size(env.taskId())), true));
    }
}
