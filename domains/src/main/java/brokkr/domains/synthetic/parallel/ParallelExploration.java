package brokkr.domains.synthetic.parallel;

import brokkr.domains.synthetic.SyntheticExploration;
import brokkr.eval.Attempt;
import brokkr.eval.ToolWorld;
import brokkr.world.WorldHash;
import java.util.List;

/** Parallel discrimination to explore: a task is a number of independent lookups; the world is the table, which no call changes. */
final class ParallelExploration extends SyntheticExploration {
    ParallelExploration() {
        super(ParallelBenchmark.SPLITS, "lookup counts");
    }

    @Override
    protected String name() {
        return "parallel";
    }

    @Override
    public Summary summary() {
        return summary(
                "synthetic parallel discrimination (N independent lookups)",
                ParallelDiscrimination.TOOL,
                ParallelDiscrimination.systemPrompt(LookupTable.of(4)).length());
    }

    @Override
    protected TaskRow row(int n) {
        return new TaskRow(
                String.valueOf(n),
                splitsOf(n),
                "look up " + n + " independent ids and report every value",
                "every value reported",
                n);
    }

    @Override
    public TaskDetail task(String id) {
        int n = size(id);
        LookupTable table = LookupTable.of(n);
        List<String> gold = table.ids().stream()
                .map(i -> ParallelDiscrimination.TOOL + "(id=\"" + i + "\")")
                .toList();
        return new TaskDetail(
                String.valueOf(n),
                ParallelDiscrimination.systemPrompt(table),
                row(n).rewardBasis(),
                gold,
                WorldHash.sha256(table.values(), true));
    }

    @Override
    public ToolWorld fork(String taskId) {
        LookupTable table = LookupTable.of(forkSize(taskId));
        return ToolWorld.readOnly(
                table.values(), List.of(ParallelDiscrimination.TOOL), ParallelDiscrimination.handler(table));
    }

    @Override
    public List<String> candidates() {
        return Batcher.NAMES;
    }

    /** zsmith's result line ({@link ParallelResult}): correctness, and one lookup per id over how many turns. */
    @Override
    public RunReport report(Attempt a) {
        int n = size(a.taskId());
        int calls = reported(a, "calls"), turns = reported(a, "turns");
        boolean correct = passed(a, "all_ids_looked_up") && passed(a, "all_values_answered");
        ParallelResult r = new ParallelResult(n, calls, turns, reported(a, "max_concurrency"), correct);
        return new RunReport(
                r.line(),
                List.of(
                        new CheckLine(
                                "every value reported", correct, correct ? "all " + n + " values" : "values missing"),
                        new CheckLine(
                                "one lookup per id", calls == n, calls + "/" + n + " calls in " + turns + " turns")));
    }
}
