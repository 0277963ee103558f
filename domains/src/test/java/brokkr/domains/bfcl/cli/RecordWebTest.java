package brokkr.domains.bfcl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.conversation.Message;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.domains.bfcl.multiturn.MultiTurnInference;
import brokkr.domains.bfcl.web.LiveWeb;
import brokkr.domains.bfcl.web.WebIo;
import brokkr.domains.bfcl.web.WebRecording;
import brokkr.domains.bfcl.web.WebSearchBenchmark;
import brokkr.domains.bfcl.web.WebSearchData;
import brokkr.domains.bfcl.web.WebSearchGold;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bfcl record-web} against a loopback fake SerpAPI and a loopback fake web (no real network), then the
 * recording replayed: the same tool results as the live run, every recorded task graded 1.0 by the agentic checker
 * through the benchmark and through {@code bfcl run --web-recording}, a task the recording lacks an infrastructure
 * failure, the key nowhere in the file or the output, bad arguments usage errors.
 */
class RecordWebTest {
    static final String KEY = "test-serpapi-key-4b1d";
    HttpServer server;
    String base;
    final AtomicInteger searches = new AtomicInteger(), pages = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/search", this::search);
        server.createContext("/page/", ex -> {
            pages.incrementAndGet();
            reply(
                    ex,
                    200,
                    "text/html; charset=utf-8",
                    "<html><body><p>Page " + ex.getRequestURI().getPath() + " \u00e9t\u00e9</p></body></html>");
        });
        server.createContext("/latin/", ex -> {
            pages.incrementAndGet();
            // text/html without a charset: requests decodes ISO-8859-1
            byte[] b = "<p>caf\u00e9</p>".getBytes(StandardCharsets.ISO_8859_1);
            ex.getResponseHeaders().set("Content-Type", "text/html");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.createContext("/missing/", ex -> {
            pages.incrementAndGet();
            reply(ex, 404, "text/html", "<h1>no</h1>");
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    /** SerpAPI's /search as the serpapi client calls it; 4 results per query, some first links a 404 or Latin-1 page. */
    private void search(HttpExchange ex) throws IOException {
        searches.incrementAndGet();
        Map<String, String> p = new LinkedHashMap<>();
        for (String kv : ex.getRequestURI().getRawQuery().split("&")) {
            int eq = kv.indexOf('=');
            p.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
        if (!KEY.equals(p.get("api_key"))) {
            reply(ex, 401, "application/json", "{\"error\": \"Invalid API key.\"}");
            return;
        }
        if (!"duckduckgo".equals(p.get("engine"))
                || !"json".equals(p.get("output"))
                || !"python".equals(p.get("source"))) {
            reply(ex, 400, "application/json", "{\"error\": \"unexpected parameters " + p.keySet() + "\"}");
            return;
        }
        String q = p.get("q");
        int h = Math.floorMod(q.hashCode(), 1000);
        StringBuilder r = new StringBuilder("{\"search_metadata\": {\"json_endpoint\": \"" + base
                + "/searches/x.json?api_key=" + KEY + "\"}, \"search_parameters\": {\"q\": \"x\", \"kl\": \""
                + p.get("kl") + "\"}, \"organic_results\": [");
        for (int i = 0; i < 4; i++) {
            String link = i == 0 && h % 3 == 0
                    ? base + "/missing/" + h
                    : i == 0 && h % 3 == 1 ? base + "/latin/" + h : base + "/page/" + h + "/" + i;
            if (i > 0) r.append(", ");
            r.append("{\"position\": ")
                    .append(i + 1)
                    .append(", \"title\": \"Result ")
                    .append(i)
                    .append(" about ")
                    .append(h)
                    .append("\", \"link\": \"")
                    .append(link)
                    .append("\", \"snippet\": \"Snippet ")
                    .append(i)
                    .append(" for ")
                    .append(h)
                    .append(i == 3 ? " echoes " + KEY : "")
                    .append("\"}");
        }
        reply(ex, 200, "application/json", r.append("]}").toString());
    }

    private static List<String> sampled(String category, int n, long seed) {
        List<String> ids = new ArrayList<>(WebSearchData.load().ids(category));
        ids.sort(Comparator.comparing((String id) -> BfclMultiTurnRun.sha256(seed + "/" + id)));
        return ids.subList(0, n);
    }

    record Run(int code, String out, String err) {}

    private Run bfcl(Map<String, String> env, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new BfclCommand(Registry.process(), env)
                .run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    /** The tool results of gold on {@code id} over {@code io}, in order. */
    private static List<String> toolResults(WebSearchData data, String id, WebIo io) throws Exception {
        MultiTurnInference.Trajectory t = MultiTurnInference.run(
                data.task(id, io),
                brokkr.domains.bfcl.multiturn.MultiTurnTools.empty().withDocs(WebSearchData.CLASS, data.docs()),
                new WebSearchGold(data.question(id)),
                ToolCompiler.Style.OPENAI_COMPLETIONS,
                WebSearchBenchmark.MODEL_NAME,
                null);
        if (t.failure() != null) throw t.failure();
        return t.messages().stream()
                .filter(m -> m instanceof Message.Tool)
                .map(m -> ((Message.Tool) m).content())
                .toList();
    }

    @Test
    void recordThenReplay(@TempDir Path dir) throws Exception {
        List<String> tasks = new ArrayList<>(sampled("web_search_base", 2, 7));
        tasks.addAll(sampled("web_search_no_snippet", 2, 7));
        Path file = dir.resolve("web.jsonl");
        Map<String, String> env = Map.of("SERPAPI_API_KEY", KEY, "BROKKR_SERPAPI_BASE_URL", base);
        Run rec = bfcl(env, "record-web", "--out", file.toString(), "--tasks", String.join(",", tasks), "--jobs", "2");
        assertEquals(0, rec.code(), rec.err());
        assertTrue(rec.out().contains("web_search with live IO (agent gold): 4 tasks\n"), rec.out());
        assertTrue(rec.out().contains("web_search summary (mean of the two categories): 100.00%"), rec.out());
        String text = Files.readString(file);
        assertFalse(text.contains(KEY), "the key is in the recording");
        assertFalse(rec.out().contains(KEY) || rec.err().contains(KEY), "the key is in the output");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        WebRecording recording = WebRecording.read(file);
        assertTrue(
                rec.out()
                        .contains("recorded " + recording.searchCount() + " searches and " + recording.fetchCount()
                                + " pages into " + file + " (sha256 " + recording.sha256() + ")"),
                rec.out());
        // one search per subquestion (the two categories ask the same), each first result fetched once
        assertTrue(recording.searchCount() >= 4 && recording.fetchCount() >= 4, rec.out());
        // a 404 page recorded as requests' raise_for_status text; a text/html page without charset read as Latin-1
        assertTrue(text.contains("\"raised\":\"404 Client Error: Not Found for url: " + base + "/missing/"), text);
        assertTrue(text.contains("\"text\":\"<p>caf\u00e9</p>\""), text);
        // the key a result echoed (the 4th, past max_results=3: recorded, never shown) is redacted
        assertTrue(text.contains("echoes [SERPAPI_API_KEY]"), text);

        // the same tool results live (a fresh recording of the same fake web) and replayed from the file
        WebSearchData data = WebSearchData.load();
        WebIo live = new WebIo.Recording(new WebRecording.Builder(KEY), LiveWeb.of(base, KEY));
        WebIo replay = new WebIo.Replay(recording);
        for (String id : tasks) {
            List<String> a = toolResults(data, id, live), b = toolResults(data, id, replay);
            assertEquals(a, b, id);
            assertFalse(a.isEmpty(), id);
            if (id.contains("no_snippet")) assertTrue(a.stream().noneMatch(s -> s.contains("'body'")), a.toString());
            else assertTrue(a.getFirst().contains("'body': 'Snippet 0 for"), a.toString());
        }
        // no network from here on: the replay needs none
        server.stop(0);
        server = null;
        int seenSearches = searches.get(), seenPages = pages.get();

        // graded through the benchmark with the agentic checker: 1.0 each; a task the recording lacks has no verdict
        WebSearchBenchmark bench = (WebSearchBenchmark) Registry.process().benchmark(WebSearchBenchmark.NAME);
        List<String> ids = new ArrayList<>(tasks);
        String unrecorded = "web_search_base_99".equals(tasks.getFirst()) ? "web_search_base_98" : "web_search_base_99";
        ids.add(unrecorded);
        List<EnvironmentDef> envs = new ArrayList<>();
        for (String id : ids)
            envs.add(bench.environment(
                    id, Map.of(), brokkr.value.PyDict.of(WebSearchBenchmark.OPTION, file.toString())));
        assertEquals(recording.sha256(), envs.getFirst().dataDigests().get(WebSearchBenchmark.RECORDING_DIGEST));
        AgentDef gold = AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), "reference", null);
        List<Attempt> attempts = new ArrayList<>();
        Cells.run(
                envs.stream()
                        .map(e -> new Evaluation.Cell(bench, e, gold, null, 0))
                        .toList(),
                Cells.providers(Registry.process(), Map.of()),
                1,
                attempts::add);
        for (int i = 0; i < tasks.size(); i++)
            assertTrue(attempts.get(i).success(), attempts.get(i).toString());
        Attempt missing = attempts.getLast();
        assertFalse(missing.completed());
        assertTrue(missing.error().contains("has no search for q="), missing.error());

        // the CLI replay: the sampled slice of both categories, all graded valid
        Run replayed = bfcl(
                Map.of(),
                "run",
                "--agent",
                "gold",
                "--categories",
                "web_search_base,web_search_no_snippet",
                "--sample",
                "2",
                "--seed",
                "7",
                "--web-recording",
                file.toString());
        assertEquals(0, replayed.code(), replayed.err());
        assertTrue(replayed.out().contains("\nweb_search_base                 2      2   100.00%\n"), replayed.out());
        assertTrue(replayed.out().contains("\nweb_search_no_snippet           2      2   100.00%\n"), replayed.out());
        assertTrue(replayed.out().contains("web_search summary (mean of the two categories): 100.00%"), replayed.out());
        assertEquals(seenSearches, searches.get());
        assertEquals(seenPages, pages.get());
    }

    @Test
    void badArgumentsAndMissingSettingsAreUsageErrors(@TempDir Path dir) throws Exception {
        Map<String, String> env = Map.of("SERPAPI_API_KEY", KEY, "BROKKR_SERPAPI_BASE_URL", base);
        String out = dir.resolve("r.jsonl").toString();
        assertThrows(Command.UsageException.class, () -> bfcl(env, "record-web"));
        assertThrows(Command.UsageException.class, () -> bfcl(env, "record-web", "--out", out, "--bogus"));
        assertThrows(
                Command.UsageException.class,
                () -> bfcl(env, "record-web", "--out", out, "--tasks", "web_search_base_100"));
        assertThrows(Command.UsageException.class, () -> bfcl(env, "record-web", "--out", out, "--agent", "reference"));
        assertThrows(Command.UsageException.class, () -> bfcl(env, "record-web", "--out", out, "--jobs", "x"));
        Command.UsageException noKey = assertThrows(
                Command.InputException.class,
                () -> bfcl(Map.of("BROKKR_SERPAPI_BASE_URL", base), "record-web", "--out", out));
        assertTrue(noKey.getMessage().contains("SERPAPI_API_KEY"), noKey.getMessage());
        Command.UsageException noRecording = assertThrows(
                Command.UsageException.class,
                () -> bfcl(Map.of(), "run", "--agent", "gold", "--categories", "web_search_base"));
        assertTrue(noRecording.getMessage().contains("offered on a web recording only"), noRecording.getMessage());
        Files.writeString(dir.resolve("bad.jsonl"), "{\"format\": \"brokkr-bfcl-web-recording\", \"version\": 1}\n");
        Command.UsageException bad = assertThrows(
                Command.InputException.class,
                () -> bfcl(
                        Map.of(),
                        "run",
                        "--agent",
                        "gold",
                        "--categories",
                        "web_search_base",
                        "--web-recording",
                        dir.resolve("bad.jsonl").toString()));
        assertTrue(bad.getMessage().contains("bad.jsonl is not a whole brokkr-bfcl-web-recording"), bad.getMessage());
        assertEquals(0, searches.get());
        // the experiment path: no environment without a recording
        BenchmarkProvider b = Registry.process().benchmark(WebSearchBenchmark.NAME);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> b.environment("web_search_base_0", Map.of()));
        assertTrue(e.getMessage().contains("runs on a web recording only"), e.getMessage());
    }
}
