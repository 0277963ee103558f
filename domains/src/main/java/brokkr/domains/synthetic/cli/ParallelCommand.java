package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.domains.synthetic.parallel.Batcher;
import brokkr.domains.synthetic.parallel.ParallelResult;
import brokkr.eval.Attempt;
import brokkr.experiment.Registry;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./brokkr parallel [tasks]}: parallel discrimination, one line {@code pd tasks=8 calls=8 turns=1 ...};
 * a preset over the evaluation path (task {@code tasks} of benchmark {@code parallel}, see {@link SyntheticPreset}).
 */
public record ParallelCommand(Registry registry, ModelSource models) implements Command {
    @Override
    public String name() {
        return "parallel";
    }

    @Override
    public String summary() {
        return "parallel discrimination: TASKS independent lookups (default 8)";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr parallel [TASKS] [--model M [--provider openai|anthropic]] [--candidate NAME]

               Parallel discrimination (zsmith agentParallelismBenchmark): TASKS independent ids (default 8;
               the same ids for the same size on every run) are listed up front; the agent looks each up
               with the lookup tool and reports the values. The calls of one assistant turn run
               concurrently and the tool gauges its own concurrency. Prints one line:
                 pd tasks=T calls=C turns=N maxConcurrency=M efficiency=C/N correct=yes|no
               turns counts the assistant turns with at least one lookup; correct=yes iff every id was
               looked up and every value is in the answer.

                 --model M        run model M (keys and base URLs from the environment:
                                  OPENAI_API_KEY/OPENAI_BASE_URL, ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL)
                 --provider P     openai (default; any OpenAI-compatible server) or anthropic
                 --candidate NAME a scripted agent instead of a model: batch (default; all lookups in
                                  one turn) or serial (one lookup per turn)

               Exit status: 0 when the run was scored, 1 when the model could not be reached
               (infrastructure failure, not scored), 2 for a usage error or a provider that is unknown
               or not configured (no key).""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        BenchmarkArgs a = BenchmarkArgs.parse(args, "tasks", 8, "batch", Batcher.NAMES);
        Attempt attempt = SyntheticPreset.run(registry, "parallel", a, models);
        if (SyntheticPreset.failed(attempt, name(), err)) return 1;
        out.println(ParallelResult.of(attempt).line());
        if (a.model() != null) SyntheticPreset.summary(attempt, err);
        return 0;
    }
}
