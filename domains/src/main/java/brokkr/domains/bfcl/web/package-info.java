/**
 * BFCL v4 {@code web_search} over recorded IO: the recording format ({@link brokkr.domains.bfcl.web.WebRecording}),
 * upstream's {@code WebSearchAPI} as a backend whose IO is a recording or the live web recorded
 * ({@link brokkr.domains.bfcl.web.WebSearchAPI}, {@link brokkr.domains.bfcl.web.WebIo},
 * {@link brokkr.domains.bfcl.web.LiveWeb}), the categories' data and tasks
 * ({@link brokkr.domains.bfcl.web.WebSearchData}) and the benchmark {@code bfcl-web-search}
 * ({@link brokkr.domains.bfcl.web.WebSearchBenchmark}).
 */
package brokkr.domains.bfcl.web;
