/**
 * The tau2 agent under a candidate's {@code brokkr.repl.Harness}: {@link brokkr.domains.tau2.harness.Tau2Harness}
 * gives the reference agent as it is, or Brokkr's agent loop ({@code brokkr.agent.YieldingLoop}) in one working
 * conversation per episode, acting through the domain's JSON tools or through Java in a sandbox (the tools as
 * methods of {@code tau2}). Either way each domain call is made on the orchestrator's side as the tool's own call,
 * so the trajectory, step and error counts and the grading are those of upstream's JSON tools. Shared by every
 * tau2 domain; it names none.
 */
package brokkr.domains.tau2.harness;
