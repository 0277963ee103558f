package brokkr.command;

import java.util.List;

/**
 * Commands a module adds to {@code ./brokkr} without the CLI naming it: a benchmark family's
 * ({@code tau2}, {@code bfcl}), the notebook kernel's ({@code kernel}, {@code repl}), the benchmarks'
 * ({@code bench}). Found through {@code ServiceLoader<CommandSet>}; a command name taken by a
 * built-in or an earlier set is an error at start-up, not a silent override.
 */
public interface CommandSet {
    List<Command> commands(CommandContext context);
}
