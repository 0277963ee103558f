package brokkr.domains.bfcl.memory;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Raised;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * gorilla {@code func_source_code/memory_vector.py} {@code MemoryAPI_vector}: a core memory (7 entries of at most 300
 * characters, shown in the system prompt) and an archival memory (50 of at most 2,000), each a {@link VectorStore}
 * whose entries are found by the cosine similarity of their all-MiniLM-L6-v2 embeddings ({@link MiniLm}) to a query,
 * an inner product on L2-normalised vectors in a faiss flat index ({@link FlatIpIndex}). Persistent: a call returns a
 * new instance. The snapshot files hold the texts and next ids only (as upstream's: {@code export()}); a loaded
 * snapshot is embedded again.
 */
@SuppressWarnings("checkstyle:TypeName")
public record MemoryAPI_vector(VectorStore coreMemory, VectorStore archivalMemory, MemorySnapshots.Prepared prepared)
        implements MemoryBackend {

    static final int MAX_CORE_MEMORY_SIZE = 7, MAX_CORE_MEMORY_ENTRY_LENGTH = 300;
    static final int MAX_ARCHIVAL_MEMORY_SIZE = 50, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH = 2000;

    /**
     * The memory content as the snapshot holds it ({@code export()} of each store); the vectors are a function of the
     * texts, and the snapshot paths, test id and scenario name the run (as for {@link MemoryAPI_kv}).
     */
    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("core_memory", coreMemory.export());
        m.put("archival_memory", archivalMemory.export());
        return m;
    }

    @Override
    public Globals flush(Globals g) {
        return MemorySnapshots.flush(
                g, prepared, dict("core_memory", coreMemory.export(), "archival_memory", archivalMemory.export()));
    }

    /**
     * {@code _dump_core_memory_to_context}: {@code json.dumps(self.core_memory._store, indent=4)}. Its guard {@code if
     * not self.core_memory} tests the VectorStore object, which defines neither {@code __bool__} nor {@code __len__}
     * and is always true: an empty core memory is shown as {@code {}}, never as the "no content" notice.
     */
    @Override
    public String contextDump() {
        return MemorySnapshots.dumpIndented(coreMemory.storeWithTextKeys());
    }

    private static Outcome load(Object config, boolean longContext, Globals g) {
        MemorySnapshots.Prepared p = MemorySnapshots.prepare(config);
        Map<?, ?> data = MemorySnapshots.load(p, g);
        VectorStore core = VectorStore.empty(MAX_CORE_MEMORY_SIZE, MAX_CORE_MEMORY_ENTRY_LENGTH);
        VectorStore archival = VectorStore.empty(MAX_ARCHIVAL_MEMORY_SIZE, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH);
        if (data != null && !data.isEmpty()) { // `if memory_data:`
            core = core.load(item(data, "core_memory"));
            archival = archival.load(item(data, "archival_memory"));
        }
        return new Outcome(new MemoryAPI_vector(core, archival, p), g, PyNone.NONE);
    }

    private static Object item(Map<?, ?> d, String key) {
        Object v = PyObjects.get(d, key, null);
        if (v == null) throw PyException.keyError(key);
        return v;
    }

    private static MemoryAPI_vector self(Backend b) {
        return (MemoryAPI_vector) b;
    }

    /** One store operation on the core ({@code core}) or archival memory, the other store unchanged. */
    private static Outcome on(Backend b, Globals g, boolean core, Function<VectorStore, VectorStore.Step> op) {
        MemoryAPI_vector t = self(b);
        VectorStore s = core ? t.coreMemory : t.archivalMemory;
        try {
            VectorStore.Step step = op.apply(s);
            return new Outcome(t.with(core, step.store()), g, step.result());
        } catch (VectorStore.Failed f) {
            // upstream mutates in place: what the store did before the exception stays
            throw new Raised(f.cause, t.with(core, f.store), g);
        }
    }

    private MemoryAPI_vector with(boolean core, VectorStore s) {
        return core ? new MemoryAPI_vector(s, archivalMemory, prepared) : new MemoryAPI_vector(coreMemory, s, prepared);
    }

    private static Outcome retrieve(Backend b, Globals g, boolean core, Object query, Object topK) {
        VectorStore s = core ? self(b).coreMemory : self(b).archivalMemory;
        return new Outcome(b, g, dict("result", s.retrieve(query, topK)));
    }

    private static Outcome retrieveAll(Backend b, Globals g, boolean core) {
        VectorStore s = core ? self(b).coreMemory : self(b).archivalMemory;
        return new Outcome(b, g, dict("result", s.retrieveAll()));
    }

    private static List<Method> methods(String prefix, boolean core) {
        return List.of(
                Method.of(prefix + "_add", (b, a, g) -> on(b, g, core, s -> s.add(a[0])), required("text")),
                Method.of(prefix + "_remove", (b, a, g) -> on(b, g, core, s -> s.remove(a[0])), required("vec_id")),
                Method.of(
                        prefix + "_update",
                        (b, a, g) -> on(b, g, core, s -> s.update(a[0], a[1])),
                        required("vec_id"),
                        required("new_text")),
                Method.of(prefix + "_clear", (b, a, g) -> on(b, g, core, VectorStore::clear)),
                Method.of(
                        prefix + "_retrieve",
                        (b, a, g) -> retrieve(b, g, core, a[0], a[1]),
                        required("query"),
                        optional("top_k", BigInteger.valueOf(5))),
                Method.of(prefix + "_retrieve_all", (b, a, g) -> retrieveAll(b, g, core)));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "MemoryAPI_vector",
            false,
            MemoryAPI_vector::load,
            Stream.concat(methods("core_memory", true).stream(), methods("archival_memory", false).stream())
                    .toList());
}
