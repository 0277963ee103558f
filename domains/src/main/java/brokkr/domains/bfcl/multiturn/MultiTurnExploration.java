package brokkr.domains.bfcl.multiturn;

import brokkr.agent.ToolResult;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * BFCL multi-turn to explore: the splits are the four categories; a task is its user turns, involved classes and
 * ground truth; {@code %fork} gives the task's backend world (or, {@code %fork TASK@K}, the checkpoint at a turn boundary) ({@link World}, forking is keeping the value) and
 * {@code %call} runs one backend method on it as a model's function call would ({@code name(k=repr(v),...)}
 * through upstream's executor), the world after it beside the result, so the notebook shows the state diff
 * (a file-system tree reads as nested {@code $dir}/{@code $file} entries).
 */
final class MultiTurnExploration implements Exploration {
    private final Supplier<MultiTurnData> data;
    private final Supplier<MultiTurnTools> tools;

    MultiTurnExploration(Supplier<MultiTurnData> data, Supplier<MultiTurnTools> tools) {
        this.data = data;
        this.tools = tools;
    }

    @Override
    public Summary summary() {
        MultiTurnData d = data.get();
        Map<String, Integer> perCategory = new LinkedHashMap<>();
        for (String c : MultiTurnData.CATEGORIES)
            perCategory.put(c, (int)
                    d.all().stream().filter(t -> t.category().equals(c)).count());
        List<DataFile> files = new ArrayList<>();
        for (Map.Entry<String, String> e : MultiTurnData.DIGESTS.entrySet())
            files.add(new DataFile(e.getKey(), e.getValue(), true));
        for (String[] f : MultiTurnTools.FILES.values())
            files.add(new DataFile("multi_turn_func_doc/" + f[0], f[1], true));
        return new Summary(
                "Berkeley function-calling leaderboard v4, multi-turn categories (8 stateful backends)",
                d.all().size(),
                perCategory,
                Backends.NAMES,
                0,
                files);
    }

    private MultiTurnData.Task task0(String id) {
        MultiTurnData.Task t = data.get().task(id);
        if (t == null) throw new IllegalArgumentException("no bfcl-multi-turn task '" + id + "'");
        return t;
    }

    private static String firstUserMessage(MultiTurnData.Task t) {
        for (Value turn : t.question()) {
            for (Value m : turn.asList()) {
                PyDict d = m.asDict();
                if (d.get("role").asStr().equals("user"))
                    return d.get("content").asStr();
            }
        }
        return "";
    }

    private static final String BASIS =
            "upstream's multi-turn checker: per turn the instances' state and the ground truth's results";

