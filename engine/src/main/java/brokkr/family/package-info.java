/**
 * The benchmark-family SPI: {@link brokkr.family.BenchmarkFamily} (a {@code ServiceLoader} service) declares
 * what a family adds to {@code ./brokkr} beside its benchmarks: upstream data pins ({@code data fetch}),
 * conformance corpora ({@link brokkr.family.ConformanceSuite}, {@code conformance NAME}), result formats
 * ({@link brokkr.family.ResultFormat}, {@code experiment export|import --format NAME}), its own commands and
 * its upstream revisions ({@code --version}). Families return values; {@link brokkr.family.StoredResults}
 * is the one place their results meet the experiment store, so no family opens it.
 */
package brokkr.family;
