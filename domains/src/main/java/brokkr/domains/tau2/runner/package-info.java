/**
 * Running tau2 domains ({@code src/tau2/runner}, {@code registry.py}): the name-to-domain map
 * ({@link brokkr.domains.tau2.runner.Tau2Domains}), a loaded domain with its tasks and prompts, upstream's
 * per-trial seeds, and {@link brokkr.domains.tau2.runner.Tau2Benchmark}, the provider that puts each domain
 * on the one evaluation path, by role: its options ({@code Tau2Options}), the world in the fork and its setup and
 * replay ({@code Tau2Fork}), the scripted models ({@code Tau2ScriptedModels}), the protocol ({@code Tau2Protocol}),
 * the evaluator ({@code Tau2Evaluator}) and what one attempt's phases hand on to the next ({@code Tau2AttemptMemo});
 * branching, exploration and rejudging ({@code Tau2Branching}, {@link brokkr.domains.tau2.runner.Tau2Exploration},
 * {@code Tau2Rejudging}).
 */
package brokkr.domains.tau2.runner;
