/**
 * The magics Brokkr ships as {@link brokkr.magics.MagicExtension} services ({@code META-INF/services}):
 * experiments and scorecards ({@code %experiment}, {@code %scorecard}, {@code %passk}), probes, checkpoints and
 * branches, paired comparisons ({@code %compare}) and regrading.
 */
package brokkr.magics.builtin;
