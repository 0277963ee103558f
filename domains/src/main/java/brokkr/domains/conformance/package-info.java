/**
 * What the families' conformance replays share: {@link brokkr.domains.conformance.Corpus} reads an oracle corpus
 * recorded from upstream's Python (JSON Lines, one record per line), strictly, because a corpus that silently
 * proves nothing would pass: an empty file, bytes that are not UTF-8, a line that is not an object or a missing
 * field is an error naming the file, the line and the field. The tau2 and BFCL replays
 * ({@code tau2.conformance}, {@code bfcl}, {@code bfcl.multiturn}) read through it; it knows no family.
 */
package brokkr.domains.conformance;
