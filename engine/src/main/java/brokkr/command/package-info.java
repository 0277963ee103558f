/**
 * The command-line SPI: {@link brokkr.command.Command} (one {@code ./brokkr NAME} command, its usage
 * and exit codes), {@link brokkr.command.CommandContext} (the process's registry and environment a
 * command is made with) and {@link brokkr.command.CommandSet} (commands a module registers as a
 * service). {@code brokkr.cli} is the thin front that finds and runs them; a benchmark family's
 * commands live in the family's own package.
 */
package brokkr.command;
