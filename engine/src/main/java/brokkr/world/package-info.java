/**
 * Identity and navigation of world values. {@link brokkr.world.WorldHash} is the project's one world hash, the
 * digest upstream computes (tau2-bench {@code tau2/utils/utils.py get_dict_hash}: sha256 of {@code json.dumps}),
 * without building the JSON text and cheap to recompute after an update: serialized subtrees are memoized on the
 * persistent nodes ({@code DigestWriter}) and digest states are checkpointed so that an updated world re-digests
 * only from its first change ({@code DigestCheckpoints}). {@link brokkr.world.ContentId} is the content address of a
 * definition (a task, a tool set, an initial state): sha256 of its canonical JSON, so equal definitions have equal
 * ids in any run and the id can be recomputed from Python. {@link brokkr.world.ValuePaths} reads and updates nested
 * worlds by path as pure functions, sharing untouched nodes so their memos stay valid.
 */
package brokkr.world;
