package brokkr.domains.tau2.model;

import brokkr.value.PyDict;

/** Upstream {@code EnvAssertion}: a function call on the agent or user environment whose result must equal {@code assertValue}. */
public record EnvAssertion(Requestor envType, String funcName, PyDict arguments, boolean assertValue, String message) {}
