/**
 * The wiki catalog benchmark (domain {@code wiki}): a folder of documents ({@code /docs}) in, a linked wiki
 * ({@code /wiki}) out. Brokkr's own task, with no upstream: the world ({@link brokkr.domains.wiki.WikiWorld}) is
 * generated from a seed, the documents ({@link brokkr.domains.wiki.Documents}) and the gold
 * ({@link brokkr.domains.wiki.Gold}) are derived from it, the attempt's world is an immutable file tree
 * ({@link brokkr.domains.wiki.Workspace}) worked on by file tools ({@link brokkr.domains.wiki.WikiTools}), and the
 * checker ({@link brokkr.domains.wiki.WikiChecker}) is shown valid by calibration against the reference wiki and
 * its damaged variants ({@link brokkr.domains.wiki.ReferenceWiki}).
 */
package brokkr.domains.wiki;
