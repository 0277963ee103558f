package brokkr.kernel;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.CommandSet;
import java.util.List;

/**
 * The notebook face's commands, {@code ./brokkr kernel} and {@code ./brokkr repl}, added to the CLI as a
 * {@link CommandSet} service: the CLI names neither, so a headless command never loads the kernel's
 * libraries (jjava, JShell, JLine, Tablesaw, XChart) to list them.
 */
public final class KernelCommands implements CommandSet {
    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new KernelCommand(context.env()), new ReplCommand(context.env()));
    }
}
