package brokkr.domains.synthetic.loop;

import brokkr.domains.synthetic.SyntheticExploration;
import brokkr.eval.Attempt;
import brokkr.eval.ToolWorld;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;

/** Pointer chasing to explore: a task is a chain depth; the world is the chain's hop table, which no call changes. */
final class LoopExploration extends SyntheticExploration {
    LoopExploration() {
        super(LoopBenchmark.SPLITS, "chain depths");
    }

    @Override
    protected String name() {
        return "loop";
    }

    @Override
    public Summary summary() {
        return summary(
                "synthetic pointer chasing (a serial tool loop of DEPTH hops)",
                PointerChasing.TOOL,
                PointerChasing.systemPrompt(PointerChain.of(10)).length());
    }

    @Override
    protected TaskRow row(int depth) {
        return new TaskRow(
                String.valueOf(depth),
                splitsOf(depth),
                "follow a chain of " + depth + " pointers and answer with the secret",
                "secret and exactly " + depth + " calls",
                depth);
    }

    @Override
    public TaskDetail task(String id) {
        int d = size(id);
        PointerChain chain = PointerChain.of(d);
        List<String> gold = new ArrayList<>();
        String key = chain.start();
        for (int i = 0; i < d; i++) {
            gold.add(PointerChasing.TOOL + "(key=\"" + key + "\")");
            key = chain.hop(key).get("next").asStr();
        }
        return new TaskDetail(
                String.valueOf(d),
                PointerChasing.systemPrompt(chain),
                row(d).rewardBasis(),
                gold,
                WorldHash.sha256(chain.hops(), true));
    }

    @Override
    public ToolWorld fork(String taskId) {
        PointerChain chain = PointerChain.of(forkSize(taskId));
        return ToolWorld.readOnly(chain.hops(), List.of(PointerChasing.TOOL), PointerChasing.handler(chain));
    }

    @Override
    public List<String> candidates() {
        return LoopFollower.NAMES;
    }

    /** zsmith's result line ({@link LoopResult}) and the two ways to lose: the secret, and one call per hop. */
    @Override
    public RunReport report(Attempt a) {
        PointerChain chain = PointerChain.of(size(a.taskId()));
        int calls = reported(a, "tool_calls");
        Value answer = a.evidence().output().get("answer");
        String actual = answer == null || answer.isNone() ? "" : answer.asStr().replaceAll("\\s", "");
        LoopResult r = new LoopResult(chain.depth(), calls, a.success(), chain.secret(), actual);
        return new RunReport(
                r.line(),
                List.of(
                        new CheckLine(
                                "answer is the secret",
                                passed(a, "secret_correct"),
                                "expected " + chain.secret().length() + " chars, got " + actual.length()),
                        new CheckLine(
                                "one call per hop",
                                passed(a, "exact_tool_calls"),
                                calls + "/" + chain.depth() + " calls")));
    }
}
