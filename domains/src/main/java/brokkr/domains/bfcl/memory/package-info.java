/**
 * BFCL v4's memory categories ({@code memory_kv}, {@code memory_vector}, {@code memory_rec_sum}): the backends
 * ({@code func_source_code/memory_*.py}) as forkable worlds on the multi-turn executor, the snapshot files they
 * read and write ({@code memory_api_metaclass.MemoryAPI._prepare_snapshot}, {@code _flush_memory_to_local_file}) as
 * values of the world, the all-MiniLM-L6-v2 encoder and faiss flat index {@code memory_vector} searches with, and the conformance replay of
 * upstream's executions.
 */
package brokkr.domains.bfcl.memory;
