/**
 * tau2-bench's face on the command line: {@link brokkr.domains.tau2.cli.Tau2Family} (the family SPI: data pins,
 * conformance replay, upstream's results files) and its commands ({@code ./brokkr tau2 run|evaluate}), reaching
 * tau2 through its runner and conformance packages only. Registered as a {@code brokkr.family.BenchmarkFamily}
 * service; the CLI names none of it.
 */
package brokkr.domains.tau2.cli;
