/** Benchmarks of the engine and domains (JMH and the {@code ./brokkr bench} command): world load, fork, update, hashing, replay. */
package brokkr.bench;
