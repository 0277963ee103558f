package brokkr.domains.bfcl.web;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.IoFailure;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.python.PyTuple;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * gorilla {@code func_source_code/web_search.py} {@code WebSearchAPI} with its IO through a {@link WebIo} (a
 * {@link WebRecording} replayed, or the network recorded): given the same SerpAPI responses and pages, each method
 * returns what upstream's returns (its result shaping, {@code max_results} slicing, snippet switch, error dicts and
 * texts, and the exceptions it lets out, which the executor renders as {@code Error during execution: ...}).
 *
 * <p>Failure injection: upstream makes {@code random.Random(337)} ({@code _random}) and {@code random.Random(1053)}
 * ({@code _rng}) for {@code _fake_requests_get_error_msg}, but the only use of them in {@code fetch_url_content} is
 * commented out at the pinned commit ("that feature is not currently used"): no call consumes either generator, so
 * no error is injected here either, and the generators are no state ({@code _}-prefixed, not compared).
 *
 * <p>Not reproduced: {@code fetch_url_content}'s {@code markdown} mode ({@code html2text.HTML2Text().handle}) and
 * {@code truncate} mode ({@code BeautifulSoup(..., "html.parser")} without scripts and styles,
 * {@code get_text(separator="\n", strip=True)}) are upstream's libraries' processing of the page, not transcribed:
 * a call in those modes on a page that was fetched is an {@link IoFailure} (no verdict, left out of scores), never
 * an approximation passed off as upstream's text. {@code raw} mode and every error path are exact. The 429 retry
 * loops of {@code search_engine_query} are the recorder's ({@link LiveWeb}): a recording holds no 429 (a replay
 * that met one would be upstream's endless retry: an {@link IoFailure}).
 *
 * @param showSnippet {@code self.show_snippet} (from {@code initial_config["show_snippet"]})
 */
