/**
 * Scripted agents ({@code src/tau2/agent} has upstream's LLM agent; its prompt is in the orchestrator
 * package): the gold replay and stop-at-once candidates that exercise the whole path without a model.
 */
package brokkr.domains.tau2.agent;
