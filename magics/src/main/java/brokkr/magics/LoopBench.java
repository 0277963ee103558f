package brokkr.magics;

import brokkr.agent.Transcript;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.LoopResult;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.domains.synthetic.loop.PointerChasing;
import brokkr.world.WorldHash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pointer chasing as a {@link Bench}: a task is a chain depth (any positive integer is a valid id; the
 * listed split "standard" holds the depths the notebooks sweep). The world is the chain's hop table.
 */
final class LoopBench implements Bench {
    static final List<Integer> STANDARD = List.of(10, 20, 50, 100, 200);

    @Override public String name() { return "loop"; }

    @Override public DomainSummary summary() {
        return new DomainSummary(name(), "synthetic pointer chasing (a serial tool loop of DEPTH hops)", STANDARD.size(),
                Map.of("standard", STANDARD.size()), List.of(PointerChasing.TOOL),
                PointerChasing.systemPrompt(PointerChain.of(10)).length(), List.of());
    }

    @Override public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (int d : STANDARD) out.add(row(d));
        return out;
    }

    private static TaskRow row(int depth) {
        return new TaskRow(String.valueOf(depth), List.of("standard"),
                "follow a chain of " + depth + " pointers and answer with the secret", "secret and exactly " + depth + " calls", depth);
    }

    static int depth(String id) {
        try {
            int d = Integer.parseInt(id.strip());
            if (d >= 1) return d;
        } catch (NumberFormatException ignored) {
            // falls through to the usage error
        }
        throw new MagicUsageException("loop task ids are chain depths (positive integers), got '" + id + "'");
    }

    @Override public TaskView task(String id) {
        int d = depth(id);
        PointerChain chain = PointerChain.of(d);
        List<String> gold = new ArrayList<>();
        String key = chain.start();
        for (int i = 0; i < d; i++) {
            gold.add(PointerChasing.TOOL + "(key=\"" + key + "\")");
            key = chain.hop(key).get("next").asStr();
        }
        return new TaskView(name(), String.valueOf(d), PointerChasing.systemPrompt(chain), row(d).rewardBasis(), gold,
                WorldHash.sha256(chain.hops(), true));
    }

    @Override public ToolWorld fork(String taskId) {
        PointerChain chain = PointerChain.of(taskId == null ? STANDARD.getFirst() : depth(taskId));
        return new ReadOnlyWorld(chain.hops(), List.of(PointerChasing.TOOL), PointerChasing.handler(chain));
    }

    @Override public List<String> candidates() { return LoopFollower.NAMES; }

    @Override public RunView run(String candidate, String taskId) {
        int d = depth(taskId);
        if (!LoopFollower.NAMES.contains(candidate)) {
            throw new MagicUsageException("unknown loop candidate '" + candidate + "' (one of " + String.join(", ", LoopFollower.NAMES) + ")");
        }
        PointerChain chain = PointerChain.of(d);
        Transcript t = PointerChasing.play(chain, LoopFollower.named(candidate, d));
        LoopResult r = PointerChasing.score(chain, t);
        List<RunView.Check> checks = List.of(
                new RunView.Check("answer is the secret", r.expected().equals(r.actual()),
                        "expected " + r.expected().length() + " chars, got " + r.actual().length()),
                new RunView.Check("one call per hop", r.toolCalls() == d, r.toolCalls() + "/" + d + " calls"));
        return RunView.of(name(), candidate, String.valueOf(d), t, checks, r.passed() ? 1.0 : 0.0, r.line());
    }
}
