/**
 * tau2's data model ({@code src/tau2/data_model}): tasks and their evaluation criteria
 * ({@link brokkr.domains.tau2.model.TaskSpec}), trajectory messages
 * ({@link brokkr.domains.tau2.model.Tau2Message}) and their JSON form, reward types, requestors and
 * termination reasons. Plain values, no behaviour beyond parsing.
 */
package brokkr.domains.tau2.model;
