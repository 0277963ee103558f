/**
 * Tests run over every registered tau2 domain ({@code Tau2Domains.all()}) alike, parameterized by domain: the
 * gold and stop episodes, the conformance corpora, the experiment path and the pinned data. A new domain (one
 * package and one services line) is covered by adding its expected figures here; what is one domain's own stays
 * in its package.
 */
package brokkr.domains.tau2.domains;
