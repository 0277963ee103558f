/**
 * Parallel discrimination, benchmark {@code parallel}: the inverse of pointer chasing, after zsmith's
 * agentParallelismBenchmark. Every id of a seeded {@link brokkr.domains.synthetic.parallel.LookupTable} is
 * listed up front and the lookups are independent, so an agent that sees it issues them all in one turn; the
 * executor runs a turn's calls concurrently and the tool measures its own concurrency
 * ({@link brokkr.domains.synthetic.parallel.ConcurrencyGauge}, the one mutable part, one per run).
 * {@link brokkr.domains.synthetic.parallel.ParallelDiscrimination} holds the rules and the correctness gate
 * (every id looked up, every value in the answer; efficiency is reported, not graded),
 * {@link brokkr.domains.synthetic.parallel.ParallelResult} the line zsmith prints, and
 * {@link brokkr.domains.synthetic.parallel.ParallelBenchmark} the provider, with
 * {@link brokkr.domains.synthetic.parallel.Batcher} as its scripted candidates. No upstream data.
 */
package brokkr.domains.synthetic.parallel;
