package brokkr.env;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.CommandSet;
import java.util.List;

/** {@code ./brokkr env}, added to the CLI as a {@link CommandSet} service. */
public final class EnvCommands implements CommandSet {
    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new EnvCommand(context));
    }
}
