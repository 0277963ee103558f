package brokkr.cli;

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
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.util.List;
import java.util.Map;

/**
 * A test benchmark registered through META-INF/services, as real domains are: task tN asks "say yes";
 * reward 1 when the candidate says "yes". Model provider {@code say} answers its model name ({@code down}: fails; {@code slow}: answers after 100 ms).
 */
public final class YesBench implements BenchmarkProvider {
    @Override
    public String name() {
        return "agree";
    }

    @Override
    public List<String> tasks(String split) {
        if (!split.equals("test")) throw new IllegalArgumentException("unknown split " + split);
        return List.of("t0", "t1", "t2");
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        return new EnvironmentDef("agree", "v1", Map.of(), taskId, Map.of(), null);
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> PyDict.empty();
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            Turn t = ctx.candidate().next(List.of(new Message.System("sys"), new Message.User("say yes")), List.of());
            return new Interaction(
                    PyList.of(
                            PyDict.of("role", "user", "content", "say yes"),
                            PyDict.of(
                                    "role", "assistant", "content", t.message().content())),
                    PyDict.of("said", t.message().content()),
                    "done");
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            boolean yes = run.interaction().output().get("said").asStr().equals("yes");
            return new Verdict(List.of(new Check("said_yes", yes)), yes ? 1 : 0, TrustTier.DETERMINISTIC, null);
        };
    }

    public static final class Say implements ModelFactory {
        @Override
        public String provider() {
            return "say";
        }
        /** Model {@code down} fails every call as a provider out of retries would; {@code slow} takes 100 ms. */
        @Override
        public Candidate create(ModelRef model) {
            return (history, tools) -> {
                if (model.model().equals("down"))
                    throw new InfrastructureFailure("say down: HTTP 503 after 5 attempts", List.of(), null);
                if (model.model().equals("slow")) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InfrastructureFailure("interrupted", List.of(), e);
                    }
                }
                return Turn.of(new Message.Assistant(model.model(), List.of(), new Usage(2, 1)));
            };
        }
    }
}