    @Override
    public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (MultiTurnData.Task t : data.get().all()) {
            int calls = t.groundTruth().stream().mapToInt(List::size).sum();
            out.add(new TaskRow(
                    t.id(),
                    List.of(t.category()),
                    String.join("+", t.involvedClasses()) + ": " + firstUserMessage(t),
                    BASIS,
                    calls));
        }
        return out;
    }

    @Override
    public TaskDetail task(String id) {
        MultiTurnData.Task t = task0(id);
        StringBuilder scenario = new StringBuilder("classes: " + String.join(", ", t.involvedClasses()));
        for (int i = 0; i < t.question().size(); i++) {
            if (t.missedFunction().containsKey(i)) {
                scenario.append("\nturn ")
                        .append(i)
                        .append(": (held-out functions added: ")
                        .append(String.join(", ", t.missedFunction().get(i)))
                        .append(')');
            }
            for (Value m : t.question().get(i).asList()) {
                PyDict d = m.asDict();
                scenario.append("\nturn ")
                        .append(i)
                        .append(' ')
                        .append(d.get("role").asStr())
                        .append(": ")
                        .append(d.get("content").asStr());
            }
        }
        List<String> gold = new ArrayList<>();
        for (int i = 0; i < t.groundTruth().size(); i++) {
            if (t.groundTruth().get(i).isEmpty()) gold.add("turn " + i + ": (no call)");
            for (String c : t.groundTruth().get(i)) gold.add("turn " + i + ": " + c);
        }
        return new TaskDetail(id, scenario.toString(), BASIS, gold, WorldHash.sha256(world(t).state(), true));
    }

    private Fork world(MultiTurnData.Task t) {
        World w = Executor.execute(World.EMPTY, t.setup(), MultiTurnBenchmark.MODEL_NAME, false, List.of())
                .world();
        return new Fork(t, w, tools);
    }

    /**
     * {@code TASK} forks the task's initial world; {@code TASK@K} the checkpoint at the boundary after turn
     * K: the world once the ground truth's calls of turns 0..K-1 have run (the state upstream's checker
     * compares at that turn), so a notebook can try calls at any turn of a task.
     */
    @Override
    public ToolWorld fork(String taskId) {
        int at = taskId == null ? -1 : taskId.lastIndexOf('@');
        if (at < 0) return world(task0(taskId));
        MultiTurnData.Task t = task0(taskId.substring(0, at));
        int turns = t.groundTruth().size();
        int k;
        try {
            k = Integer.parseInt(taskId.substring(at + 1));
        } catch (NumberFormatException e) {
            k = -1;
        }
        if (k < 0 || k > turns) {
            throw new IllegalArgumentException("a turn boundary of " + t.id() + " is 0.." + turns
                    + " (TASK@K: after the ground truth's first K turns), not '" + taskId.substring(at + 1) + "'");
        }
        World w = world(t).world();
        for (int i = 0; i < k; i++)
            w = Executor.execute(
                            w,
                            t.setup(),
                            MultiTurnBenchmark.MODEL_NAME,
                            false,
                            t.groundTruth().get(i))
                    .world();
        return new Fork(t, w, tools);
    }

    @Override
    public List<String> candidates() {
        return List.of("gold");
    }

    /** A task's world as the notebook holds it; {@link #call} leaves it unchanged and returns the next one. */
    private record Fork(MultiTurnData.Task task, World world, Supplier<MultiTurnTools> docs) implements ToolWorld {
        @Override
        public Value state() {
            PyDict.Builder b = PyDict.builder();
            for (String cls : task.involvedClasses()) {
                Backend inst = world.instance(Executor.variable(MultiTurnBenchmark.MODEL_NAME, false, task.id(), cls));
                b.put(cls, StateDump.renderState(inst.state(world.globals())));
            }
            return b.build();
        }

        @Override
        public List<String> tools() {
            List<String> out = new ArrayList<>();
            for (String cls : task.involvedClasses())
                out.addAll(new TreeSet<>(Backends.get(cls).methods().keySet()));
            return out;
        }

        /**
         * Each tool with the schema a function-calling model is offered it ({@code multi_turn_func_doc} compiled as
         * for an OpenAI-compatible model: {@code properties}, {@code required}), in {@link #tools()}'s order.
         */
        @Override
        public List<ToolSpec> toolSpecs() {
            Map<String, ToolSpec> byName = new LinkedHashMap<>();
            for (ToolSpec t : docs.get().every(task, ToolCompiler.Style.OPENAI_COMPLETIONS)) byName.put(t.name(), t);
            List<ToolSpec> out = new ArrayList<>();
            for (String name : tools())
                out.add(byName.getOrDefault(name, new ToolSpec(name, "", PyDict.of("type", "object"))));
            return out;
        }

        @Override
        public Step call(String tool, PyDict args) {
            String call = MultiTurnInference.decode(
                            new Message.Assistant(null, List.of(new ToolCall("call_0", tool, args))))
                    .getFirst();
            Executor.Execution e =
                    Executor.execute(world, task.setup(), MultiTurnBenchmark.MODEL_NAME, false, List.of(call));
            String result = e.results().getFirst();
            return new Step(
                    new ToolResult(result, result.startsWith("Error during execution: ")),
                    new Fork(task, e.world(), docs));
        }
    }
}
