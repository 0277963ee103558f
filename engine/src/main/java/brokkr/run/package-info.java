/**
 * The one runner: {@link brokkr.run.Runner#run} takes a {@link brokkr.run.Plan} (cells and where their
 * models come from; a planner made and checked it) or any list of {@link brokkr.run.Job}s (a probe's
 * samples, a regrade's attempts), a {@link brokkr.run.Policy} (parallelism, a unit's timeout, each
 * provider's limits, the model-call cache, cancellation: operational settings only, none of which
 * changes what a score means) and a {@link brokkr.run.Sink} (the experiment store, memory, a command
 * printing in order). Every face submits here, so each gets the same threads, gates, timeouts,
 * cancellation and cache; and only the runner calls {@link brokkr.eval.Evaluation#evaluate} (an
 * architecture rule). The package knows cells and models, not stores or benchmarks: experiments
 * ({@code brokkr.experiment}) sit above it.
 */
package brokkr.run;
