package brokkr.domains.bfcl.memory;

import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.ArrayVector;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * gorilla {@code func_source_code/memory_vector.py} {@code VectorStore}: a bounded {@code dict[int, str]} of entries
 * ({@code _store}, insertion order), the next id ({@code _next_id}, never reused until {@code clear}) and the
 * {@link FlatIpIndex} of their embeddings ({@code _index}), as a persistent value: every operation returns a new store.
 * The index is kept apart from the store as upstream keeps it (an update that fails after {@code remove_ids} leaves
 * the entry in the store but not in the index), and its internal order is the order of adding, which decides ties.
 */
public record VectorStore(
        int maxSize, int maxEntryLength, OrderedPMap<Object, Object> store, BigInteger nextId, FlatIpIndex index) {

    public static VectorStore empty(int maxSize, int maxEntryLength) {
        return new VectorStore(maxSize, maxEntryLength, OrderedPMap.empty(), BigInteger.ZERO, FlatIpIndex.EMPTY);
    }

    /** An operation's new store and its Python result. */
    public record Step(VectorStore store, Object result) {}

    /** A Python exception raised after the store had already changed ({@code _next_id} taken, a row removed). */
    static final class Failed extends RuntimeException {
        final transient VectorStore store;
        final transient PyException cause;

        Failed(VectorStore store, PyException cause) {
            super(cause.str(), null, false, false);
            this.store = store;
            this.cause = cause;
        }
    }

    private VectorStore with(OrderedPMap<Object, Object> s, BigInteger next, FlatIpIndex i) {
        return new VectorStore(maxSize, maxEntryLength, s, next, i);
    }

    private static String str(Object o) {
        return PyObjects.str(o, BfclData.PYTHON);
    }

    /**
     * {@code _embed(text)}: {@code ENCODER.encode([text], normalize_embeddings=True)} for a str. For any other object
     * sentence-transformers' {@code Transformer.tokenize} reads {@code texts[0]} as a (text, text) pair, so a number,
     * bool or None raises its {@code TypeError} ({@code 'int' object is not subscriptable}); containers (a list is
     * encoded as a batch, a dict by its first value) are not transcribed and raise a TypeError saying so.
     */
    static float[] embed(Object text) {
        if (text instanceof String s) return MiniLm.get().embed(s);
        if (text instanceof BigInteger || text instanceof Double || text instanceof Boolean || text == PyNone.NONE)
            throw PyException.typeError("'" + PyObjects.typeName(text) + "' object is not subscriptable");
        throw PyException.typeError("embedding a " + PyObjects.typeName(text)
                + " (sentence-transformers' batch and pair inputs) is not transcribed; the memory_vector methods take a"
                + " str");
    }

    private String tooLong() {
        return "Entry length exceeds maximum length of " + maxEntryLength + " characters.";
    }

    /** {@code add(text)}: length, then capacity; the id is taken before the text is embedded. */
    public Step add(Object text) {
        if (PyObjectOps.len(text) > maxEntryLength) return new Step(this, dict("error", tooLong()));
        if (store.size() >= maxSize)
            return new Step(this, dict("error", "Memory size exceeds maximum size of " + maxSize + " entries."));
        BigInteger vecId = nextId;
        VectorStore taken = with(store, nextId.add(BigInteger.ONE), index);
        float[] v;
        try {
            v = embed(text);
        } catch (PyException e) {
            throw new Failed(taken, e);
        }
        return new Step(
                with(store.plus(vecId, text), taken.nextId, index.add(vecId.longValueExact(), v)), dict("id", vecId));
    }

    /** {@code vec_id not in self._store} (a dict look-up: 1.0 and True find 1; a list raises unhashable). */
    private Object find(Object vecId) {
        return PyObjects.findKey(store, vecId);
    }

    private static long rowId(Object key) {
        return PyObjects.asBigInteger(key).longValueExact();
    }

    public Step remove(Object vecId) {
        Object key = find(vecId);
        if (key == null) return new Step(this, dict("error", "ID " + str(vecId) + " not present in store."));
        return new Step(
                with(store.minus(key), nextId, index.remove(rowId(key))),
                dict("status", "ID " + str(vecId) + " removed from store."));
    }

    /** {@code update}: presence, then length; the row is removed before the new text is embedded, then re-added last. */
    public Step update(Object vecId, Object newText) {
        Object key = find(vecId);
        if (key == null) return new Step(this, dict("error", "ID " + str(vecId) + " not present in store."));
        if (PyObjectOps.len(newText) > maxEntryLength) return new Step(this, dict("error", tooLong()));
        FlatIpIndex removed = index.remove(rowId(key));
        float[] v;
        try {
            v = embed(newText);
        } catch (PyException e) {
            throw new Failed(with(store, nextId, removed), e);
        }
        return new Step(
                with(PyObjects.setItem(store, key, newText), nextId, removed.add(rowId(key), v)),
                dict("status", "ID " + str(vecId) + " updated."));
    }

    public Step clear() {
        return new Step(
                with(OrderedPMap.empty(), BigInteger.ZERO, FlatIpIndex.EMPTY), dict("status", "Memory cleared."));
    }

    /**
     * {@code retrieve(query, top_k)}: {@code []} for an empty store (before anything else), else the query's embedding,
     * {@code k = min(top_k, len(self._store))} and faiss's search ({@code assert k > 0}; {@code np.empty((n, k))} wants
     * an integer), hits with id -1 skipped; each hit {@code {"id", "similarity_score": float(score), "text"}}.
     */
    public List<Object> retrieve(Object query, Object topK) {
        if (store.isEmpty()) return ArrayVector.from(List.of());
        float[] q = embed(query);
        Object k = PyBuiltins.call("min", BfclData.PYTHON, topK, BigInteger.valueOf(store.size()));
        if (!PyObjectOps.gt(k, BigInteger.ZERO)) throw new PyException("AssertionError", "");
        if (k instanceof Double) throw PyException.typeError("'float' object cannot be interpreted as an integer");
        int n = PyObjects.asBigInteger(k).intValueExact(); // <= len(store) <= max_size
        List<Object> results = new ArrayList<>();
        for (FlatIpIndex.Hit h : index.search(q, n)) {
            if (h.id() == -1) continue;
            BigInteger id = BigInteger.valueOf(h.id());
            Object text = store.get(id);
            if (text == null) throw PyException.keyError(id.toString());
            results.add(dict("id", id, "similarity_score", (double) h.score(), "text", text));
        }
        return ArrayVector.from(results);
    }

    /** {@code retrieve_all()}: {@code {"id", "text"}} of every entry, in store order. */
    public List<Object> retrieveAll() {
        List<Object> results = new ArrayList<>();
        for (Map.Entry<Object, Object> e : store.entrySet()) results.add(dict("id", e.getKey(), "text", e.getValue()));
        return ArrayVector.from(results);
    }

    /** The store as {@code json.dump} writes a {@code dict[int, str]}: keys as their decimal text. */
    OrderedPMap<Object, Object> storeWithTextKeys() {
        OrderedPMap<Object, Object> out = OrderedPMap.empty();
        for (Map.Entry<Object, Object> e : store.entrySet()) out = out.plus(str(e.getKey()), e.getValue());
        return out;
    }

    /** {@code export()}: {@code {"next_id", "store"}}, the store with the keys json.dump writes. */
    OrderedPMap<Object, Object> export() {
        return dict("next_id", nextId, "store", storeWithTextKeys());
    }

    /**
     * {@code load_from_snapshot(snapshot_data)}: {@code next_id} as saved, the store {@code {int(k): v}} in the saved
     * order, and the index rebuilt from scratch with the ids sorted ({@code np.array(sorted(self._store.keys()))}),
     * so after a reload the internal order, and with it the order of equal scores, is by id.
     */
    VectorStore load(Object snapshot) {
        Map<?, ?> data = asDict(snapshot, "snapshot");
        Object next = PyObjectOps.getItem(data, "next_id");
        if (!(next instanceof BigInteger n))
            throw PyException.typeError("a memory snapshot's next_id that is not an int is not supported");
        Map<?, ?> saved = asDict(PyObjectOps.getItem(data, "store"), "store");
        OrderedPMap<Object, Object> s = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : saved.entrySet())
            s = PyObjects.setItem(s, PyBuiltins.call("int", BfclData.PYTHON, e.getKey()), e.getValue());
        List<BigInteger> ids = new ArrayList<>();
        for (Object key : s.keySet()) ids.add((BigInteger) key);
        ids.sort(null);
        FlatIpIndex idx = FlatIpIndex.EMPTY;
        for (BigInteger id : ids) idx = idx.add(id.longValueExact(), embed(s.get(id)));
        return with(s, n, idx);
    }

    private static Map<?, ?> asDict(Object o, String what) {
        if (o instanceof Map<?, ?> m) return m;
        throw PyException.typeError("memory snapshot " + what + " is not a dict");
    }
}
