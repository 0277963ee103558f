package brokkr.experiment;

import brokkr.eval.ModelRef;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The experiment the crash-safety test runs in a child JVM and kills; also run uninterrupted in-process. */
public final class CrashChild {
    static final int TASKS = 30, REPETITIONS = 3;

    static ExperimentSpec spec(int latencyMs) {
        var opts = PyDict.of("latency_ms", latencyMs);
        return new ExperimentSpec(
                "crash",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(
                        new ExperimentSpec.CandidateSpec("gold", new ModelRef("fake", "gold", opts), "tools", null),
                        new ExperimentSpec.CandidateSpec("flaky", new ModelRef("fake", "flaky", opts), "tools", null)),
                REPETITIONS,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
    }

    static Registry registry() {
        return Registry.of(List.of(new QuizBench(TASKS)), List.of(new QuizBench.Models()));
    }

    /** {@code CrashChild DIR LATENCY_MS}: runs (or resumes) the experiment into DIR. */
    public static void main(String[] args) {
        var r = Experiments.run(spec(Integer.parseInt(args[1])), Path.of(args[0]), registry());
        System.out.println(r.summary());
    }
}
