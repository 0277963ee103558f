package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.experiment.Registry;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./brokkr demo}: the main job on embedded defaults, with no API key and no external store —
 * both synthetic benchmarks with their built-in scripted candidates, one result line each.
 */
public record DemoCommand(Registry registry, ModelSource models) implements Command {
    @Override
    public String name() {
        return "demo";
    }

    @Override
    public String summary() {
        return "the main job on embedded defaults: loop 50 and parallel 8, scripted";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr demo

               Runs pointer chasing (depth 50) and parallel discrimination (8 tasks) with the built-in
               ideal scripted candidates and prints their result lines. Needs no API key.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (!args.isEmpty()) throw new UsageException("demo takes no arguments, got " + args);
        int loop = new LoopCommand(registry, models).run(List.of("50"), out, err);
        int parallel = new ParallelCommand(registry, models).run(List.of("8"), out, err);
        return Math.max(loop, parallel);
    }
}
