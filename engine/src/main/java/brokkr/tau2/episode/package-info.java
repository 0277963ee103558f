/**
 * tau2-bench's episode protocol, shared by every tau2 domain: upstream's half-duplex
 * {@code Orchestrator} ({@link brokkr.tau2.episode.Orchestrator}), the agent and user-simulator sides
 * ({@link brokkr.tau2.episode.AgentSide}, {@link brokkr.tau2.episode.UserSide}, with upstream's role flip
 * for the user model), one graded episode ({@link brokkr.tau2.episode.Episode},
 * {@link brokkr.tau2.episode.EpisodeResult}), and scripted candidates that exercise the whole path
 * without a model ({@link brokkr.tau2.episode.GoldReplayAgent}, {@link brokkr.tau2.episode.ScriptedUser},
 * {@link brokkr.tau2.episode.StopAtOnceAgent}).
 *
 * <p>A domain plugs in through {@link brokkr.tau2.episode.EpisodeEnvironment} (pure functions over world
 * values); {@link brokkr.tau2.episode.Tau2EpisodeEnvironment} adapts a {@link brokkr.tau2.Tau2Environment}.
 * The protocol is checked against upstream's own orchestrator and evaluators on scripted scenarios
 * ({@code src/test/oracle}); the places where upstream raises instead of ending an episode are listed on
 * {@link brokkr.tau2.episode.Orchestrator}.
 */
package brokkr.tau2.episode;
