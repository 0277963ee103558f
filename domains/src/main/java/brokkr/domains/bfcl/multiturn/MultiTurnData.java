package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyObjects;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's BFCL v4 multi-turn data: the four categories' questions and ground truths
 * ({@code BFCL_v4_multi_turn_*.json}, {@code possible_answer/...}), read from the BFCL data directory
 * ({@link BfclData#locate()}) and verified against the digests pinned in ../shared/upstream/gorilla/MANIFEST.md.
 */
public final class MultiTurnData {
    /** The categories in upstream order. */
    public static final List<String> CATEGORIES =
            List.of("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context");

    static final Map<String, String> DIGESTS = Map.of(
            "BFCL_v4_multi_turn_base.json", "1a21a995d06fd6f20ba55de7bced30ef953ec35e998f502ec2ecf4d66ef1c43a",
            "possible_answer/BFCL_v4_multi_turn_base.json",
                    "1fee67823b317571649177dd89d63969feaae4e810cc7448ee55ba797fb7c8fc",
            "BFCL_v4_multi_turn_long_context.json", "78c3268c5cc8e97c0f4ec6c811b3b9a2bba14323b1830b7a874b06d822749324",
            "possible_answer/BFCL_v4_multi_turn_long_context.json",
                    "e82aa0e839c39d23c64a05834f7ae024d7c9738ec21738ecee78dc876e3d0d18",
            "BFCL_v4_multi_turn_miss_func.json", "87d28ce10e37d864b72de85d5732eef2a867b241d6c1c99b4ae682c9e3ea921c",
            "possible_answer/BFCL_v4_multi_turn_miss_func.json",
                    "69e679b806d1c871b05393a4b95583bb973248e5b8d96c2d7f4ca05e29fc32e6",
            "BFCL_v4_multi_turn_miss_param.json", "f0c66dda3795f5f53e3e1c0cc8ba0246b6761c8f58bdba8317203bf451ab8838",
            "possible_answer/BFCL_v4_multi_turn_miss_param.json",
                    "59c442901779e2c31c33abcd566d032e03736e5ad8069de2fe05489873046ecf");

    /**
     * One task: its id and category, the user turns ({@code question}), {@code initial_config} as a
     * Python dict, {@code involved_classes}, {@code missed_function} (turn index to held-out function
     * names; empty outside miss_func) and the ground truth (per turn, the call strings).
     */
    public record Task(
            String id,
            String category,
            PyList question,
            Map<Object, Object> initialConfig,
            List<String> involvedClasses,
            Map<Integer, List<String>> missedFunction,
            List<List<String>> groundTruth,
            TaskSetup setup) {
        /**
         * The task with its {@link TaskSetup}, made once: the executor keeps what it works out per task (call
         * strings rewritten to address the instances, the pristine world) by the setup's identity, and a new setup
         * per record made every record of the corpora work it out again.
         */
        public Task(
                String id,
                String category,
                PyList question,
                Map<Object, Object> initialConfig,
                List<String> involvedClasses,
                Map<Integer, List<String>> missedFunction,
                List<List<String>> groundTruth) {
            this(
                    id,
                    category,
                    question,
                    initialConfig,
                    involvedClasses,
                    missedFunction,
                    groundTruth,
                    new TaskSetup(id, involvedClasses, initialConfig, TaskSetup.isLongContext(id)));
        }
    }

    private final Map<String, Task> tasks;

    private MultiTurnData(Map<String, Task> tasks) {
        this.tasks = tasks;
    }

    public static MultiTurnData load() {
        return load(BfclData.locate());
    }

    /** Reads the four categories from a gorilla data directory, verifying each file's digest. */
    public static MultiTurnData load(Path dir) {
        Map<String, Task> tasks = new LinkedHashMap<>();
        for (String c : CATEGORIES) {
            List<Value> questions = readLines(dir, "BFCL_v4_" + c + ".json");
            List<Value> answers = readLines(dir, "possible_answer/BFCL_v4_" + c + ".json");
            if (questions.size() != answers.size()) {
                throw new BfclData.BfclDataException(
                        c + ": " + answers.size() + " answers for " + questions.size() + " questions");
            }
            for (int i = 0; i < questions.size(); i++) {
                PyDict q = questions.get(i).asDict();
                PyDict a = answers.get(i).asDict();
                String id = q.get("id").asStr();
                if (!a.get("id").asStr().equals(id)) {
                    throw new BfclData.BfclDataException(c + ": answer line " + (i + 1) + " is "
                            + a.get("id").asStr() + ", expected " + id);
                }
                @SuppressWarnings("unchecked")
                Map<Object, Object> config = (Map<Object, Object>) PyObjects.fromValue(q.get("initial_config"));
                List<String> classes = new ArrayList<>();
                for (Value v : q.get("involved_classes").asList()) classes.add(v.asStr());
                Map<Integer, List<String>> missed = new LinkedHashMap<>();
                Value mf = q.get("missed_function");
                if (mf instanceof PyDict d) {
                    for (Map.Entry<String, Value> e : d.entries()) {
                        List<String> names = new ArrayList<>();
                        for (Value v : e.getValue().asList()) names.add(v.asStr());
                        missed.put(Integer.parseInt(e.getKey()), List.copyOf(names));
                    }
                }
                List<List<String>> gt = new ArrayList<>();
                for (Value turn : a.get("ground_truth").asList()) {
                    List<String> calls = new ArrayList<>();
                    for (Value call : turn.asList()) calls.add(call.asStr());
                    gt.add(List.copyOf(calls));
                }
                tasks.put(
                        id,
                        new Task(
                                id,
                                c,
                                q.get("question").asList(),
                                config,
                                List.copyOf(classes),
                                missed,
                                List.copyOf(gt)));
            }
        }
        return new MultiTurnData(tasks);
    }

    public Task task(String id) {
        return tasks.get(id);
    }

    public List<Task> all() {
        return List.copyOf(tasks.values());
    }

    private static List<Value> readLines(Path dir, String rel) {
        return BfclData.readPinnedLines(dir, rel, DIGESTS);
    }
}
