package brokkr.domains.tau2.runner;

import static brokkr.domains.tau2.runner.Tau2Benchmark.ALL_MET;
import static brokkr.domains.tau2.runner.Tau2Benchmark.GOLD;
import static brokkr.domains.tau2.runner.Tau2Benchmark.GOLD_BATCH;
import static brokkr.domains.tau2.runner.Tau2Benchmark.KNOWN_VERDICT;
import static brokkr.domains.tau2.runner.Tau2Benchmark.SCRIPTED_USER;
import static brokkr.domains.tau2.runner.Tau2Benchmark.STOP;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.agent.NoisyGoldAgent;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.ModelRef;
import brokkr.python.PyJson;
import brokkr.repl.JavaRepl;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The scripted models of a tau2 benchmark ({@code provider: scripted}, named on {@link Tau2Benchmark}): the
 * candidates {@code gold}, {@code gold-batch}, {@code gold-N} and {@code stop}, the customer {@code user}, and the
 * judges {@code known-verdict} (applied by the evaluator, never called) and {@code all-met}.
 */
final class Tau2ScriptedModels {
    private Tau2ScriptedModels() {}

    static Candidate of(String benchmark, Tau2Domain domain, String role, ModelRef model, String taskId) {
        TaskSpec task = domain.task(taskId);
        String m = model.model();
        return switch (role) {
            case "agent" ->
                switch (m) {
                    // Offered only java_eval (harness loop, action space repl), the gold replay writes its calls as
                    // Java.
                    case GOLD -> {
                        GoldReplayAgent reference = new GoldReplayAgent(task);
                        GoldLoopAgent java =
                                new GoldLoopAgent(task, domain.environment().agentTools());
                        yield (history, tools) ->
                                tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL)
                                        ? java.next(history, tools)
                                        : reference.next(history, tools);
                    }
                    case GOLD_BATCH ->
                        new GoldLoopAgent(task, domain.environment().agentTools());
                    case STOP -> new StopAtOnceAgent();
                    default -> {
                        // gold-N: gold in N% of its turns, seeded by the model's 'seed' option (probes give each sample
                        // its own)
                        if (m.matches("gold-(100|[1-9]?[0-9])")) {
                            yield new NoisyGoldAgent(
                                    task,
                                    Integer.parseInt(m.substring(5)) / 100.0,
                                    model.options().get("seed") instanceof PyInt seed ? seed.longValue() : 0);
                        }
                        throw new IllegalArgumentException("unknown " + benchmark + " candidate '" + m
                                + "' (scripted candidates: gold, gold-batch, stop,"
                                + " gold-N for gold in N% of turns)");
                    }
                };
            case "user" -> {
                if (!m.equals(SCRIPTED_USER))
                    throw new IllegalArgumentException(
                            "unknown " + benchmark + " scripted user '" + m + "' (scripted users: user)");
                yield new ScriptedUser(task);
            }
            case "judge" ->
                switch (m) {
                    // The known-verdict judge is not a model: the evaluator applies it (Tau2Evaluator.judge).
                    case KNOWN_VERDICT ->
                        (history, tools) -> {
                            throw new IllegalStateException(
                                    "the known-verdict judge is applied by the evaluator, not called");
                        };
                    case ALL_MET -> allMet(task);
                    default ->
                        throw new IllegalArgumentException("unknown " + benchmark + " scripted judge '" + m
                                + "' (scripted judges: known-verdict, all-met)");
                };
            default -> throw new IllegalArgumentException(benchmark + " has no scripted " + role);
        };
    }

    /** The {@value Tau2Benchmark#ALL_MET} judge for a task: every assertion asked about is met, in upstream's answer format. */
    private static Candidate allMet(TaskSpec task) {
        List<String> assertions = task.criteria() == null || task.criteria().nlAssertions() == null
                ? List.of()
                : task.criteria().nlAssertions();
        List<Value> results = new ArrayList<>();
        for (String a : assertions) {
            results.add(PyDict.of(
                    "expectedOutcome",
                    a,
                    "reasoning",
                    "scripted judge (" + ALL_MET + "): no model was asked",
                    "metExpectation",
                    PyBool.TRUE));
        }
        String answer = PyJson.dumps(PyDict.of("results", PyList.of(results)));
        return (history, tools) -> Turn.of(new Message.Assistant(answer));
    }
}