public record WebSearchAPI(Object showSnippet, WebIo io) implements Backend {
    /** The key of {@code initial_config["WebSearchAPI"]} that carries the IO (Brokkr's; upstream's code reads only show_snippet). */
    public static final String IO_KEY = "$brokkr_web_io";

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("show_snippet", showSnippet);
        return m;
    }

    private static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> c = config instanceof Map<?, ?> m ? m : Map.of();
        Object io = PyObjects.get(c, IO_KEY, null);
        if (!(io instanceof WebIo w))
            throw new IoFailure("WebSearchAPI has no web IO: the web_search category runs on a recording"
                    + " (--web-recording FILE; record one with ./brokkr bfcl record-web)");
        // _load_scenario: self.show_snippet = initial_config["show_snippet"]
        Object show = PyObjects.get(c, "show_snippet", null);
        if (show == null) throw PyException.keyError("show_snippet");
        return new Outcome(new WebSearchAPI(show, w), g, PyNone.NONE);
    }

    /** A parameter value as {@code requests} sends it in the query string: {@code str()} of it, None not sent. */
    static String param(Object v) {
        if (PyObjects.isNone(v)) return null;
        if (v instanceof List<?> || v instanceof PyTuple) {
            // requests sends one q= per item; the recording keys the request by the items' str(), joined by "&q="
            List<String> items = new ArrayList<>();
            for (Object x : v instanceof PyTuple t ? t.items() : (List<?>) v)
                items.add(PyObjects.str(x, BfclData.PYTHON));
            return String.join("\u0000", items);
        }
        return PyObjects.str(v, BfclData.PYTHON);
    }

    /** {@code search_engine_query(keywords, max_results=10, region="wt-wt")}. */
    private static Outcome search(Backend b, Object[] a, Globals g) {
        WebSearchAPI self = (WebSearchAPI) b;
        WebRecording.Query q = new WebRecording.Query(param(a[0]), param(a[2]));
        WebRecording.Outcome o = self.io.search(q);
        if (o.raised() != null) {
            if (o.raised().contains("429"))
                throw new IoFailure("the recorded search " + q + " raised a 429, which upstream retries forever");
            // "This is not a rate-limit error, so it will not be retried."
            return new Outcome(self, g, dict("error", o.raised()));
        }
        Map<?, ?> response = (Map<?, ?>) PyObjects.fromValue(o.response());
        Object error = PyObjects.get(response, "error", null);
        if (error != null && PyObjects.str(error, BfclData.PYTHON).contains("429"))
            throw new IoFailure("the recorded search " + q + " answered a 429, which upstream retries forever");
        Object organic = PyObjects.get(response, "organic_results", null);
        if (organic == null)
            return new Outcome(
                    self,
                    g,
                    dict("error", "Failed to retrieve the search results from server. Please try again later."));
        List<?> results = slice((List<?>) organic, a[1]);
        List<Object> out = new ArrayList<>(results.size());
        boolean snippet = PyObjects.truthy(self.showSnippet);
        for (Object r : results) {
            Map<?, ?> m = (Map<?, ?>) r;
            Object title = item(m, "title"), link = item(m, "link");
            if (snippet) out.add(dict("title", title, "href", link, "body", item(m, "snippet")));
            else out.add(dict("title", title, "href", link));
        }
        return new Outcome(self, g, PyObjects.listOf(out));
    }

    private static Object item(Map<?, ?> m, String key) {
        Object v = PyObjects.get(m, key, null);
        if (v == null) throw PyException.keyError(key);
        return v;
    }

    /** {@code search_results[:max_results]}: an int (or bool) bound with Python's clamping, None the whole list. */
    static List<?> slice(List<?> l, Object stop) {
        if (PyObjects.isNone(stop)) return l;
        BigInteger n;
        if (stop instanceof Boolean bo) n = bo ? BigInteger.ONE : BigInteger.ZERO;
        else if (PyObjects.isInt(stop)) n = PyObjects.asBigInteger(stop);
        else throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
        BigInteger size = BigInteger.valueOf(l.size());
        if (n.signum() < 0) n = n.add(size).max(BigInteger.ZERO);
        int end = n.min(size).intValueExact();
        return l.subList(0, end);
    }

    /** {@code fetch_url_content(url, mode="raw")}. */
    private static Outcome fetch(Backend b, Object[] a, Globals g) {
        WebSearchAPI self = (WebSearchAPI) b;
        if (!(a[0] instanceof String url))
            throw PyException.attributeError("'" + PyObjects.typeName(a[0]) + "' object has no attribute 'startswith'");
        if (!url.startsWith("http://") && !url.startsWith("https://"))
            throw PyException.valueError("Invalid URL: " + url);
        WebRecording.Outcome o = self.io.fetch(url);
        if (o.raised() != null)
            return new Outcome(self, g, dict("error", "An error occurred while fetching " + url + ": " + o.raised()));
        Object mode = a[1];
        if ("raw".equals(mode)) return new Outcome(self, g, dict("content", o.text()));
        if ("markdown".equals(mode) || "truncate".equals(mode))
            throw new IoFailure("fetch_url_content mode '" + mode + "' is upstream's "
                    + (mode.equals("markdown") ? "html2text" : "BeautifulSoup get_text")
                    + " processing of the page, which Brokkr does not reproduce (only mode 'raw' replays exactly)");
        // raise ValueError(f"Unsupported mode: {mode}") inside the try: caught into the error dict
        return new Outcome(
                self,
                g,
                dict(
                        "error",
                        "An error occurred while fetching " + url + ": Unsupported mode: "
                                + PyObjects.str(mode, BfclData.PYTHON)));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "WebSearchAPI",
            false,
            WebSearchAPI::load,
            List.of(
                    Method.of(
                            "search_engine_query",
                            WebSearchAPI::search,
                            required("keywords"),
                            optional("max_results", PyObjects.integer(10)),
                            optional("region", "wt-wt")),
                    Method.of("fetch_url_content", WebSearchAPI::fetch, required("url"), optional("mode", "raw"))));
}
