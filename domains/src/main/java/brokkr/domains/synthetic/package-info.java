/**
 * The synthetic benchmarks, generated from a seed (no upstream data): pointer chasing ({@code loop}) and
 * parallel discrimination ({@code parallel}), with the provider base they share.
 */
package brokkr.domains.synthetic;
