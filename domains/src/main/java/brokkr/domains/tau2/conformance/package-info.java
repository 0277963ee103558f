/**
 * Proof of equivalence: replays the oracle corpora recorded from upstream's Python
 * ({@code shared/conformance/tau2}) against a domain and reports every difference.
 */
package brokkr.domains.tau2.conformance;
