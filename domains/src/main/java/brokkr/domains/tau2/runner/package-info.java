/**
 * Running tau2 domains ({@code src/tau2/runner}, {@code registry.py}): the name-to-domain map
 * ({@link brokkr.domains.tau2.runner.Tau2Domains}), a loaded domain with its tasks and prompts, upstream's
 * per-trial seeds, and {@link brokkr.domains.tau2.runner.Tau2Benchmark}, the provider that puts each domain
 * on the one evaluation path.
 */
package brokkr.domains.tau2.runner;
