/**
 * tau2-bench's grading ({@code src/tau2/evaluator}): the task model it reads
 * ({@link brokkr.tau2.grading.TaskSpec}), the trajectory ({@link brokkr.tau2.grading.Tau2Message}), the
 * DB, env-assertion, action, communicate and NL-assertion checks, the reward as the product over the
 * task's reward basis ({@link brokkr.tau2.grading.Grader}), the NL judge with upstream's exact prompts
 * ({@link brokkr.tau2.grading.ModelNlJudge}) or a scripted judge that is told the verdict
 * ({@link brokkr.tau2.grading.ScriptedVerdictJudge}), and pass^k ({@link brokkr.tau2.grading.PassHatK}).
 * Grading is pure: the environment's part arrives as {@link brokkr.tau2.grading.EnvEvidence}.
 */
package brokkr.tau2.grading;
