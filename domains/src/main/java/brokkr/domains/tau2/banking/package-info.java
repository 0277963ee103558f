/**
 * tau2-bench's banking_knowledge domain with the {@code bm25} retrieval variant, benchmark {@code tau2-banking_knowledge}
 * ({@link brokkr.domains.tau2.banking.BankingBenchmark}), from upstream's {@code src/tau2/domains/banking_knowledge/}:
 * environment.py ({@link brokkr.domains.tau2.banking.BankingDomain}: the {@code TransactionalDB}, the 97 tasks, the
 * policy), the agent's {@code KnowledgeToolsWithKBSearch} and the user's {@code KnowledgeUserTools} sharing one DB (tools.py,
 * retrieval_toolkits.py: {@code BankingTools}, {@code BankingUserTools}, the discoverable tools' classes) and db_query.py
 * ({@code DbQuery}). {@code KB_search} runs over the 698-document {@link brokkr.domains.tau2.banking.KnowledgeBase} with a
 * {@link brokkr.domains.tau2.banking.Bm25Index} that scores exactly as rank_bm25's {@code BM25Okapi} (Lucene holds only the
 * inverted index), so upstream's top-k and printed scores are reproduced. A discoverable tool whose body is not yet
 * transcribed raises {@code NotImplementedError} rather than invent a result.
 */
package brokkr.domains.tau2.banking;
