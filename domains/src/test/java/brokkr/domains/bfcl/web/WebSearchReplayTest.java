package brokkr.domains.bfcl.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.IoFailure;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.World;
import brokkr.value.Json;
import brokkr.value.PyDict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay of a small recording written here: upstream's {@code WebSearchAPI} results for the recorded IO (shaping,
 * {@code max_results} slicing, the snippet switch, error dicts and the exceptions the executor renders), a request
 * the recording lacks an {@link IoFailure}, and the file format's checks (digest, corruption named).
 */
class WebSearchReplayTest {
    static WebSearchData data;
    static WebRecording recording;

    @BeforeAll
    static void setUp() {
        data = WebSearchData.load();
        WebRecording.Builder b = new WebRecording.Builder("sekrit-key");
        b.search(
                new WebRecording.Query("tallest building", "wt-wt"),
                () -> WebRecording.Outcome.searched(Json.parse("""
                        {"organic_results": [
                          {"title": "T0", "link": "http://a.example/0", "snippet": "S0"},
                          {"title": "T1", "link": "http://a.example/1", "snippet": "it's S1"},
                          {"title": "T2", "link": "http://a.example/2", "snippet": "S2"}]}""").asDict()));
        b.search(
                new WebRecording.Query("no snippet here", "wt-wt"),
                () -> WebRecording.Outcome.searched(Json.parse("""
                        {"organic_results": [{"title": "T", "link": "http://b.example/"}]}""").asDict()));
        b.search(
                new WebRecording.Query("nothing", "us-en"),
                () -> WebRecording.Outcome.searched(Json.parse("""
                        {"error": "DuckDuckGo hasn't returned any results for this query."}""").asDict()));
        b.search(
                new WebRecording.Query("down", "wt-wt"),
                () -> WebRecording.Outcome.raised(
                        "HTTPSConnectionPool(host='serpapi.com', port=443): Read timed out."));
        b.search(
                new WebRecording.Query("5", "wt-wt"),
                () -> WebRecording.Outcome.searched(
                        Json.parse("{\"organic_results\": []}").asDict()));
        b.fetch("http://a.example/0", () -> WebRecording.Outcome.fetched("<html><body>Page 0 \u00e9</body></html>"));
        b.fetch(
                "https://gone.example/x",
                () -> WebRecording.Outcome.raised("404 Client Error: Not Found for url: https://gone.example/x"));
        recording = b.build("test-recording");
    }

    private static List<String> run(String taskId, String... calls) {
        MultiTurnData.Task t = data.task(taskId, new WebIo.Replay(recording));
        return Executor.execute(World.EMPTY, t.setup(), "m", false, List.of(calls))
                .results();
    }

    @Test
    void searchResultsAreShapedAsUpstreamShapesThem() {
        assertEquals(
                List.of(
                        "[{'title': 'T0', 'href': 'http://a.example/0', 'body': 'S0'}, {'title': 'T1', 'href':"
                                + " 'http://a.example/1', 'body': \"it's S1\"}]",
                        "[{'title': 'T0', 'href': 'http://a.example/0', 'body': 'S0'}, {'title': 'T1', 'href':"
                                + " 'http://a.example/1', 'body': \"it's S1\"}, {'title': 'T2', 'href':"
                                + " 'http://a.example/2', 'body': 'S2'}]",
                        "[{'title': 'T0', 'href': 'http://a.example/0', 'body': 'S0'}, {'title': 'T1', 'href':"
                                + " 'http://a.example/1', 'body': \"it's S1\"}]",
                        "[]",
                        "[{'title': 'T0', 'href': 'http://a.example/0', 'body': 'S0'}]",
                        "Error during execution: slice indices must be integers or None or have an __index__ method",
                        "[]"),
                run(
                        "web_search_base_0",
                        "search_engine_query(keywords='tallest building', max_results=2)",
                        "search_engine_query(keywords='tallest building')",
                        "search_engine_query(keywords='tallest building', max_results=-1)",
                        "search_engine_query(keywords='tallest building', max_results=0)",
                        "search_engine_query(keywords='tallest building', max_results=True)",
                        "search_engine_query(keywords='tallest building', max_results='2')",
                        // keywords=5 is sent as q=5 (requests' str())
                        "search_engine_query(keywords=5)"));
    }

