package brokkr.magics;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Interaction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test benchmark (registered through this module's test META-INF/services) whose scripted agent
 * {@code sleepy} takes 150 ms per cell, long enough for a test to interrupt a run half-way. It counts
 * the calls it answers, so a test can see whether cells run on after the run was stopped.
 */
public final class SlowBench implements BenchmarkProvider {
    static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public String name() {
        return "slow";
    }

    @Override
    public List<String> tasks(String split) {
        if (!split.equals("all")) throw new IllegalArgumentException("unknown split " + split);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) out.add("s" + i);
        return out;
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        return new EnvironmentDef("slow", "v1", Map.of(), taskId, Map.of(), null);
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> PyDict.empty();
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!model.model().equals("sleepy"))
            throw new IllegalArgumentException("no scripted " + role + " '" + model.model() + "'");
        return (history, tools) -> {
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InfrastructureFailure("interrupted", List.of(), e);
            }
            CALLS.incrementAndGet();
            return Turn.of(new Message.Assistant("done", List.of(), new Usage(1, 1)));
        };
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            Turn t = ctx.candidate().next(List.of(new Message.User("work slowly")), List.of());
            return new Interaction(
                    PyList.of(PyDict.of(
                            "role", "assistant", "content", t.message().content())),
                    PyDict.empty(),
                    "done");
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> new Verdict(List.of(new Check("done", true)), 1.0, TrustTier.DETERMINISTIC, null);
    }
}
