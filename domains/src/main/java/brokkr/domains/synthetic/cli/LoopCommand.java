package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.LoopResult;
import brokkr.eval.Attempt;
import brokkr.experiment.Registry;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./brokkr loop [depth]}: pointer chasing, one line {@code PASS depth=50 toolCalls=50/50} or FAIL;
 * a preset over the evaluation path (task {@code depth} of benchmark {@code loop}, see {@link SyntheticPreset}).
 */
public record LoopCommand(Registry registry, ModelSource models) implements Command {
    @Override
    public String name() {
        return "loop";
    }

    @Override
    public String summary() {
        return "pointer chasing: a serial tool loop of DEPTH hops (default 50)";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr loop [DEPTH] [--model M [--provider openai|anthropic]] [--candidate NAME]

               Pointer chasing (zsmith agentLoopBenchmark): the agent must call follow_pointer once per hop
               of a hidden chain of DEPTH keys (default 50; the same chain for the same depth on every run)
               and answer with the fragments concatenated. Prints one line:
                 PASS depth=D toolCalls=D/D
                 FAIL depth=D toolCalls=N/D expected=SECRET actual=ANSWER
               PASS iff the answer, whitespace removed, is the secret and exactly D calls were made.

                 --model M        run model M (keys and base URLs from the environment:
                                  OPENAI_API_KEY/OPENAI_BASE_URL, ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL)
                 --provider P     openai (default; any OpenAI-compatible server) or anthropic
                 --candidate NAME a scripted agent instead of a model: ideal (default), early-stop
                                  (stops after half the hops), retry (asks for the middle hop twice)

               Exit status: 0 when the run was scored (PASS or FAIL), 1 when the model could not be
               reached (infrastructure failure, not scored), 2 for a usage error or a provider that is
               unknown or not configured (no key).""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        BenchmarkArgs a = BenchmarkArgs.parse(args, "depth", 50, "ideal", LoopFollower.NAMES);
        Attempt attempt = SyntheticPreset.run(registry, "loop", a, models);
        if (SyntheticPreset.failed(attempt, name(), err)) return 1;
        out.println(LoopResult.of(attempt).line());
        if (a.model() != null) SyntheticPreset.summary(attempt, err);
        return 0;
    }
}