    @Test
    void noSnippetDropsTheBodyAndAMissingSnippetIsUpstreamsKeyError() {
        assertEquals(
                List.of(
                        "[{'title': 'T0', 'href': 'http://a.example/0'}]",
                        "[{'title': 'T', 'href': 'http://b.example/'}]"),
                run(
                        "web_search_no_snippet_3",
                        "search_engine_query(keywords='tallest building', max_results=1)",
                        "search_engine_query(keywords='no snippet here')"));
        assertEquals(
                List.of("Error during execution: 'snippet'"),
                run("web_search_base_3", "search_engine_query(keywords='no snippet here')"));
    }

    @Test
    void searchErrorsAreUpstreamsErrorDicts() {
        assertEquals(
                List.of(
                        "{\"error\": \"Failed to retrieve the search results from server. Please try again later.\"}",
                        "{\"error\": \"HTTPSConnectionPool(host='serpapi.com', port=443): Read timed out.\"}"),
                run(
                        "web_search_base_1",
                        "search_engine_query(keywords='nothing', region='us-en')",
                        "search_engine_query(keywords='down')"));
    }

    @Test
    void fetchModesAndErrors() {
        assertEquals(
                List.of(
                        "{\"content\": \"<html><body>Page 0 \\u00e9</body></html>\"}",
                        "{\"content\": \"<html><body>Page 0 \\u00e9</body></html>\"}",
                        "{\"error\": \"An error occurred while fetching https://gone.example/x: 404 Client Error: Not"
                                + " Found for url: https://gone.example/x\"}",
                        // an unsupported mode is raised inside the try, after the fetch
                        "{\"error\": \"An error occurred while fetching http://a.example/0: Unsupported mode: pdf\"}",
                        "{\"error\": \"An error occurred while fetching https://gone.example/x: 404 Client Error: Not"
                                + " Found for url: https://gone.example/x\"}",
                        "Error during execution: Invalid URL: ftp://a.example/0",
                        "Error during execution: 'int' object has no attribute 'startswith'"),
                run(
                        "web_search_base_2",
                        "fetch_url_content(url='http://a.example/0')",
                        "fetch_url_content(url='http://a.example/0', mode='raw')",
                        "fetch_url_content(url='https://gone.example/x')",
                        "fetch_url_content(url='http://a.example/0', mode='pdf')",
                        "fetch_url_content(url='https://gone.example/x', mode='markdown')",
                        "fetch_url_content(url='ftp://a.example/0')",
                        "fetch_url_content(url=7)"));
    }

    @Test
    void whatTheRecordingLacksIsAnIoFailureNamingIt() {
        IoFailure f = assertThrows(
                IoFailure.class, () -> run("web_search_base_0", "search_engine_query(keywords='never recorded')"));
        assertTrue(
                f.getMessage().contains("test-recording has no search for q=\"never recorded\", kl=\"wt-wt\""),
                f.getMessage());
        f = assertThrows(
                IoFailure.class, () -> run("web_search_base_0", "fetch_url_content(url='http://a.example/1')"));
        assertTrue(f.getMessage().contains("has no page for http://a.example/1"), f.getMessage());
        // a mode whose processing is upstream's libraries' (not reproduced) on a page that was fetched
        f = assertThrows(
                IoFailure.class,
                () -> run("web_search_base_0", "fetch_url_content(url='http://a.example/0', mode='truncate')"));
        assertTrue(f.getMessage().contains("BeautifulSoup"), f.getMessage());
    }

    @Test
    void theTaskIsUpstreamsPreparedEntry() {
        MultiTurnData.Task t = data.task("web_search_no_snippet_7", new WebIo.Replay(recording));
        assertEquals(List.of("WebSearchAPI"), t.involvedClasses());
        PyDict system = t.question().get(0).asList().get(0).asDict();
        assertEquals("system", system.get("role").asStr());
        assertTrue(system.get("content").asStr().startsWith("For your final answer to the user, you must respond"));
        assertEquals(
                "user", t.question().get(0).asList().get(1).asDict().get("role").asStr());
        assertEquals(100, data.ids("web_search_base").size());
        World w =
                Executor.execute(World.EMPTY, t.setup(), "m", false, List.of()).world();
        assertEquals(
                false,
                w.state(Executor.variable("m", false, t.id(), "WebSearchAPI")).get("show_snippet"));
    }

