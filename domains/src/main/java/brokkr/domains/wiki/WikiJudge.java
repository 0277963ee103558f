package brokkr.domains.wiki;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The optional judge tier of the wiki benchmark: prose faithfulness. Off unless the environment names a model in
 * the role {@value #ROLE} (an experiment file's {@code judge: {provider: ..., model: ...}}, the role tau2's NL judge
 * plays; the model is then part of the environment's content id). For each page under {@code /wiki}, in path
 * order, the judge is asked once: a system message ({@link #SYSTEM_PROMPT}) and a user message carrying the page's
 * path and text and the path and text of every document the page cites ({@link #request}), as JSON. It answers in
 * the strict format the system message documents:
 *
 * <pre>{"claims": [{"claim": "...", "supported": true, "reason": "..."}]}</pre>
 *
 * <p>one entry per claim of the page, {@code supported} a JSON boolean, {@code reason} optional. The answer is read
 * robustly ({@link #parse}): the object may stand alone, in a Markdown code fence, or between words of prose; keys
 * the format does not name are ignored. Anything else (no JSON object, {@code claims} not a list, a claim without a
 * text or with {@code supported} not a boolean) is a {@link JudgeFormatException} naming the page and what was
 * wrong, which the evaluator records as an infrastructure failure of the attempt (the judge's call is recorded
 * with it): a judge that cannot be read is no verdict on the candidate. A call that fails is retried by the judge's
 * provider ({@code max_attempts}); when every attempt fails the attempt is an infrastructure failure too, excluded
 * from scores like any model failure.
 *
 * <p>The verdicts become the checker's {@code faithful} check ({@link WikiChecker}). {@link GoldJudge} is the
 * scripted judge ({@code judge: {provider: scripted, model: gold}}) that answers the same requests from the world's
 * gold, for tests and for runs without a model.
 */
public final class WikiJudge {
    private WikiJudge() {}

    /** The model role of the judge, as experiment files and commands name it. */
    public static final String ROLE = "judge";

    /** What the judge is told: the task and the one answer format that is read. */
    public static final String SYSTEM_PROMPT = """
            You check one page of a wiki against the documents it cites. A claim is a statement the page makes \
            about the world: a fact, a figure, a date, a name, a place, a relation between two things. A claim is \
            supported when it follows from the cited documents: a document states it, or it is computed from what \
            they state (e.g. a duration between two dated events), or the page marks it as outdated or wrong \
            ("formerly", "the blog claims") and a document gives that value. A claim the documents do not make, or \
            contradict, is not supported. Titles, links between pages and lists of sources are not claims.

            Answer with one JSON object and nothing else, in exactly this format:
            {"claims": [{"claim": "<the claim, in the page's words>", "supported": true, "reason": "<why, briefly>"}]}
            List every claim of the page once, in the page's order. "supported" is the JSON boolean true or false. \
            A page that makes no claim: {"claims": []}.""";

    /** One claim of a page as the judge returned it. */
    public record Claim(String claim, boolean supported, String reason) {
        public Claim {
            reason = reason == null ? "" : reason;
        }

        PyDict toValue() {
            return PyDict.of("claim", claim, "supported", PyBool.of(supported), "reason", reason);
        }
    }

    /** The judge's verdicts on a wiki: its name and, per page (path order), the claims it returned. */
    public record Verdicts(String judge, Map<String, List<Claim>> pages) {
        public Verdicts {
            Map<String, List<Claim>> copy = new LinkedHashMap<>();
            pages.forEach((p, cs) -> copy.put(p, List.copyOf(cs)));
            pages = java.util.Collections.unmodifiableMap(copy);
        }

        public int claims() {
            return pages.values().stream().mapToInt(List::size).sum();
        }

        /** Each unsupported claim as {@code PAGE: "CLAIM" (REASON)}, in page order. */
        public List<String> unsupported() {
            List<String> out = new ArrayList<>();
            pages.forEach((p, cs) -> {
                for (Claim c : cs)
                    if (!c.supported())
                        out.add(p + ": \"" + c.claim() + "\"" + (c.reason().isBlank() ? "" : " (" + c.reason() + ")"));
            });
            return out;
        }
    }

    /** The judge answered, but not in the format: no verdict can be read from it. */
    public static final class JudgeFormatException extends RuntimeException {
        public JudgeFormatException(String message) {
            super(message);
        }
    }

    /** The documents the page at {@code path} cites: its links reaching a document, resolved as the checker does. */
    static List<String> cited(String path, String text, Set<String> docs) {
        Set<String> out = new LinkedHashSet<>();
        for (String target : WikiChecker.links(path, text).values()) if (docs.contains(target)) out.add(target);
        return List.copyOf(out);
    }

    /** The user message's first line; the JSON follows it. */
    static final String REQUEST_HEAD = "The page and the documents it cites, as JSON:";

    /** The request's JSON keeps non-ASCII characters as they are (a page's "£" reads as "£"). */
    private static final PyJson.DumpOptions READABLE = PyJson.DumpOptions.DEFAULT.withEnsureAscii(false);

    /** The request for one page: {@link #SYSTEM_PROMPT} and the page with its cited documents, in citation order. */
    public static List<Message> request(String path, String text, Map<String, String> citedDocs) {
        List<Value> ds = new ArrayList<>();
        citedDocs.forEach((p, t) -> ds.add(PyDict.of("path", p, "text", t)));
        PyDict payload = PyDict.of("page", PyDict.of("path", path, "text", text), "documents", PyList.of(ds));
        return List.of(
                new Message.System(SYSTEM_PROMPT),
                new Message.User(REQUEST_HEAD + "\n" + PyJson.dumps(payload, READABLE)));
    }

    /** A request read back (what a scripted judge answers from): the page's path and text, the cited documents. */
    public record Request(String path, String text, Map<String, String> documents) {}

    /** Reads a request made by {@link #request}; IllegalArgumentException for any other conversation. */
    public static Request read(List<Message> history) {
        if (history.size() != 2
                || !(history.get(0) instanceof Message.System s)
                || !s.content().equals(SYSTEM_PROMPT)
                || !(history.get(1) instanceof Message.User u)
                || !u.content().startsWith(REQUEST_HEAD + "\n"))
            throw new IllegalArgumentException("not a wiki judge request");
        PyDict d = Json.parse(u.content().substring(REQUEST_HEAD.length() + 1)).asDict();
        PyDict page = d.get("page").asDict();
        Map<String, String> docs = new LinkedHashMap<>();
        for (Value v : d.get("documents").asList())
            docs.put(v.asDict().get("path").asStr(), v.asDict().get("text").asStr());
        return new Request(page.get("path").asStr(), page.get("text").asStr(), docs);
    }

    /** An answer in the format, as a judge writes it. */
    public static String answer(List<Claim> claims) {
        return PyJson.dumps(
                PyDict.of(
                        "claims",
                        PyList.of(claims.stream().map(c -> (Value) c.toValue()).toList())),
                READABLE);
    }

    /**
     * Asks {@code model} about every page of {@code wiki} (path order), one request each, with the texts of
     * {@code docs} the page cites. A call that fails after the provider's retries, or an answer not in the format,
     * is an {@link InfrastructureFailure} whose message begins {@code judge: page PATH:}.
     */
    public static Verdicts judge(String name, Candidate model, Map<String, String> docs, Map<String, String> wiki)
            throws InfrastructureFailure {
        Map<String, List<Claim>> pages = new LinkedHashMap<>();
        for (var e : new TreeMap<>(wiki).entrySet()) {
            String path = e.getKey();
            Map<String, String> cited = new LinkedHashMap<>();
            for (String d : cited(path, e.getValue(), docs.keySet())) cited.put(d, docs.get(d));
            Turn turn;
            try {
                turn = model.next(request(path, e.getValue(), cited), List.of());
            } catch (InfrastructureFailure f) {
                throw new InfrastructureFailure("judge: page " + path + ": " + f.getMessage(), f.attempts(), f);
            }
            try {
                pages.put(path, parse(turn.message().content()));
            } catch (JudgeFormatException f) {
                throw new InfrastructureFailure("judge: page " + path + ": " + f.getMessage(), turn.calls(), f);
            }
        }
        return new Verdicts(name, pages);
    }

    /**
     * The claims of a judge's answer. The JSON object is the whole answer, or the inside of a Markdown code fence
     * ({@code ```json ... ```}), or the text from the answer's first {@code {} to its last {@code }}; keys other than
     * {@code claims}, {@code claim}, {@code supported} and {@code reason} are ignored. A {@link JudgeFormatException}
     * says what is wrong otherwise.
     */
    public static List<Claim> parse(String content) {
        if (content == null || content.isBlank()) throw new JudgeFormatException("the judge's answer is empty");
        String json = unwrap(content.strip());
        Value data;
        try {
            data = Json.parse(json);
        } catch (Json.JsonFormatException e) {
            throw new JudgeFormatException("the judge's answer is not the JSON object of the format ("
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "); it begins: "
                    + excerpt(content));
        }
        if (!(data instanceof PyDict d))
            throw new JudgeFormatException("the judge's answer is a JSON " + data.typeName() + ", not an object");
        Value claims = d.get("claims");
        if (claims == null)
            throw new JudgeFormatException(
                    "the judge's answer has no \"claims\" (keys: " + String.join(", ", d.keys()) + ")");
        if (!(claims instanceof PyList list))
            throw new JudgeFormatException("\"claims\" is a JSON " + claims.typeName() + ", not a list");
        List<Claim> out = new ArrayList<>();
        int i = 0;
        for (Value v : list.items()) {
            i++;
            if (!(v instanceof PyDict c))
                throw new JudgeFormatException("claim " + i + " is a JSON " + v.typeName() + ", not an object");
            if (!(c.get("claim") instanceof PyStr text))
                throw new JudgeFormatException("claim " + i + " has no \"claim\" text");
            if (!(c.get("supported") instanceof PyBool supported))
                throw new JudgeFormatException("claim " + i + " (\"" + text.value() + "\"): \"supported\" is "
                        + (c.get("supported") == null ? "missing" : "not a JSON boolean: " + c.get("supported")));
            Value reason = c.get("reason");
            out.add(new Claim(text.value(), supported.value(), reason instanceof PyStr r ? r.value() : ""));
        }
        return out;
    }

    /** The JSON of an answer: a code fence's inside, else from the first '{' to the last '}', else the whole. */
    private static String unwrap(String s) {
        if (s.startsWith("```")) {
            int nl = s.indexOf('\n');
            int end = s.lastIndexOf("```");
            if (nl > 0 && end > nl) return s.substring(nl + 1, end).strip();
        }
        if (s.startsWith("{")) return s;
        int from = s.indexOf('{'), to = s.lastIndexOf('}');
        return from >= 0 && to > from ? s.substring(from, to + 1) : s;
    }

    /** The first characters of an answer, quoted, on one line. */
    private static String excerpt(String content) {
        String flat = content.strip().replaceAll("\\s+", " ");
        return "\"" + (flat.length() > 80 ? flat.substring(0, 80) + "..." : flat) + "\"";
    }
}
