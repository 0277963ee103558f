package brokkr.domains.bfcl.memory;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyStrings;
import brokkr.python.PyTuple;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.pcollections.OrderedPMap;

/**
 * gorilla {@code func_source_code/memory_kv.py} {@code MemoryAPI_kv}: a bounded core memory (7 entries of at most
 * 300 characters, shown in the system prompt) and an archival memory (50 entries of at most 2,000), both
 * {@code str -> str} dicts with BM25+ key search. Persistent dicts: a call returns a new instance.
 */
@SuppressWarnings("checkstyle:TypeName")
public record MemoryAPI_kv(
        OrderedPMap<Object, Object> coreMemory,
        OrderedPMap<Object, Object> archivalMemory,
        MemorySnapshots.Prepared prepared)
        implements MemoryBackend {

    static final int MAX_CORE_MEMORY_SIZE = 7, MAX_CORE_MEMORY_ENTRY_LENGTH = 300;
    static final int MAX_ARCHIVAL_MEMORY_SIZE = 50, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH = 2000;

    /** The memory content only: the other public attributes (snapshot paths, test id, scenario) name the run. */
    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("core_memory", coreMemory);
        m.put("archival_memory", archivalMemory);
        return m;
    }

    @Override
    public Globals flush(Globals g) {
        return MemorySnapshots.flush(g, prepared, dict("core_memory", coreMemory, "archival_memory", archivalMemory));
    }

    /** {@code _dump_core_memory_to_context}: {@code json.dumps(core_memory, indent=4)}, or the empty notice. */
    @Override
    public String contextDump() {
        if (coreMemory.isEmpty()) return "There is no content in the core memory at this point.";
        return MemorySnapshots.dumpIndented(coreMemory);
    }

    @SuppressWarnings("unchecked")
    private static Outcome load(Object config, boolean longContext, Globals g) {
        MemorySnapshots.Prepared p = MemorySnapshots.prepare(config);
        Map<?, ?> data = MemorySnapshots.load(p, g);
        OrderedPMap<Object, Object> core = OrderedPMap.empty(), archival = OrderedPMap.empty();
        if (data != null && !data.isEmpty()) { // `if memory_data:`
            core = asDict(PyObjects.get(data, "core_memory", null), "core_memory");
            archival = asDict(PyObjects.get(data, "archival_memory", null), "archival_memory");
        }
        return new Outcome(new MemoryAPI_kv(core, archival, p), g, PyNone.NONE);
    }

    @SuppressWarnings("unchecked")
    private static OrderedPMap<Object, Object> asDict(Object v, String key) {
        if (v == null) throw PyException.keyError(key);
        if (v instanceof OrderedPMap<?, ?> o) return (OrderedPMap<Object, Object>) o;
        if (v instanceof Map<?, ?> m) return OrderedPMap.from((Map<Object, Object>) m);
        throw PyException.typeError("snapshot " + key + " is not a dict");
    }

    private static MemoryAPI_kv self(Backend b) {
        return (MemoryAPI_kv) b;
    }

    private MemoryAPI_kv with(OrderedPMap<Object, Object> core, OrderedPMap<Object, Object> archival) {
        return new MemoryAPI_kv(core, archival, prepared);
    }

    /** {@code _is_valid_key_format}: {@code re.match(r"^[a-z]+(_[a-z0-9]+)*$", s)} ({@code $} also before a final newline). */
    private static final Pattern KEY = Pattern.compile("[a-z]+(_[a-z0-9]+)*\n?");

    static boolean validKey(String s) {
        return KEY.matcher(s).matches();
    }

    private static String str(Object o) {
        return PyObjects.str(o, BfclData.PYTHON);
    }

    private static int len(String s) {
        return s.codePointCount(0, s.length());
    }

    /** core_memory_add / archival_memory_add: capacity, then length, then key format, then uniqueness. */
    private static Object add(
            OrderedPMap<Object, Object>[] memory,
            Object k,
            Object v,
            int maxSize,
            int maxLen,
            String fullError,
            String ok) {
        String key = str(k), value = str(v);
        if (memory[0].size() >= maxSize) return dict("error", fullError);
        if (len(value) > maxLen)
            return dict("error", "Entry is too long. Please shorten the entry to less than " + maxLen + " characters.");
        if (!validKey(key)) return dict("error", "Key must be in snake_case format and cannot contain spaces.");
        if (memory[0].containsKey(key)) return dict("error", "Key name must be unique.");
        memory[0] = memory[0].plus(key, value);
        return dict("status", ok);
    }

    /** *_remove: {@code key in memory} on the key as given (not {@code str()}-converted: an unhashable key raises). */
    private static Object remove(OrderedPMap<Object, Object>[] memory, Object key) {
        Object found = PyObjects.findKey(memory[0], key);
        if (found == null) return dict("error", "Key not found.");
        memory[0] = memory[0].minus(found);
        return dict("status", "Key removed.");
    }

    /** *_replace: existence, then length; no key-format check. */
    private static Object replace(OrderedPMap<Object, Object>[] memory, Object k, Object v, int maxLen) {
        String key = str(k), value = str(v);
        if (!memory[0].containsKey(key)) return dict("error", "Key not found.");
        if (len(value) > maxLen)
            return dict("error", "Entry is too long. Please shorten the entry to less than " + maxLen + " characters.");
        memory[0] = PyObjects.setItem(memory[0], key, value);
        return dict("status", "Key replaced.");
    }

    private static Object retrieve(OrderedPMap<Object, Object> memory, Object key) {
        Object found = PyObjects.findKey(memory, key);
        if (found == null) return dict("error", "Key not found.");
        return dict("value", memory.get(found));
    }

    private static Object listKeys(OrderedPMap<Object, Object> memory) {
        return dict("keys", ArrayVector.from(new ArrayList<>(memory.keySet())));
    }

    /**
     * {@code _similarity_search(query, keys, k)}: BM25+ over {@code text.replace("_", " ").lower().split()} of each
     * key, {@code sorted(zip(scores, corpus), key=score, reverse=True)} (stable: ties keep insertion order), then
     * {@code [:k]}.
     */
    static Object keySearch(OrderedPMap<Object, Object> memory, Object query, Object k) {
        List<String> keys = new ArrayList<>();
        for (Object key : memory.keySet()) keys.add((String) key);
        List<List<String>> corpus = new ArrayList<>();
        for (String key : keys) corpus.add(tokens(key));
        Bm25Plus bm25 = new Bm25Plus(corpus);
        double[] scores = bm25.scores(tokens(PyObjectOps.strReceiver(query, "replace")));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) order.add(i);
        // reverse=True keeps equal elements in their original order (CPython sorts stably, reversing around it)
        order.sort(Comparator.comparingDouble((Integer i) -> scores[i]).reversed());
        List<Object> ranked = new ArrayList<>();
        for (int i : order) ranked.add(new PyTuple(List.of(scores[i], keys.get(i))));
        return dict("ranked_results", ArrayVector.from(sliceTo(ranked, k)));
    }

    private static List<String> tokens(String text) {
        return PyStrings.split(PyStrings.lower(text.replace("_", " ")));
    }

    /** {@code list[:k]}: None is the whole list, an int (or bool) a Python stop index, anything else a TypeError. */
    static List<Object> sliceTo(List<Object> l, Object k) {
        if (k == PyNone.NONE) return l;
        BigInteger stop;
        if (k instanceof Boolean b) stop = b ? BigInteger.ONE : BigInteger.ZERO;
        else if (k instanceof BigInteger i) stop = i;
        else throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
        int n = l.size();
        BigInteger s = stop.signum() < 0 ? stop.add(BigInteger.valueOf(n)) : stop;
        int end = s.signum() < 0 ? 0 : s.compareTo(BigInteger.valueOf(n)) > 0 ? n : s.intValue();
        return l.subList(0, end);
    }

    @SuppressWarnings("unchecked")
    private static OrderedPMap<Object, Object>[] cell(OrderedPMap<Object, Object> m) {
        return new OrderedPMap[] {m};
    }

    private static Outcome coreAdd(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.coreMemory);
        Object r = add(
                m,
                a[0],
                a[1],
                MAX_CORE_MEMORY_SIZE,
                MAX_CORE_MEMORY_ENTRY_LENGTH,
                "Core memory is full. Please clear some entries.",
                "Key-value pair added.");
        return new Outcome(t.with(m[0], t.archivalMemory), g, r);
    }

    private static Outcome archivalAdd(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.archivalMemory);
        Object r = add(
                m,
                a[0],
                a[1],
                MAX_ARCHIVAL_MEMORY_SIZE,
                MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH,
                "Long term memory is full. Please clear some entries.",
                "Key added.");
        return new Outcome(t.with(t.coreMemory, m[0]), g, r);
    }

    private static Outcome coreRemove(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.coreMemory);
        Object r = remove(m, a[0]);
        return new Outcome(t.with(m[0], t.archivalMemory), g, r);
    }

    private static Outcome archivalRemove(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.archivalMemory);
        Object r = remove(m, a[0]);
        return new Outcome(t.with(t.coreMemory, m[0]), g, r);
    }

    private static Outcome coreReplace(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.coreMemory);
        Object r = replace(m, a[0], a[1], MAX_CORE_MEMORY_ENTRY_LENGTH);
        return new Outcome(t.with(m[0], t.archivalMemory), g, r);
    }

    private static Outcome archivalReplace(Backend b, Object[] a, Globals g) {
        MemoryAPI_kv t = self(b);
        var m = cell(t.archivalMemory);
        Object r = replace(m, a[0], a[1], MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH);
        return new Outcome(t.with(t.coreMemory, m[0]), g, r);
    }

    public static final BackendClass CLASS = BackendClass.of(
            "MemoryAPI_kv",
            false,
            MemoryAPI_kv::load,
            List.of(
                    Method.of("core_memory_add", MemoryAPI_kv::coreAdd, required("key"), required("value")),
                    Method.of("core_memory_remove", MemoryAPI_kv::coreRemove, required("key")),
                    Method.of("core_memory_replace", MemoryAPI_kv::coreReplace, required("key"), required("value")),
                    Method.of(
                            "core_memory_clear",
                            (b, a, g) -> new Outcome(
                                    self(b).with(OrderedPMap.empty(), self(b).archivalMemory),
                                    g,
                                    dict("status", "Short term memory cleared."))),
                    Method.of(
                            "core_memory_retrieve",
                            (b, a, g) -> new Outcome(b, g, retrieve(self(b).coreMemory, a[0])),
                            required("key")),
                    Method.of("core_memory_list_keys", (b, a, g) -> new Outcome(b, g, listKeys(self(b).coreMemory))),
                    Method.of(
                            "core_memory_key_search",
                            (b, a, g) -> new Outcome(b, g, keySearch(self(b).coreMemory, a[0], a[1])),
                            required("query"),
                            optional("k", BigInteger.valueOf(5))),
                    // returns the dict itself; the result text is rendered at once, so no live view is needed
                    Method.of("core_memory_retrieve_all", (b, a, g) -> new Outcome(b, g, self(b).coreMemory)),
                    Method.of("archival_memory_add", MemoryAPI_kv::archivalAdd, required("key"), required("value")),
                    Method.of("archival_memory_remove", MemoryAPI_kv::archivalRemove, required("key")),
                    Method.of(
                            "archival_memory_replace",
                            MemoryAPI_kv::archivalReplace,
                            required("key"),
                            required("value")),
                    Method.of(
                            "archival_memory_clear",
                            (b, a, g) -> new Outcome(
                                    self(b).with(self(b).coreMemory, OrderedPMap.empty()),
                                    g,
                                    dict("status", "Long term memory cleared."))),
                    Method.of(
                            "archival_memory_retrieve",
                            (b, a, g) -> new Outcome(b, g, retrieve(self(b).archivalMemory, a[0])),
                            required("key")),
                    Method.of(
                            "archival_memory_list_keys",
                            (b, a, g) -> new Outcome(b, g, listKeys(self(b).archivalMemory))),
                    Method.of(
                            "archival_memory_key_search",
                            (b, a, g) -> new Outcome(b, g, keySearch(self(b).archivalMemory, a[0], a[1])),
                            required("query"),
                            optional("k", BigInteger.valueOf(5)))));
}
