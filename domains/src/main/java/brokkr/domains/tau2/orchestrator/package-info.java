/**
 * Upstream's half-duplex {@code Orchestrator} ({@code src/tau2/orchestrator}): the agent and
 * user-simulator sides (with upstream's role flip for the user model) and their prompts, one graded
 * episode, and its options. Checked against upstream's own orchestrator on scripted scenarios
 * ({@code domains/src/test/oracle}); the places where upstream raises instead of ending an episode are
 * listed on {@link brokkr.domains.tau2.orchestrator.Orchestrator}.
 */
package brokkr.domains.tau2.orchestrator;
