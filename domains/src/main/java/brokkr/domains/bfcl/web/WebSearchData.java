package brokkr.domains.bfcl.web;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.memory.MemoryPrompts;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.python.PyObjects;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code web_search} data ({@code BFCL_v4_web_search.json}, its possible answers and
 * {@code multi_turn_func_doc/web_search.json}, digests pinned from ../shared/upstream/gorilla/MANIFEST.md) and the
 * tasks of its two categories as upstream's generation prepares them: {@code WEB_SEARCH_CATEGORY} =
 * {@code web_search_base}, {@code web_search_no_snippet}, both over the same questions, the id's
 * {@code web_search} replaced by the category ({@code utils.process_web_search_test_case}); the agentic response
 * format's system message first in the question ({@code process_agentic_test_case}); {@code initial_config =
 * {"WebSearchAPI": {"show_snippet": "no_snippet" not in id}}} ({@code populate_initial_settings_for_web_search_test_cases}),
 * plus the IO the instance is to use ({@link WebSearchAPI#IO_KEY}).
 */
public final class WebSearchData {
    public static final List<String> CATEGORIES = List.of("web_search_base", "web_search_no_snippet");
    public static final String CLASS = "WebSearchAPI";
    static final String QUESTIONS = "BFCL_v4_web_search.json",
            ANSWERS = "possible_answer/BFCL_v4_web_search.json",
            DOC = "multi_turn_func_doc/web_search.json";
    public static final Map<String, String> DIGESTS = Map.of(
            QUESTIONS, "6fc41d96d003dc849028966a782923560d2fc127ed2088aa967f06daaafa4268",
            ANSWERS, "771cab45fdad5744563456801d4623a42c5a358f10514b9b9105d2f6052b4999",
            DOC, "61fcee411e35f7ff67415e18cd67276615cf06e1c8841a683d2d997dbb46eac5");

    /**
     * One upstream question: its number, the user question (as upstream's file has it), the accepted answers and the
     * possible answer's {@code source} subquestions (what the scripted {@code gold} candidate searches for).
     */
    public record Question(int index, PyList question, List<String> groundTruth, List<String> subquestions) {}

    private final List<Question> questions;
    private final List<PyDict> docs;

    private WebSearchData(List<Question> questions, List<PyDict> docs) {
        this.questions = questions;
        this.docs = docs;
    }

    public static WebSearchData load() {
        return load(BfclData.locate());
    }

    public static WebSearchData load(Path dir) {
        List<Value> qs = BfclData.readPinnedLines(dir, QUESTIONS, DIGESTS);
        List<Value> as = BfclData.readPinnedLines(dir, ANSWERS, DIGESTS);
        if (qs.size() != as.size())
            throw new BfclData.BfclDataException(
                    "web_search: " + as.size() + " answers for " + qs.size() + " questions");
        List<Question> out = new ArrayList<>();
        for (int i = 0; i < qs.size(); i++) {
            PyDict q = qs.get(i).asDict(), a = as.get(i).asDict();
            String id = q.get("id").asStr();
            if (!id.equals("web_search_" + i) || !a.get("id").asStr().equals(id))
                throw new BfclData.BfclDataException("web_search: line " + (i + 1) + " is " + id + " / "
                        + a.get("id").asStr() + ", expected web_search_" + i);
            List<String> gt = new ArrayList<>();
            for (Value v : a.get("ground_truth").asList()) gt.add(v.asStr());
            List<String> subs = new ArrayList<>();
            Value src = a.get("source");
            if (src instanceof PyList l)
                for (Value v : l.items())
                    if (v instanceof PyDict d && d.get("subquestion") instanceof PyStr sq) subs.add(sq.asStr());
            out.add(new Question(i, q.get("question").asList(), List.copyOf(gt), List.copyOf(subs)));
        }
        List<PyDict> docs = new ArrayList<>();
        for (Value v : BfclData.readPinnedLines(dir, DOC, DIGESTS)) docs.add(v.asDict());
        return new WebSearchData(List.copyOf(out), List.copyOf(docs));
    }

    public List<Question> questions() {
        return questions;
    }

    /** {@code WebSearchAPI}'s function docs ({@code multi_turn_func_doc/web_search.json}). */
    public List<PyDict> docs() {
        return docs;
    }

    /** The task ids of a category, in upstream's order. */
    public List<String> ids(String category) {
        if (!CATEGORIES.contains(category))
            throw new IllegalArgumentException(
                    "unknown web_search category '" + category + "' (" + String.join(", ", CATEGORIES) + ")");
        List<String> out = new ArrayList<>();
        for (Question q : questions) out.add(category + "_" + q.index());
        return out;
    }

    /** The category of a task id ({@code web_search_base_3}: {@code web_search_base}). */
    public static String categoryOf(String id) {
        int us = id.lastIndexOf('_');
        String c = us < 0 ? id : id.substring(0, us);
        if (!CATEGORIES.contains(c)) throw new IllegalArgumentException("not a web_search task id: " + id);
        return c;
    }

    /** The question of a task id. */
    public Question question(String id) {
        categoryOf(id);
        int n;
        try {
            n = Integer.parseInt(id.substring(id.lastIndexOf('_') + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a web_search task id: " + id);
        }
        if (n < 0 || n >= questions.size()) throw new IllegalArgumentException("unknown web_search task " + id);
        return questions.get(n);
    }

    /** The task {@code id} as upstream's generation prepares it, its instance's IO through {@code io}. */
    public MultiTurnData.Task task(String id, WebIo io) {
        String category = categoryOf(id);
        Question q = question(id);
        List<Value> turns = new ArrayList<>(q.question().items());
        List<Value> first = new ArrayList<>(turns.getFirst().asList().items());
        first.addFirst(PyDict.builder()
                .put("role", new PyStr("system"))
                .put("content", new PyStr(MemoryPrompts.AGENTIC_RESPONSE_FORMAT))
                .build());
        turns.set(0, PyList.of(first));
        Map<Object, Object> config = PyObjects.dict(
                CLASS, PyObjects.dict("show_snippet", !category.contains("no_snippet"), WebSearchAPI.IO_KEY, io));
        Map<Integer, List<String>> missed = new LinkedHashMap<>();
        return new MultiTurnData.Task(id, category, PyList.of(turns), config, List.of(CLASS), missed, List.of());
    }
}
