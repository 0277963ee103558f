/**
 * tau2's environment ({@code src/tau2/environment}): a domain's toolkit over immutable DB values
 * ({@link brokkr.domains.tau2.environment.Tau2Environment}, {@link brokkr.domains.tau2.environment.Tau2Toolkit}),
 * tool schemas as upstream renders them, the shared {@code calculate} tool, the pinned upstream data
 * directory ({@link brokkr.domains.tau2.environment.Tau2Data}) and the pure-function view the
 * orchestrator and grader use ({@link brokkr.domains.tau2.environment.EpisodeEnvironment}).
 */
package brokkr.domains.tau2.environment;
