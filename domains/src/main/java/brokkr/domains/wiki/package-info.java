/**
 * The wiki catalog benchmark (domain {@code wiki}): a folder of documents ({@code /docs}) in, a linked wiki
 * ({@code /wiki}) out. Brokkr's own task, with no upstream: the world ({@link brokkr.domains.wiki.WikiWorld}) is
 * generated from a seed, the documents ({@link brokkr.domains.wiki.Documents}) and the gold
 * ({@link brokkr.domains.wiki.Gold}) are derived from it, the attempt's world is an immutable file tree
 * ({@link brokkr.domains.wiki.Workspace}) worked on by file tools ({@link brokkr.domains.wiki.WikiTools}), and the
 * checker ({@link brokkr.domains.wiki.WikiChecker}) is shown valid by calibration against the reference wiki and
 * its damaged variants ({@link brokkr.domains.wiki.ReferenceWiki}).
 *
 * <p>An optional judge tier, off by default, grades prose faithfulness: with a {@code judge} model in the
 * environment (part of its content id), {@link brokkr.domains.wiki.WikiJudge} asks it, one request per page, whether
 * each claim of the page follows from the documents the page cites, in a strict JSON format read robustly (an
 * answer outside it, or a call failing after the provider's retries, is an infrastructure failure naming the page);
 * the verdicts are the check {@code faithful}, weighted by {@link brokkr.domains.wiki.WikiChecker.Weights#JUDGED}.
 * {@link brokkr.domains.wiki.GoldJudge} ({@code scripted:gold}) answers the same requests from the world's gold,
 * for tests and model-free runs.
 */
package brokkr.domains.wiki;
