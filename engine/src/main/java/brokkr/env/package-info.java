/**
 * Any domain as a Gym-style environment a trainer steps ({@link brokkr.env.Env}: reset, step; over HTTP
 * {@link brokkr.env.EnvServer}, {@code ./brokkr env serve}). An episode is one cell on the one evaluation path, run by
 * the runner, whose agent is the external client: no second way to run a domain. Knows no benchmark.
 */
package brokkr.env;
