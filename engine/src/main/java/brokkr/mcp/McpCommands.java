package brokkr.mcp;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.CommandSet;
import java.util.List;

/** {@code ./brokkr mcp}, added to the CLI as a {@link CommandSet} service. */
public final class McpCommands implements CommandSet {
    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new McpCommand(context));
    }
}
