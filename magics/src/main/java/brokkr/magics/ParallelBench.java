package brokkr.magics;

import brokkr.agent.Transcript;
import brokkr.domains.synthetic.parallel.Batcher;
import brokkr.domains.synthetic.parallel.ConcurrencyGauge;
import brokkr.domains.synthetic.parallel.LookupTable;
import brokkr.domains.synthetic.parallel.ParallelDiscrimination;
import brokkr.domains.synthetic.parallel.ParallelResult;
import brokkr.world.WorldHash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Parallel discrimination as a {@link Bench}: a task is a number of independent lookups (split "standard": 4–32). */
final class ParallelBench implements Bench {
    static final List<Integer> STANDARD = List.of(4, 8, 16, 32);

    @Override public String name() { return "parallel"; }

    @Override public DomainSummary summary() {
        return new DomainSummary(name(), "synthetic parallel discrimination (N independent lookups)", STANDARD.size(),
                Map.of("standard", STANDARD.size()), List.of(ParallelDiscrimination.TOOL),
                ParallelDiscrimination.systemPrompt(LookupTable.of(4)).length(), List.of());
    }

    @Override public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (int n : STANDARD) out.add(row(n));
        return out;
    }

    private static TaskRow row(int n) {
        return new TaskRow(String.valueOf(n), List.of("standard"), "look up " + n + " independent ids and report every value",
                "every value reported", n);
    }

    static int size(String id) {
        try {
            int n = Integer.parseInt(id.strip());
            if (n >= 1) return n;
        } catch (NumberFormatException ignored) {
            // falls through to the usage error
        }
        throw new MagicUsageException("parallel task ids are lookup counts (positive integers), got '" + id + "'");
    }

    @Override public TaskView task(String id) {
        int n = size(id);
        LookupTable table = LookupTable.of(n);
        List<String> gold = table.ids().stream().map(i -> ParallelDiscrimination.TOOL + "(id=\"" + i + "\")").toList();
        return new TaskView(name(), String.valueOf(n), ParallelDiscrimination.systemPrompt(table), row(n).rewardBasis(), gold,
                WorldHash.sha256(table.values(), true));
    }

    @Override public ToolWorld fork(String taskId) {
        LookupTable table = LookupTable.of(taskId == null ? STANDARD.getFirst() : size(taskId));
        return new ReadOnlyWorld(table.values(), List.of(ParallelDiscrimination.TOOL), ParallelDiscrimination.handler(table));
    }

    @Override public List<String> candidates() { return Batcher.NAMES; }

    @Override public RunView run(String candidate, String taskId) {
        int n = size(taskId);
        if (!Batcher.NAMES.contains(candidate)) {
            throw new MagicUsageException("unknown parallel candidate '" + candidate + "' (one of " + String.join(", ", Batcher.NAMES) + ")");
        }
        LookupTable table = LookupTable.of(n);
        ConcurrencyGauge gauge = new ConcurrencyGauge();
        Transcript t = ParallelDiscrimination.play(table, Batcher.named(candidate), gauge);
        ParallelResult r = ParallelDiscrimination.score(table, t, gauge.maxConcurrency());
        List<RunView.Check> checks = List.of(
                new RunView.Check("every value reported", r.correct(), r.correct() ? "all " + n + " values" : "values missing"),
                new RunView.Check("one lookup per id", r.calls() == n, r.calls() + "/" + n + " calls in " + r.turns() + " turns"));
        return RunView.of(name(), candidate, String.valueOf(n), t, checks, r.correct() ? 1.0 : 0.0, r.line());
    }
}
