/**
 * Benchmarks of the engine and domains (JMH and the {@code ./brokkr bench} command, a {@code CommandSet} service): world load,
 * fork, update, hashing, replay. Not on the product's class path: {@code ./brokkr} adds this module and JMH only for
 * {@code ./brokkr bench} and the help.
 */
package brokkr.bench;
