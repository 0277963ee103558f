package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Scenario;
import brokkr.domains.bfcl.multiturn.StateDump;
import brokkr.python.PyException;
import brokkr.python.PyJson;
import brokkr.python.PyObjects;
import brokkr.value.Json;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.PMap;
import org.pcollections.TreePMap;

/**
 * The files upstream's memory backends keep under {@code model_result_dir} (the snapshot of every prerequisite entry
 * and each scenario's {@code <scenario>_final.json}), as a value of the world: a {@link Globals} cell mapping a path
 * relative to {@code model_result_dir} to the file's text, so a fork of the world forks the disk too. Texts are what
 * {@code json.dump(..., indent=4)} writes, byte for byte.
 */
public final class MemorySnapshots {
    private MemorySnapshots() {}

    /** The cell of the files (path relative to model_result_dir to text). */
    static final String CELL = "MemoryAPI.files";

    /** What {@code _prepare_snapshot} worked out for an instance: where it flushes, and the snapshot it loaded. */
    record Prepared(String testId, String scenario, String snapshotFolder, String latestSnapshotFile) {}

    /** Every file written so far, by path (sorted). */
    @SuppressWarnings("unchecked")
    public static PMap<String, String> files(Globals g) {
        return (PMap<String, String>) g.get(CELL, TreePMap::empty);
    }

    static Globals write(Globals g, String path, String text) {
        return g.with(CELL, files(g).plus(path, text));
    }

    /**
     * {@code MemoryAPI._prepare_snapshot(initial_config)}'s paths: the snapshot folder ({@code prereq_checkpoints}
     * for a prerequisite entry) and the scenario's final file.
     */
    static Prepared prepare(Object config) {
        Map<?, ?> c = Scenario.dict(config);
        String dir = PyObjects.str(required(c, "model_result_dir"));
        String testId = strField(c, "test_id");
        String scenario = strField(c, "scenario");
        String base = join(dir, directoryOf(testId)) + "/memory_snapshot";
        String folder = testId.contains("prereq") ? base + "/prereq_checkpoints" : base;
        String latest = base + "/" + scenario + "_final.json";
        return new Prepared(testId, scenario, folder, latest);
    }

    /**
     * The rest of {@code _prepare_snapshot}: no snapshot for the first prerequisite entry
     * ({@code is_first_memory_prereq_entry}) or when the file is missing (upstream prints a warning and starts
     * empty), else {@code json.load} of the scenario's final file as it is when the instance is made.
     */
    static Map<?, ?> load(Prepared p, Globals g) {
        if (p.testId().contains("prereq") && p.testId().endsWith("-0")) return null;
        String text = files(g).get(p.latestSnapshotFile());
        if (text == null) return null;
        Object v = PyObjects.fromValue(Json.parse(text));
        if (!(v instanceof Map<?, ?> m)) throw PyException.typeError("memory snapshot is not a JSON object");
        return m;
    }

    private static Object required(Map<?, ?> c, String key) {
        Object v = PyObjects.get(c, key, null);
        if (v == null) throw PyException.keyError(key);
        return v;
    }

    private static String strField(Map<?, ?> c, String key) {
        Object v = required(c, key);
        if (v instanceof String s) return s;
        throw PyException.typeError(key + " must be a str, not " + PyObjects.typeName(v));
    }

    private static String join(String dir, String rel) {
        return dir.isEmpty() ? rel : dir.endsWith("/") ? dir + rel : dir + "/" + rel;
    }

    /**
     * utils.get_directory_structure_by_id: {@code agentic/memory/<backend>} with the backend from
     * {@code extract_test_category_from_id(test_id, remove_prereq=True)[len("memory_"):]}.
     */
    static String directoryOf(String testId) {
        String id = testId.replace("_prereq", "");
        if (id.contains(":")) id = id.substring(0, id.indexOf(':'));
        int us = id.lastIndexOf('_');
        String category = us < 0 ? id : id.substring(0, us);
        if (!category.contains("memory")) throw PyException.valueError("Invalid test category: " + testId);
        return "agentic/memory/" + category.substring(Math.min("memory_".length(), category.length()));
    }

    /** {@code json.dump(obj, f, indent=4)}: ASCII-escaped, four-space indent. */
    static String dumpIndented(Object obj) {
        return PyJson.dumps(StateDump.render(obj), new PyJson.DumpOptions(false, 4, true));
    }

    /** Both files {@code _flush_memory_to_local_file} writes: the entry's checkpoint and the scenario's final file. */
    static Globals flush(Globals g, Prepared p, OrderedPMap<Object, Object> snapshot) {
        String text = dumpIndented(snapshot);
        return write(write(g, p.snapshotFolder() + "/" + p.testId() + ".json", text), p.latestSnapshotFile(), text);
    }
}
