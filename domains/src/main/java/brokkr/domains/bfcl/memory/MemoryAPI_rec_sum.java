package brokkr.domains.bfcl.memory;

import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * gorilla {@code func_source_code/memory_rec_sum.py} {@code MemoryAPI_rec_sum}: one memory text of at most 10,000
 * characters that the model appends to, rewrites and edits (recursive summarisation); shown whole in the system
 * prompt.
 */
@SuppressWarnings("checkstyle:TypeName")
public record MemoryAPI_rec_sum(String memory, MemorySnapshots.Prepared prepared) implements MemoryBackend {
    static final int MAX_MEMORY_ENTRY_LENGTH = 10_000;

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("memory", memory);
        return m;
    }

    @Override
    public Globals flush(Globals g) {
        return MemorySnapshots.flush(g, prepared, dict("memory", memory));
    }

    @Override
    public String contextDump() {
        return memory.isEmpty() ? "There is no content in the memory at this point." : memory;
    }

    private static Outcome load(Object config, boolean longContext, Globals g) {
        MemorySnapshots.Prepared p = MemorySnapshots.prepare(config);
        Map<?, ?> data = MemorySnapshots.load(p, g);
        String memory = "";
        if (data != null && !data.isEmpty()) {
            Object m = PyObjects.get(data, "memory", null);
            if (m == null) throw PyException.keyError("memory");
            // upstream asserts isinstance(self.memory, str)
            if (!(m instanceof String s))
                throw new PyException(
                        "AssertionError",
                        "Memory data should be a string, but got <class '" + PyObjects.typeName(m) + "'> instead.");
            memory = s;
        }
        return new Outcome(new MemoryAPI_rec_sum(memory, p), g, PyNone.NONE);
    }

    private static MemoryAPI_rec_sum self(Backend b) {
        return (MemoryAPI_rec_sum) b;
    }

    private MemoryAPI_rec_sum with(String m) {
        return new MemoryAPI_rec_sum(m, prepared);
    }

    private static String str(Object o) {
        return PyObjects.str(o, BfclData.PYTHON);
    }

    private static int len(String s) {
        return s.codePointCount(0, s.length());
    }

    private static Outcome append(Backend b, Object[] a, Globals g) {
        MemoryAPI_rec_sum t = self(b);
        String combined = t.memory + str(a[0]);
        if (len(combined) > MAX_MEMORY_ENTRY_LENGTH)
            return new Outcome(
                    t,
                    g,
                    dict(
                            "error",
                            "Entry will be too long after appending. Please shorten the entry to less than "
                                    + MAX_MEMORY_ENTRY_LENGTH + " characters."));
        return new Outcome(t.with(combined), g, dict("status", "Memory appended."));
    }

    private static Outcome update(Backend b, Object[] a, Globals g) {
        MemoryAPI_rec_sum t = self(b);
        String text = str(a[0]);
        if (len(text) > MAX_MEMORY_ENTRY_LENGTH)
            return new Outcome(
                    t,
                    g,
                    dict(
                            "error",
                            "Entry will be too long after updating. Please shorten the entry to less than "
                                    + MAX_MEMORY_ENTRY_LENGTH + " characters."));
        return new Outcome(t.with(text), g, dict("status", "Memory updated."));
    }

    /** memory_replace: {@code old_text in memory}, then only the new text's length (not the result's). */
    private static Outcome replace(Backend b, Object[] a, Globals g) {
        MemoryAPI_rec_sum t = self(b);
        String oldText = str(a[0]), newText = str(a[1]);
        if (!t.memory.contains(oldText))
            return new Outcome(t, g, dict("error", "Text '" + oldText + "' not found in memory."));
        if (len(newText) > MAX_MEMORY_ENTRY_LENGTH)
            return new Outcome(
                    t,
                    g,
                    dict(
                            "error",
                            "Entry will be too long after replacing. Please shorten the entry to less than "
                                    + MAX_MEMORY_ENTRY_LENGTH + " characters."));
        return new Outcome(t.with(pyReplace(t.memory, oldText, newText)), g, dict("status", "Memory updated."));
    }

    /** {@code s.replace(old, new)}: an empty {@code old} inserts {@code new} around every code point, as CPython. */
    static String pyReplace(String s, String old, String replacement) {
        if (!old.isEmpty()) return s.replace(old, replacement);
        StringBuilder sb = new StringBuilder(replacement);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            sb.appendCodePoint(cp).append(replacement);
            i += Character.charCount(cp);
        }
        return sb.toString();
    }

    private static Outcome retrieve(Backend b, Object[] a, Globals g) {
        MemoryAPI_rec_sum t = self(b);
        if (t.memory.isEmpty()) return new Outcome(t, g, dict("error", "Memory is empty."));
        return new Outcome(t, g, dict("memory_content", t.memory));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "MemoryAPI_rec_sum",
            false,
            MemoryAPI_rec_sum::load,
            List.of(
                    Method.of("memory_append", MemoryAPI_rec_sum::append, required("text")),
                    Method.of("memory_update", MemoryAPI_rec_sum::update, required("text")),
                    Method.of(
                            "memory_clear",
                            (b, a, g) ->
                                    new Outcome(self(b).with(""), g, dict("status", "Short term memory cleared."))),
                    Method.of("memory_replace", MemoryAPI_rec_sum::replace, required("old_text"), required("new_text")),
                    Method.of("memory_retrieve", MemoryAPI_rec_sum::retrieve)));
}
