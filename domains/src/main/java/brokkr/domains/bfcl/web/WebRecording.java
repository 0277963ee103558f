package brokkr.domains.bfcl.web;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.IoFailure;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The web IO of BFCL's {@code web_search} category, recorded once with network access ({@code ./brokkr bfcl
 * record-web}) and replayed by everyone: what upstream's {@code WebSearchAPI} (gorilla
 * {@code func_source_code/web_search.py}) would have received from SerpAPI and from the pages it fetched. Replay
 * answers only from the file: a search or fetch the file does not hold is an {@link IoFailure} (the recording is
 * incomplete, not the model wrong), never an empty result.
 *
 * <p>Format (version {@value #VERSION}), UTF-8 JSON Lines. Line 1 is the header:
 * <pre>{"format":"brokkr-bfcl-web-recording","version":1,"upstream":"gorilla@6ea5797…","entries":N,
 *  "entries_sha256":"…"}</pre>
 * {@code entries_sha256} is the sha256 of the entry lines that follow, each with its {@code \n}: a file cut short or
 * changed is refused, naming the file. Then one line per entry, in the order first seen:
 * <ul>
 *   <li>{@code {"search":{"q":Q,"kl":KL},"response":R}}: the SerpAPI request {@code search_engine_query} makes
 *       ({@code engine=duckduckgo}, {@code q=keywords}, {@code kl=region}; the key is never recorded) and the dict
 *       {@code GoogleSearch(params).get_dict()} returned, reduced to what upstream reads: {@code error}, or
 *       {@code organic_results} with each result's {@code title}, {@code link} and {@code snippet} (a field SerpAPI
 *       left out stays out). Q and KL are the parameter values as {@code requests} sends them ({@code str()} of a
 *       scalar; null for None, which {@code requests} drops; for a list, which {@code requests} sends as one parameter
 *       per item, the items' {@code str()} joined by U+0000). {@code max_results} and {@code show_snippet} are applied
 *       at replay, as upstream applies them after the call.</li>
 *   <li>{@code {"search":{...},"raised":MSG}}: {@code get_dict()} raised; MSG is {@code str(e)}.</li>
 *   <li>{@code {"fetch":URL,"text":T}}: {@code requests.get(URL, ...)} with {@code raise_for_status()} passing;
 *       T is {@code response.text}. The page is recorded once per URL: the modes are upstream's processing of it.</li>
 *   <li>{@code {"fetch":URL,"raised":MSG}}: {@code requests.get} or {@code raise_for_status} raised; MSG is
 *       {@code str(e)} (e.g. {@code 404 Client Error: Not Found for url: https://…}).</li>
 * </ul>
 * The recording's {@link #sha256()} is the sha256 of the file's bytes; it is part of an environment's content id.
 */
public final class WebRecording {
    public static final String FORMAT = "brokkr-bfcl-web-recording";
    public static final int VERSION = 1;

    /** A search request: the {@code q} and {@code kl} parameters as sent (null: not sent). */
    public record Query(String q, String kl) {
        Value toValue() {
            return PyDict.builder()
                    .put("q", q == null ? PyNone.NONE : new PyStr(q))
                    .put("kl", kl == null ? PyNone.NONE : new PyStr(kl))
                    .build();
        }
    }

    /** What a request got: a value ({@code response} dict or page {@code text}), or the text of what it raised. */
    public record Outcome(Value response, String text, String raised) {
        public static Outcome searched(PyDict response) {
            return new Outcome(response, null, null);
        }

        public static Outcome fetched(String text) {
            return new Outcome(null, text, null);
        }

        public static Outcome raised(String message) {
            return new Outcome(null, null, message);
        }
    }

    /** A file that is not a whole recording of this format: names the file and what is wrong. */
    public static final class WebRecordingException extends RuntimeException {
        public WebRecordingException(String message) {
            super(message);
        }
    }

    private final Map<Query, Outcome> searches;
    private final Map<String, Outcome> fetches;
    private final String sha256;
    private final String source;

    private WebRecording(Map<Query, Outcome> searches, Map<String, Outcome> fetches, String sha256, String source) {
        this.searches = searches;
        this.fetches = fetches;
        this.sha256 = sha256;
        this.source = source;
    }

    /** The sha256 of the recording's bytes (as written or read). */
    public String sha256() {
        return sha256;
    }

    /** Where it came from (a file name), for error messages. */
    public String source() {
        return source;
    }

    public int searchCount() {
        return searches.size();
    }

    public int fetchCount() {
        return fetches.size();
    }

    /** The recorded outcome of a search; an {@link IoFailure} when the recording has none. */
    public Outcome search(Query q) {
        Outcome o = searches.get(q);
        if (o == null)
            throw new IoFailure("web recording " + source + " has no search for q=" + show(q.q()) + ", kl="
                    + show(q.kl()) + " (the recording is incomplete: record it again with ./brokkr bfcl record-web)");
        return o;
    }

    /** The recorded outcome of fetching {@code url}; an {@link IoFailure} when the recording has none. */
    public Outcome fetch(String url) {
        Outcome o = fetches.get(url);
        if (o == null)
            throw new IoFailure("web recording " + source + " has no page for " + url
                    + " (the recording is incomplete: record it again with ./brokkr bfcl record-web)");
        return o;
    }

    private static String show(String s) {
        return s == null ? "None (not sent)" : PyJson.dumps(new PyStr(s));
    }

    /** Reads and verifies a recording file. */
    public static WebRecording read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new WebRecordingException("cannot read web recording " + file + ": " + e.getMessage());
        }
        return parse(bytes, file.toString());
    }

    /** Parses a recording's bytes; {@code source} names it in errors. */
    public static WebRecording parse(byte[] bytes, String source) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        if (nl < 0) throw bad(source, "no header line");
        PyDict header;
        try {
            header = Json.parse(text.substring(0, nl)).asDict();
        } catch (RuntimeException e) {
            throw bad(source, "line 1 is not a JSON header (" + e.getMessage() + ")");
        }
        if (!new PyStr(FORMAT).equals(header.get("format")))
            throw bad(source, "line 1 does not name the format " + FORMAT);
        Value version = header.get("version");
        if (version == null || !version.toString().equals(String.valueOf(VERSION)))
            throw bad(source, "format version " + version + ", this build reads version " + VERSION);
        String body = text.substring(nl + 1);
        String expected = str(header, "entries_sha256", source);
        String actual = sha256(body.getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(actual))
            throw bad(
                    source,
                    "its entries have sha256 " + actual + ", the header says " + expected
                            + " (the file was cut short or changed)");
        Map<Query, Outcome> searches = new LinkedHashMap<>();
        Map<String, Outcome> fetches = new LinkedHashMap<>();
        String[] lines = body.isEmpty() ? new String[0] : body.split("\n", -1);
        int n = 0;
        for (int i = 0; i < lines.length; i++) {
            if (i == lines.length - 1 && lines[i].isEmpty()) break;
            int lineNo = i + 2;
            PyDict e;
            try {
                e = Json.parse(lines[i]).asDict();
            } catch (RuntimeException ex) {
                throw bad(source, "line " + lineNo + " is not a JSON object");
            }
            Outcome o = outcome(e, source, lineNo);
            if (e.containsKey("search")) {
                PyDict s = e.get("search").asDict();
                Query q = new Query(nullableStr(s.get("q")), nullableStr(s.get("kl")));
                if (o.text() != null) throw bad(source, "line " + lineNo + ": a search with a page text");
                if (searches.put(q, o) != null) throw bad(source, "line " + lineNo + ": the search " + q + " twice");
            } else if (e.containsKey("fetch")) {
                if (o.response() != null) throw bad(source, "line " + lineNo + ": a fetch with a search response");
                if (fetches.put(e.get("fetch").asStr(), o) != null)
                    throw bad(
                            source,
                            "line " + lineNo + ": the page " + e.get("fetch").asStr() + " twice");
            } else {
                throw bad(source, "line " + lineNo + " is neither a search nor a fetch");
            }
            n++;
        }
        Value count = header.get("entries");
        if (count == null || !count.toString().equals(String.valueOf(n)))
            throw bad(source, n + " entries, the header says " + count);
        return new WebRecording(Map.copyOf(searches), Map.copyOf(fetches), sha256(bytes), source);
    }

    private static Outcome outcome(PyDict e, String source, int lineNo) {
        Value raised = e.get("raised"), response = e.get("response"), text = e.get("text");
        int given = (raised == null ? 0 : 1) + (response == null ? 0 : 1) + (text == null ? 0 : 1);
        if (given != 1) throw bad(source, "line " + lineNo + ": give one of raised, response, text");
        if (raised != null) return Outcome.raised(raised.asStr());
        if (text != null) return Outcome.fetched(text.asStr());
        return Outcome.searched(response.asDict());
    }

    private static String nullableStr(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }

    private static String str(PyDict d, String key, String source) {
        Value v = d.get(key);
        if (!(v instanceof PyStr s)) throw bad(source, "the header has no " + key);
        return s.asStr();
    }

    private static WebRecordingException bad(String source, String what) {
        return new WebRecordingException(
                "web recording " + source + " is not a whole " + FORMAT + " v" + VERSION + " file: " + what);
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A recording being made: entries in the order first seen (a request seen again keeps its first outcome, as
     * upstream would have asked the network again but a replay must answer it one way). Thread-safe.
     */
    public static final class Builder {
        private final Map<Query, Outcome> searches = new LinkedHashMap<>();
        private final Map<String, Outcome> fetches = new LinkedHashMap<>();
        private final List<String> lines = new ArrayList<>();
        private final String secret;

        /** {@code secret}: the API key, which no line may hold (a line that would is written with it replaced). */
        public Builder(String secret) {
            this.secret = secret == null || secret.isEmpty() ? null : secret;
        }

        public Builder() {
            this(null);
        }

        private void add(PyDict line) {
            String text = PyJson.dumps(line, PyJson.DumpOptions.COMPACT.withEnsureAscii(false));
            if (secret != null) text = text.replace(secret, "[SERPAPI_API_KEY]");
            lines.add(text);
        }

        public synchronized Outcome search(Query q, java.util.function.Supplier<Outcome> live) {
            Outcome o = searches.get(q);
            if (o != null) return o;
            o = live.get();
            searches.put(q, o);
            PyDict.Builder line = PyDict.builder().put("search", q.toValue());
            if (o.raised() != null) line.put("raised", new PyStr(o.raised()));
            else line.put("response", o.response());
            add(line.build());
            return o;
        }

        public synchronized Outcome fetch(String url, java.util.function.Supplier<Outcome> live) {
            Outcome o = fetches.get(url);
            if (o != null) return o;
            o = live.get();
            fetches.put(url, o);
            PyDict.Builder line = PyDict.builder().put("fetch", new PyStr(url));
            if (o.raised() != null) line.put("raised", new PyStr(o.raised()));
            else line.put("text", new PyStr(o.text()));
            add(line.build());
            return o;
        }

        /** The file's bytes: the header, then the entries. */
        public synchronized byte[] bytes() {
            StringBuilder body = new StringBuilder();
            for (String l : lines) body.append(l).append('\n');
            byte[] b = body.toString().getBytes(StandardCharsets.UTF_8);
            PyDict header = PyDict.builder()
                    .put("format", new PyStr(FORMAT))
                    .put("version", brokkr.value.PyInt.of(VERSION))
                    .put("upstream", new PyStr("gorilla@" + BfclData.UPSTREAM_COMMIT))
                    .put("entries", brokkr.value.PyInt.of(lines.size()))
                    .put("entries_sha256", new PyStr(sha256(b)))
                    .build();
            return (PyJson.dumps(header, PyJson.DumpOptions.COMPACT) + "\n" + body).getBytes(StandardCharsets.UTF_8);
        }

        /** The recording as written, for replay in this process. */
        public WebRecording build(String source) {
            return parse(bytes(), source);
        }
    }
}