    @Test
    void theFileRoundTripsAndIsDigested(@TempDir Path dir) throws Exception {
        WebRecording.Builder b = new WebRecording.Builder("sekrit-key");
        b.search(
                new WebRecording.Query("a", "wt-wt"),
                () -> WebRecording.Outcome.searched(Json.parse(
                                "{\"organic_results\": [{\"title\": \"x sekrit-key\", \"link\": \"http://l/\", \"snippet\": \"s\"}]}")
                        .asDict()));
        b.fetch("http://l/", () -> WebRecording.Outcome.fetched("<p>ü</p>"));
        byte[] bytes = b.bytes();
        String text = new String(bytes, StandardCharsets.UTF_8);
        // the key never reaches the file, even where a response echoed it
        assertTrue(!text.contains("sekrit-key") && text.contains("[SERPAPI_API_KEY]"), text);
        Path f = dir.resolve("rec.jsonl");
        Files.write(f, bytes);
        WebRecording r = WebRecording.read(f);
        assertEquals(1, r.searchCount());
        assertEquals(1, r.fetchCount());
        assertEquals(WebRecording.sha256(bytes), r.sha256());
        assertEquals("<p>ü</p>", r.fetch("http://l/").text());
        assertTrue(text.startsWith("{\"format\":\"brokkr-bfcl-web-recording\",\"version\":1,"), text);
        assertNotEquals(recording.sha256(), r.sha256());
    }

    @Test
    void aCorruptedFileIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
        byte[] good = rebuild();
        String text = new String(good, StandardCharsets.UTF_8);
        Path changed = dir.resolve("changed.jsonl");
        Files.writeString(changed, text.replace("Page 0", "Page 1"));
        Path cut = dir.resolve("cut.jsonl");
        Files.writeString(cut, text.substring(0, text.lastIndexOf('\n', text.length() - 2) + 1));
        Path version = dir.resolve("version.jsonl");
        Files.writeString(version, text.replace("\"version\":1", "\"version\":2"));
        Path other = dir.resolve("other.jsonl");
        Files.writeString(other, "{\"format\":\"something else\"}\n");
        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "");
        for (Path p : List.of(changed, cut, version, other, empty)) {
            WebRecording.WebRecordingException e =
                    assertThrows(WebRecording.WebRecordingException.class, () -> WebRecording.read(p));
            assertTrue(
                    e.getMessage().startsWith("web recording " + p + " is not a whole brokkr-bfcl-web-recording"),
                    e.getMessage());
        }
        assertTrue(assertThrows(WebRecording.WebRecordingException.class, () -> WebRecording.read(changed))
                .getMessage()
                .contains("cut short or changed"));
        assertTrue(assertThrows(WebRecording.WebRecordingException.class, () -> WebRecording.read(version))
                .getMessage()
                .contains("format version 2"));
    }

    /** The recording's digest is part of the environment's content: another recording, another environment. */
    @Test
    void theRecordingIsPartOfTheEnvironmentsContentId() {
        WebSearchBenchmark b = new WebSearchBenchmark(data);
        WebRecording other = WebRecording.parse(rebuild(), "other");
        String id = "web_search_base_4";
        assertEquals(
                b.environment(id, b.register(recording)).id(),
                b.environment(id, b.register(recording)).id());
        assertNotEquals(
                b.environment(id, b.register(recording)).id(),
                b.environment(id, b.register(other)).id());
        assertEquals(
                other.sha256(),
                b.environment(id, b.register(other)).dataDigests().get("web_recording"));
        assertEquals(
                List.of("web_search_base_0", "web_search_base_1", "web_search_no_snippet_0", "web_search_no_snippet_1"),
                b.tasks("smoke"));
    }

    private static byte[] rebuild() {
        WebRecording.Builder b = new WebRecording.Builder();
        b.search(new WebRecording.Query("q", null), () -> WebRecording.Outcome.raised("boom"));
        b.fetch("http://a.example/0", () -> WebRecording.Outcome.fetched("<html>Page 0</html>"));
        return b.bytes();
    }
}
