/**
 * The evaluation contract: every benchmark is a {@link brokkr.eval.BenchmarkProvider} on one path,
 * {@link brokkr.eval.Evaluation#evaluate}. A cell's run gets a fresh world fork that the provider's
 * {@link brokkr.eval.WorldSetup} fills (returning evidence such as the initial world's hash), hosts the
 * provider's {@link brokkr.eval.Protocol} (which returns portable data, never a grade) and ends with
 * its {@link brokkr.eval.Evaluator} (one boolean {@link brokkr.eval.Check} per reason to lose, a reward
 * and a {@link brokkr.eval.TrustTier}). The result is an {@link brokkr.eval.Attempt} with its
 * {@link brokkr.eval.Evidence}; the fork is dropped.
 *
 * <p>{@link brokkr.eval.EnvironmentDef} and {@link brokkr.eval.AgentDef} are content-addressed
 * ({@link brokkr.world.ContentId}): whatever a score's meaning depends on is in their content, so a
 * change is a new definition. Private data (gold actions, possible answers) never leaves the provider;
 * an EnvironmentDef names its task by id.
 *
 * <p>A protocol signals an infrastructure fault (a model provider's retries exhausted) by throwing
 * {@link brokkr.conversation.InfrastructureFailure}; an orchestrator that records such a fault as a
 * termination reason instead (tau2's {@code infrastructure_error}) must rethrow it in its adapter, or
 * the attempt would be graded as the candidate's failure; as an {@link brokkr.eval.InterruptedInteraction}
 * it keeps the interaction up to the fault in the attempt's evidence.
 */
package brokkr.eval;
