/**
 * BFCL's face on the command line: {@link brokkr.domains.bfcl.cli.BfclFamily} (the family SPI: gorilla's data
 * pins, verdict and multi-turn conformance corpora, upstream's result and score files) and
 * {@code ./brokkr bfcl run}. Registered as a {@code brokkr.family.BenchmarkFamily} service.
 */
package brokkr.domains.bfcl.cli;
