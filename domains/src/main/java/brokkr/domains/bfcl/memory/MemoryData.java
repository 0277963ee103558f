package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.MultiTurnTools;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's memory data ({@code BFCL_v4_memory.json}, its possible answers, {@code memory_prereq_conversation/}),
 * read from the BFCL data directory and verified against the digests of ../shared/upstream/gorilla/MANIFEST.md, with
 * ids as {@code utils.process_memory_test_case} makes them for a backend ({@code memory_} becomes
 * {@code memory_<backend>_}).
 */
public final class MemoryData {
    /** {@code MEMORY_SCENARIO_NAME}, in upstream's order. */
    public static final List<String> SCENARIOS = List.of("student", "customer", "finance", "healthcare", "notetaker");

    static final Map<String, String> DIGESTS = Map.of(
            "BFCL_v4_memory.json", "40fc21d4528af53c6b44204def89e81515d0101654229e2c2e82bbf5f047b14f",
            "possible_answer/BFCL_v4_memory.json", "2355cf8d842f94af6bcb7bfa6ad2f9e472bc6d825d6ecd45702cfc41e27d7e5d",
            "memory_prereq_conversation/memory_customer.json",
                    "806ac91e558e3d933e526ecc0c286e417657f76a3c9b9073eef830a532eb4eb2",
            "memory_prereq_conversation/memory_finance.json",
                    "3cef1f235667f479b8f45c7082247454b2129ee88fe4fbcdbc53fd2cdf495b75",
            "memory_prereq_conversation/memory_healthcare.json",
                    "56e7bd7b2e7c01efe81f1e0be85149ea3886bb2d9cb59f90e9d9e27b91f4604d",
            "memory_prereq_conversation/memory_notetaker.json",
                    "07f3239ef2e9e1421901f05d3c8192469fa129324e124a47bcb35ff9c7785c91",
            "memory_prereq_conversation/memory_student.json",
                    "e2d6c32e9e2671c61f682e845dcdafd9eee7c9f3e2d5da1615d3afd2aeecf2f0");

    /** A prerequisite conversation entry: upstream id (before the backend is put in), topic, user turns. */
    public record Prereq(String id, String scenario, String topic, List<List<String>> userTurns) {}

    /** A memory question: upstream id, scenario, its user message, the possible answers, the answer's source (a quote of the prerequisite conversation). */
    public record Question(String id, String scenario, String text, List<String> answers, String source) {}

    private final Map<String, List<Prereq>> prereqs;
    private final List<Question> questions;
    private final MultiTurnTools tools;

    private MemoryData(Map<String, List<Prereq>> prereqs, List<Question> questions, MultiTurnTools tools) {
        this.prereqs = prereqs;
        this.questions = questions;
        this.tools = tools;
    }

    /**
     * The function docs of the memory backends ({@code multi_turn_func_doc/memory_*.json}) by class name, offered as
     * {@code populate_test_cases_with_predefined_functions} offers them (the Python hint appended).
     */
    public MultiTurnTools tools() {
        return tools;
    }

    /** The question of upstream id {@code id} (e.g. {@code memory_3-customer-3}), or null. */
    public Question question(String id) {
        for (Question q : questions) if (q.id().equals(id)) return q;
        return null;
    }

    public static MemoryData load() {
        return load(BfclData.locate());
    }

    public static MemoryData load(Path dir) {
        Map<String, List<Prereq>> prereqs = new LinkedHashMap<>();
        for (String s : SCENARIOS) {
            List<Prereq> list = new ArrayList<>();
            for (Value v : readLines(dir, "memory_prereq_conversation/memory_" + s + ".json")) {
                PyDict d = v.asDict();
                List<List<String>> turns = new ArrayList<>();
                for (Value turn : d.get("question").asList()) {
                    List<String> msgs = new ArrayList<>();
                    for (Value m : turn.asList()) {
                        if (!m.asDict().get("role").asStr().equals("user"))
                            throw new BfclData.BfclDataException(
                                    d.get("id").asStr() + ": a message that is not the user's");
                        msgs.add(m.asDict().get("content").asStr());
                    }
                    turns.add(List.copyOf(msgs));
                }
                list.add(new Prereq(d.get("id").asStr(), s, d.get("topic").asStr(), List.copyOf(turns)));
            }
            prereqs.put(s, List.copyOf(list));
        }
        List<Value> qs = readLines(dir, "BFCL_v4_memory.json");
        List<Value> as = readLines(dir, "possible_answer/BFCL_v4_memory.json");
        if (qs.size() != as.size())
            throw new BfclData.BfclDataException("memory: " + as.size() + " answers for " + qs.size() + " questions");
        List<Question> questions = new ArrayList<>();
        for (int i = 0; i < qs.size(); i++) {
            PyDict q = qs.get(i).asDict(), a = as.get(i).asDict();
            String id = q.get("id").asStr();
            if (!a.get("id").asStr().equals(id))
                throw new BfclData.BfclDataException(
                        "memory: answer line " + (i + 1) + " is " + a.get("id").asStr());
            List<Value> turns = q.get("question").asList().items();
            if (turns.size() != 1 || turns.getFirst().asList().size() != 1)
                throw new BfclData.BfclDataException(id + ": a memory question is one turn of one message");
            List<String> answers = new ArrayList<>();
            for (Value v : a.get("ground_truth").asList()) answers.add(v.asStr());
            questions.add(new Question(
                    id,
                    q.get("scenario").asStr(),
                    turns.getFirst().asList().get(0).asDict().get("content").asStr(),
                    List.copyOf(answers),
                    a.get("source") == null ? "" : a.get("source").asStr()));
        }
        Map<String, List<PyDict>> docs = new LinkedHashMap<>();
        for (MemoryCategory c : MemoryCategory.ALL) {
            List<PyDict> d = new ArrayList<>();
            for (Value v : BfclData.readPinnedLines(dir, c.docFile(), Map.of(c.docFile(), c.docDigest())))
                d.add(v.asDict());
            docs.put(c.backend(), List.copyOf(d));
        }
        return new MemoryData(prereqs, List.copyOf(questions), MultiTurnTools.of(docs));
    }

    /** The scenario's prerequisite entries, in file order. */
    public List<Prereq> prereqs(String scenario) {
        List<Prereq> p = prereqs.get(scenario);
        if (p == null) throw new IllegalArgumentException("unknown memory scenario '" + scenario + "'");
        return p;
    }

    public List<Question> questions() {
        return questions;
    }

    public List<Question> questions(String scenario) {
        return questions.stream().filter(q -> q.scenario().equals(scenario)).toList();
    }

    /** {@code entry["id"].replace("memory", test_category)}: e.g. {@code memory_kv_prereq_22-student-0}. */
    public static String idFor(String upstreamId, String category) {
        return upstreamId.replace("memory", category);
    }

    private static List<Value> readLines(Path dir, String rel) {
        return BfclData.readPinnedLines(dir, rel, DIGESTS);
    }
}
