package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.multiturn.Backends;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A memory category as upstream names it ({@code memory_kv}, {@code memory_vector}, {@code memory_rec_sum}) with its
 * backend class ({@code MemoryAPI_<type>}, {@code utils.extract_memory_backend_type}) and the backend's function
 * docs ({@code MULTI_TURN_FUNC_DOC_FILE_MAPPING}, digests of ../shared/upstream/gorilla/MANIFEST.md). A category is
 * offered when its backend class is present ({@link Backends#find}): enabling one is its entry in {@link #ALL} and
 * its class.
 */
public record MemoryCategory(String id, String backend, String docFile, String docDigest) {
    /** Upstream's three, in its order (eval_runner_helper's agentic columns). */
    public static final List<MemoryCategory> ALL = List.of(
            new MemoryCategory(
                    "memory_kv",
                    "MemoryAPI_kv",
                    "multi_turn_func_doc/memory_kv.json",
                    "96480cd9cbd3d4a34cd8f78879bc6622731768a26e080f7a34782e36e3402287"),
            new MemoryCategory(
                    "memory_vector",
                    "MemoryAPI_vector",
                    "multi_turn_func_doc/memory_vector.json",
                    "917908ca99fdd01e203274b7ec6eb2347fa91d57f3c6341e20945cc9c9d746cf"),
            new MemoryCategory(
                    "memory_rec_sum",
                    "MemoryAPI_rec_sum",
                    "multi_turn_func_doc/memory_rec_sum.json",
                    "4ceff946df00983c7f0b95d1b70ae402247f3312fb898bac9ecfa1de52f5a783"));

    /** Whether the backend's implementation is present. */
    public boolean present() {
        return Backends.find(backend).isPresent();
    }

    /** The categories whose backend is present, in upstream's order. */
    public static List<MemoryCategory> available() {
        List<MemoryCategory> out = new ArrayList<>();
        for (MemoryCategory c : ALL) if (c.present()) out.add(c);
        return out;
    }

    public static List<String> availableIds() {
        return available().stream().map(MemoryCategory::id).toList();
    }

    /** The category {@code id}, if it is one of upstream's memory categories and its backend is present. */
    public static MemoryCategory of(String id) {
        for (MemoryCategory c : ALL)
            if (c.id.equals(id)) {
                if (!c.present())
                    throw new IllegalArgumentException(
                            "memory category " + id + " needs backend " + c.backend + ", which is not present");
                return c;
            }
        throw new IllegalArgumentException(
                "unknown memory category '" + id + "' (known: " + String.join(", ", availableIds()) + ")");
    }

    /** Whether {@code id} names one of upstream's memory categories (present or not). */
    public static boolean isMemory(String id) {
        return ALL.stream().anyMatch(c -> c.id.equals(id));
    }

    /** The category of a task id ({@code memory_kv_3-customer-3}: {@code memory_kv}). */
    public static MemoryCategory ofTask(String taskId) {
        return of(MemoryRun.categoryOf(taskId));
    }

    /** The data files of a task of this category, relative to the data directory, with their digests. */
    public Map<String, String> digests(String scenario) {
        String prereq = "memory_prereq_conversation/memory_" + scenario + ".json";
        return Map.of(
                "BFCL_v4_memory.json",
                MemoryData.DIGESTS.get("BFCL_v4_memory.json"),
                "possible_answer/BFCL_v4_memory.json",
                MemoryData.DIGESTS.get("possible_answer/BFCL_v4_memory.json"),
                prereq,
                MemoryData.DIGESTS.get(prereq),
                docFile,
                docDigest);
    }
}
