package brokkr.domains.bfcl.memory;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.python.PyStrings;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The scripted gold candidate of a memory category, which really uses the memory backend. It knows the scenario's
 * questions and possible answers, and so which facts of the prerequisite conversations matter: the sentence of a
 * user message that states an answer (the one the answer's {@code source} quotes, else the first that contains it,
 * by the checker's normalisation and word boundaries). During the prerequisites it stores each such sentence when
 * the user says it ({@code archival_memory_add} under a key {@code fact_<n>} for memory_kv, {@code memory_append}
 * for memory_rec_sum, {@code archival_memory_add} for memory_vector) and answers every user message with text. At
 * the question it retrieves from memory ({@code archival_memory_retrieve(key)}, {@code memory_retrieve()},
 * {@code archival_memory_retrieve_all()}) and answers in the agentic format with the span of what came back that
 * matches a possible answer; when nothing retrieved holds one it answers "I do not know". A question whose answer
 * occurs in no sentence of the conversations ({@link #underivable}) cannot be answered this way: it gets
 * "I do not know" at once (a model may still derive it: a time rewritten, a count, a yes/no).
 *
 * <p>Offered only {@value JavaRepl#TOOL} (harness loop, action space repl), each step's calls are one snippet of
 * recorder method calls, the retrieval printed. Its position is read off the conversation (the last user message's
 * text), so it plays the same in every harness.
 */
public final class MemoryGold implements Candidate {
    /** A fact to store: where the user states it (prerequisite id, turn, message), the sentence, its key. */
    record Fact(String prereq, int turn, int message, String sentence, String key) {}

    private final MemoryCategory category;
    private final List<Fact> facts = new ArrayList<>();
    /** Question text to its fact (absent: underivable). */
    private final Map<String, Fact> byQuestion = new LinkedHashMap<>();

    private final Map<String, MemoryData.Question> questions = new LinkedHashMap<>();

    public MemoryGold(MemoryData data, MemoryCategory category, String scenario) {
        this.category = category;
        if (!List.of("memory_kv", "memory_rec_sum", "memory_vector").contains(category.id()))
            throw new IllegalArgumentException("no gold strategy for " + category.id());
        record Sentence(String prereq, int turn, int message, String text) {}
        List<Sentence> sentences = new ArrayList<>();
        for (MemoryData.Prereq p : data.prereqs(scenario))
            for (int t = 0; t < p.userTurns().size(); t++)
                for (int m = 0; m < p.userTurns().get(t).size(); m++)
                    for (String s : SENTENCE.split(p.userTurns().get(t).get(m)))
                        sentences.add(new Sentence(p.id(), t, m, s));
        Map<Sentence, Fact> chosen = new LinkedHashMap<>();
        Map<String, Sentence> pick = new LinkedHashMap<>();
        for (MemoryData.Question q : data.questions(scenario)) {
            questions.put(q.text(), q);
            Sentence first = null, sourced = null;
            for (Sentence s : sentences) {
                if (find(s.text(), q.answers()) == null) continue;
                if (first == null) first = s;
                if (quotes(q.source(), s.text())) {
                    sourced = s;
                    break;
                }
            }
            Sentence s = sourced != null ? sourced : first;
            if (s != null) pick.put(q.text(), s);
        }
        // keys in the order the user states the facts
        for (Sentence s : sentences)
            if (pick.containsValue(s) && !chosen.containsKey(s)) {
                Fact f = new Fact(s.prereq(), s.turn(), s.message(), s.text(), "fact_" + chosen.size());
                chosen.put(s, f);
                facts.add(f);
            }
        pick.forEach((q, s) -> byQuestion.put(q, chosen.get(s)));
    }

    /** The upstream ids of the scenario's questions whose answer no sentence of its conversations states. */
    public static List<String> underivable(MemoryData data, String scenario, MemoryCategory category) {
        MemoryGold g = new MemoryGold(data, category, scenario);
        List<String> out = new ArrayList<>();
        for (MemoryData.Question q : data.questions(scenario)) if (!g.byQuestion.containsKey(q.text())) out.add(q.id());
        return out;
    }

    private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+");

    /** Whether {@code source} (a quote with {@code ...} elisions) quotes {@code sentence}. */
    private static boolean quotes(String source, String sentence) {
        for (String f : source.split("\\.\\.\\.")) {
            String frag = f.strip().replaceAll("^[\"“”]+|[\"“”]+$", "").strip();
            if (frag.length() < 8) continue;
            if (sentence.contains(frag.substring(0, Math.min(30, frag.length()))) || frag.contains(sentence))
                return true;
        }
        return false;
    }

    /**
     * The span of {@code text} that matches one of {@code answers} as the checker matches (standardized, between word
     * boundaries), or null.
     */
    static String find(String text, List<String> answers) {
        // standardize_string char by char, keeping where each standardized char came from
        StringBuilder std = new StringBuilder();
        List<Integer> from = new ArrayList<>();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (",./-_*^()".indexOf(c) >= 0) continue;
            String low = PyStrings.lower(String.valueOf(c)).replace('\'', '"');
            for (int k = 0; k < low.length(); k++) {
                std.append(low.charAt(k));
                from.add(i);
            }
        }
        String hay = std.toString();
        for (String a : answers) {
            String needle = AgenticChecker.standardize(a);
            if (needle.isEmpty()) continue;
            for (int i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1))
                if (boundary(hay, i) && boundary(hay, i + needle.length()))
                    return text.substring(from.get(i), from.get(i + needle.length() - 1) + 1);
        }
        return null;
    }

    private static boolean boundary(String s, int i) {
        boolean before = i > 0 && AgenticChecker.isWord(s.codePointBefore(i));
        boolean after = i < s.length() && AgenticChecker.isWord(s.codePointAt(i));
        return before != after;
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        Message last = history.getLast();
        String user = null;
        for (int i = history.size() - 1; i >= 0 && user == null; i--)
            if (history.get(i) instanceof Message.User u) user = u.content();
        MemoryData.Question q = user == null ? null : questions.get(user);
        boolean repl = tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL);
        if (last instanceof Message.Tool) {
            if (q == null) return text("Noted.");
            return text(answer(q, retrieved(history)));
        }
        if (q != null) {
            Fact f = byQuestion.get(q.text());
            if (f == null) return text(answer(q, null));
            return calls(List.of(retrieval(f)), repl, f);
        }
        List<ToolCall> store = new ArrayList<>();
        for (Fact f : facts) if (saidIn(f, user)) store.add(storage(f));
        if (store.isEmpty()) return text("Noted.");
        if (category.id().equals("memory_rec_sum")) {
            // one append of this message's facts
            StringBuilder sb = new StringBuilder();
            for (ToolCall c : store) sb.append(c.arguments().get("text").asStr());
            store = List.of(new ToolCall("store_0", "memory_append", PyDict.of("text", new PyStr(sb.toString()))));
        }
        return calls(store, repl, null);
    }

    private static boolean saidIn(Fact f, String userMessage) {
        return userMessage != null && userMessage.contains(f.sentence());
    }

    private ToolCall storage(Fact f) {
        return switch (category.id()) {
            case "memory_kv" ->
                new ToolCall(
                        "store_" + f.key(),
                        "archival_memory_add",
                        PyDict.builder()
                                .put("key", new PyStr(f.key()))
                                .put("value", new PyStr(f.sentence()))
                                .build());
            case "memory_rec_sum" ->
                new ToolCall(
                        "store_" + f.key(), "memory_append", PyDict.of("text", new PyStr("- " + f.sentence() + "\n")));
            default ->
                new ToolCall("store_" + f.key(), "archival_memory_add", PyDict.of("text", new PyStr(f.sentence())));
        };
    }

    private ToolCall retrieval(Fact f) {
        return switch (category.id()) {
            case "memory_kv" ->
                new ToolCall("recall", "archival_memory_retrieve", PyDict.of("key", new PyStr(f.key())));
            case "memory_rec_sum" -> new ToolCall("recall", "memory_retrieve", PyDict.empty());
            default -> new ToolCall("recall", "archival_memory_retrieve_all", PyDict.empty());
        };
    }

    /**
     * The calls as function calls, or offered only the REPL, as one snippet: the storage calls as they are; a
     * retrieval printed, and of memory_rec_sum's one memory text or memory_vector's archival entries only the fact
     * looked for (the REPL cuts a long output, and the memory is up to 10,000 characters).
     */
    private Turn calls(List<ToolCall> calls, boolean repl, Fact recall) {
        if (!repl) return Turn.of(new Message.Assistant(null, calls));
        StringBuilder code = new StringBuilder();
        for (ToolCall c : calls) {
            String call = JavaApi.recorderCall(c.name(), c.arguments());
            if (recall == null) code.append(call).append(";\n");
            else if (!category.id().equals("memory_kv")) {
                // The fact as the memory holds it: upstream's executor drops the spaces before every '(' of a call
                // string, its string arguments included (stored). memory_rec_sum's one text, or every entry
                // memory_vector's archival_memory_retrieve_all brings back.
                String stored = stored(recall.sentence());
                code.append("String recalled = String.valueOf(")
                        .append(category.id().equals("memory_rec_sum") ? "((java.util.Map<?, ?>) parse(" : "parse(")
                        .append(call)
                        .append(category.id().equals("memory_rec_sum") ? ")).get(\"memory_content\"));\n" : "));\n")
                        .append("String fact = ")
                        .append(JavaApi.lit(stored))
                        .append(";\n")
                        .append("int at = recalled.indexOf(fact);\n")
                        .append(
                                "System.out.println(at < 0 ? \"not in memory\" : recalled.substring(at, at + fact.length()));\n");
            } else code.append("System.out.println(").append(call).append(");\n");
        }
        return Turn.of(new Message.Assistant(
                null, List.of(new ToolCall("snippet", JavaRepl.TOOL, PyDict.of("code", code.toString())))));
    }

    /**
     * What the backend stores of a text sent as a call's string argument: multi_turn_utils
     * {@code process_method_calls} rewrites {@code re.sub(r"\b([a-zA-Z_]\w*)\s*(?=\()", ...)} over the whole call
     * string, so the spaces between a word and a '(' go, inside string literals too.
     */
    static String stored(String text) {
        return CALL_NAME.matcher(text).replaceAll("$1");
    }

    private static final Pattern CALL_NAME =
            Pattern.compile("\\b([a-zA-Z_]\\w*)\\s*(?=\\()", Pattern.UNICODE_CHARACTER_CLASS);

    private static Turn text(String s) {
        return Turn.of(new Message.Assistant(s));
    }

    /** The texts the last step's calls brought back: every string of their JSON results (or the raw text). */
    private static List<String> retrieved(List<Message> history) {
        List<String> out = new ArrayList<>();
        for (int i = history.size() - 1; i >= 0 && history.get(i) instanceof Message.Tool t; i--)
            strings(t.content(), out);
        return out;
    }

    private static void strings(String content, List<String> out) {
        int a = content.indexOf('{'), b = content.lastIndexOf('}');
        if (a >= 0 && b > a) {
            try {
                collect(Json.parse(content.substring(a, b + 1)), out);
                return;
            } catch (RuntimeException e) {
                // not JSON: the raw text
            }
        }
        out.add(content);
    }

    private static void collect(Value v, List<String> out) {
        switch (v) {
            case PyStr s -> out.add(s.value());
            case PyList l -> {
                for (Value x : l) collect(x, out);
            }
            case PyDict d -> {
                for (Map.Entry<String, Value> e : d.entries()) collect(e.getValue(), out);
            }
            default -> {}
        }
    }

    /** The final answer in the agentic format: the matching span of what was retrieved, or "I do not know". */
    private static String answer(MemoryData.Question q, List<String> retrieved) {
        if (retrieved != null)
            for (String r : retrieved) {
                String span = find(r, q.answers());
                if (span != null) return "{'answer': '" + span + "', 'context': 'recalled from my memory'}";
            }
        return "{'answer': 'I do not know', 'context': 'I do not know'}";
    }
}
