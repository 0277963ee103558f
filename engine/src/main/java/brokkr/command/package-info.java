/**
 * The command-line SPI: {@link brokkr.command.Command} (one {@code ./brokkr NAME} command, its usage
 * and exit codes), {@link brokkr.command.CommandContext} (the process's registry and environment a
 * command is made with) and {@link brokkr.command.CommandSet} (commands a module registers as a
 * service). {@code brokkr.cli} is the thin front that finds and runs them; a benchmark family's
 * commands live in the family's own package ({@link brokkr.family.BenchmarkFamily#commands}).
 *
 * <p>What commands share lives here too: {@link brokkr.command.ModelSource} ({@code --model/--provider}),
 * {@link brokkr.command.Cells} (cells run through the evaluation path, in order), {@link brokkr.command.RecordFile}
 * and {@link brokkr.command.OwnerOnlyFile} (owner-only output files of transcripts and requests) and
 * {@link brokkr.command.ErrorMessages} (a runtime error as one sentence).
 */
package brokkr.command;
