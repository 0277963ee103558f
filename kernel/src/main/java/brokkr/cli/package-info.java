/**
 * Brokkr's command line, {@code ./brokkr COMMAND}: {@link brokkr.cli.Main} (one exit-status convention for every
 * command) and the commands that are the same for every benchmark: {@code experiment}
 * ({@link brokkr.cli.ExperimentCommand}: run, inspect, compare, regrade, export and import), {@code probe},
 * {@code report}, {@code conformance} and {@code data fetch}. The CLI names no benchmark family: a family's
 * commands, data pins, conformance suites and result formats arrive as {@code brokkr.family.BenchmarkFamily}
 * services, and other modules' commands as {@code brokkr.command.CommandSet} services, all made with the process's
 * one registry. It also names nothing of {@code brokkr.magics}, {@code brokkr.kernel} or the notebook libraries
 * (architecture rules), so a headless command loads none of them; tables, charts and reports are drawn through
 * {@code brokkr.render}.
 */
package brokkr.cli;
