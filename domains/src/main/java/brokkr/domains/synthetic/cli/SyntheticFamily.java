package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.ModelSource;
import brokkr.family.BenchmarkFamily;
import java.util.List;

/**
 * The synthetic benchmarks (pointer chasing, parallel discrimination) as a family: no upstream data,
 * corpora or result formats, only their commands ({@code ./brokkr demo}, {@code loop}, {@code parallel}),
 * models opened from the process's environment.
 */
public final class SyntheticFamily implements BenchmarkFamily {
    @Override
    public String name() {
        return "synthetic";
    }

    @Override
    public List<Command> commands(CommandContext context) {
        ModelSource models = ModelSource.fromEnvironment(context.env());
        return List.of(
                new DemoCommand(context.registry(), models),
                new LoopCommand(context.registry(), models),
                new ParallelCommand(context.registry(), models));
    }
}
