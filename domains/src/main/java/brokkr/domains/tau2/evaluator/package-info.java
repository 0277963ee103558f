/**
 * tau2's grading ({@code src/tau2/evaluator}): DB, env-assertion, action, communicate and
 * NL-assertion checks and the reward as the product over the task's reward basis
 * ({@link brokkr.domains.tau2.evaluator.Tau2Grader}), the NL judge with upstream's exact prompts or a
 * scripted judge told the verdict. Grading is pure: the environment's part arrives as
 * {@link brokkr.domains.tau2.evaluator.EnvEvidence}.
 */
package brokkr.domains.tau2.evaluator;
