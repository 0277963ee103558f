package brokkr.bench;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.CommandSet;
import java.util.List;

/**
 * {@code ./brokkr bench} as a {@link CommandSet} service: the benchmarks (and JMH) are not on the
 * product's class path; the launcher adds this module only to run {@code ./brokkr bench} (and to list
 * it in {@code --help}).
 */
public final class BenchCommands implements CommandSet {
    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new BenchCommand());
    }
}
