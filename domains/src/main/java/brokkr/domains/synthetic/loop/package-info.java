/**
 * Pointer chasing, benchmark {@code loop}: stamina at a long serial tool loop, after zsmith's
 * agentLoopBenchmark. A seeded {@link brokkr.domains.synthetic.loop.PointerChain} hides a secret in
 * {@code depth} hops; the agent must call {@code follow_pointer} once per hop, each key read from the previous
 * result, and answer with the fragments in order. {@link brokkr.domains.synthetic.loop.PointerChasing} holds
 * the rules and the exact scoring (pass only with the secret <em>and</em> exactly {@code depth} calls), its result
 * printed as zsmith does ({@link brokkr.domains.synthetic.loop.LoopResult});
 * {@link brokkr.domains.synthetic.loop.LoopBenchmark} puts it on the evaluation path, with the scripted chasers
 * of {@link brokkr.domains.synthetic.loop.LoopFollower} as candidates. No upstream data: a task is its depth.
 */
package brokkr.domains.synthetic.loop;
