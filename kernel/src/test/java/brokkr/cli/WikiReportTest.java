package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.render.report.ExperimentReport;
import brokkr.value.PyDict;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a wiki experiment shows the pages each attempt left, rendered from their Markdown: a link between
 * pages jumps to the page inside the report, a citation jumps to the cited document (shown once per world in the
 * Sources section), a link the grader counts broken is marked, and a page's own markup arrives as text.
 * (browser/report.test.mjs clicks those links in headless Chromium.)
 */
class WikiReportTest {
    @TempDir
    Path tmp;

    @Test
    void scriptedWikisShowTheirPagesWithWorkingLinksAndCitations() throws Exception {
        Path file = tmp.resolve("wiki.yaml");
        Files.writeString(file, """
                name: wiki-report
                domains:
                  - {name: wiki, split: public}
                  - {name: wiki, split: public, options: {variant: 17}}
                candidates:
                  - {id: reference, provider: scripted, model: reference}
                  - {id: dump, provider: scripted, model: dump}
                  - {id: empty, provider: scripted, model: empty}
                """);
        Path dir = tmp.resolve("run");
        var run = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        Path out = tmp.resolve("report.html");
        var r = ExperimentCommandTest.cli("report", dir.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);

        assertEquals(Set.of(), unreached(html), "every in-page link reaches an element of the page");
        // The documents once per world: the public one and variant 17, twelve each, after the attempts.
        assertEquals(2, count(html, "<details class=\"sources\" id=\"sources-\\d\">"));
        assertTrue(html.contains("<b>wiki catalog</b>: 12 files") && html.contains("<b>wiki catalog@17</b>: 12 files"));
        assertEquals(24, count(html, "<article class=\"md-file\" id=\"sources-\\d-file-\\d+\">"));
        assertTrue(html.indexOf("<section id=\"sources\">") > html.lastIndexOf("<details class=\"attempt\""));

        Map<String, List<String>> byCandidate = attempts(html);
        assertEquals(2, byCandidate.get("reference").size());
        for (String a : byCandidate.get("reference")) {
            String id = id(a);
            assertTrue(a.contains("<h3>the wiki: 10 pages under /wiki</h3>"), a.substring(0, 600));
            assertTrue(
                    a.contains("replayed from the transcript: the recorded final world"),
                    "the replay matches its hash");
            assertEquals(10, count(a, "<article class=\"md-file\" id=\"attempt-" + id + "-file-\\d+\">"));
            // The index first, linking the nine entity pages inside this attempt.
            String index = article(a, "attempt-" + id + "-file-0");
            assertTrue(index.contains("<code>/wiki/index.md</code>") && index.contains("<h1>"), index);
            assertEquals(9, count(index, "<a href=\"#attempt-" + id + "-file-\\d+\" class=\"md-link\""), index);
            // Every entity page cites documents, each a jump to the document in the Sources section.
            for (int i = 1; i < 10; i++) {
                String page = article(a, "attempt-" + id + "-file-" + i);
                assertTrue(
                        count(page, "<a href=\"#sources-\\d-file-\\d+\" class=\"md-link\" data-dest=\"/docs/") > 0,
                        page);
            }
            assertEquals(0, count(a, "class=\"md-broken\""), "the reference has no broken link");
        }
        // A citation reaches the very document it names.
        String page = article(
                byCandidate.get("reference").getFirst(),
                "attempt-" + id(byCandidate.get("reference").getFirst()) + "-file-1");
        Matcher cite = Pattern.compile(
                        "<a href=\"#(sources-\\d-file-\\d+)\" class=\"md-link\" data-dest=\"(/docs/[^\"]+)\"")
                .matcher(page);
        assertTrue(cite.find(), page);
        assertTrue(article(html, cite.group(1)).contains("<code>" + cite.group(2) + "</code>"), cite.group());

        for (String a : byCandidate.get("dump")) assertTrue(a.contains("<h3>the wiki: 13 pages under /wiki</h3>"));
        for (String a : byCandidate.get("empty"))
            assertTrue(a.contains("<h3>the wiki: no pages under /wiki</h3>") && a.contains("(none)"));
    }

    /**
     * A model that writes hostile pages (over a loopback server, on the evaluation path): their markup is text, a
     * javascript: link is not followed, and a link the grader counts broken is marked.
     */
    @Test
    void aHostilePageIsEscapedAndItsBrokenLinkMarked() throws Exception {
        String index = """
                # <script>window.pwned=1</script>Index

                - [Alpha](alpha.md)
                - [Gone](gone.md)
                - [click me](javascript:window.pwned=2)

                <img src=x onerror="window.pwned=3">
                """;
        String alpha = "# Alpha\n\nFounded in 1988 ([charter](/docs/charter.md)). Back to [the index](index.md).\n";
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            var d = req.chat();
            long step = d.history().stream()
                    .filter(m -> m instanceof Message.Assistant)
                    .count();
            Message.Assistant reply = step == 0
                    ? write("/wiki/index.md", index)
                    : step == 1 ? write("/wiki/alpha.md", alpha) : new Message.Assistant("done");
            return Reply.json(OpenAiChat.encodeResponse(reply, d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            var spec = new ExperimentSpec(
                    "wiki-hostile",
                    List.of(new ExperimentSpec.DomainSpec("wiki", "public", null)),
                    List.of(new ExperimentSpec.CandidateSpec(
                            "vandal", new ModelRef("openai", "vandal"), "tools", null)),
                    1,
                    1,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(60),
                    false);
            Path dir = tmp.resolve("hostile");
            var result = Experiments.run(spec, dir, registry);
            assertEquals(1, result.completed(), result.summary());
            StringWriter w = new StringWriter();
            ExperimentReport.write(dir, registry, w);
            String html = w.toString();

            assertEquals(1, count(html, "<script"), "only the report's own script");
            assertFalse(html.contains("<img src=x") || html.contains("onerror=\""), "no markup from the page");
            assertTrue(
                    html.contains("<h1>&lt;script&gt;window.pwned=1&lt;/script&gt;Index</h1>"), "the title as written");
            assertTrue(html.contains("&lt;img src=x onerror=&quot;window.pwned=3&quot;&gt;"));
            assertFalse(html.contains("href=\"javascript:"), "a javascript: link is never followed");
            assertTrue(html.contains(
                    "title=\"javascript:window.pwned=2 (outside this page: not followed)\">click me</span>"));
            assertEquals(Set.of(), unreached(html));
            String a = attempts(html).get("vandal").getFirst();
            String id = id(a);
            String indexHtml = article(a, "attempt-" + id + "-file-0");
            assertTrue(
                    indexHtml.contains("<a href=\"#attempt-" + id
                            + "-file-1\" class=\"md-link\" data-dest=\"alpha.md\">Alpha</a>"),
                    indexHtml);
            assertTrue(
                    indexHtml.contains(
                            "<span class=\"md-broken\" title=\"broken link: gone.md reaches no file\">Gone</span>"),
                    indexHtml);
            String alphaHtml = article(a, "attempt-" + id + "-file-1");
            assertTrue(
                    alphaHtml.contains("data-dest=\"/docs/charter.md\">charter</a>")
                            && alphaHtml.contains("data-dest=\"index.md\">the index</a>"),
                    alphaHtml);
            // The grade agrees: links_resolve fails on gone.md (and on the javascript: link, which reaches no page
            // either; the report names that one as outside the page rather than marking it).
            assertTrue(
                    a.contains("<code>links_resolve</code></td><td><span class=\"bad\">✗ fail</span></td>"
                            + "<td>gone.md on /wiki/index.md; javascript:window.pwned=2 on /wiki/index.md</td>"),
                    a);
        }
    }

    private static Message.Assistant write(String path, String content) {
        PyDict args = PyDict.of("path", path, "content", content);
        return new Message.Assistant(
                null, List.of(new ToolCall("call_1", "write_file", args, PyJson.dumps(args), null)));
    }

    /** Each attempt's HTML by candidate, in page order. */
    static Map<String, List<String>> attempts(String html) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        Matcher m = Pattern.compile("<details class=\"attempt\" id=\"attempt-\\d+\"")
                .matcher(html);
        List<Integer> starts = new ArrayList<>();
        while (m.find()) starts.add(m.start());
        int end = html.indexOf("</section>", starts.isEmpty() ? 0 : starts.getLast());
        for (int i = 0; i < starts.size(); i++) {
            String a = html.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : end);
            Matcher c = Pattern.compile(" · <b>([^<]+)</b> · task").matcher(a);
            assertTrue(c.find(), a.substring(0, 300));
            out.computeIfAbsent(c.group(1), k -> new ArrayList<>()).add(a);
        }
        return out;
    }

    static String id(String attempt) {
        Matcher m = Pattern.compile("^<details class=\"attempt\" id=\"attempt-(\\d+)\"")
                .matcher(attempt);
        assertTrue(m.find());
        return m.group(1);
    }

    /** The article with that id. */
    static String article(String html, String id) {
        int at = html.indexOf("<article class=\"md-file\" id=\"" + id + "\">");
        assertTrue(at >= 0, "no article " + id);
        return html.substring(at, html.indexOf("</article>", at));
    }

    /** The in-page link targets ({@code href="#x"}) with no element of that id. */
    static Set<String> unreached(String html) {
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = Pattern.compile(" id=\"([^\"]+)\"").matcher(html);
        while (m.find()) ids.add(m.group(1));
        Set<String> out = new LinkedHashSet<>();
        m = Pattern.compile("href=\"#([^\"]*)\"").matcher(html);
        int links = 0;
        while (m.find()) {
            links++;
            if (!ids.contains(m.group(1))) out.add(m.group(1));
        }
        assertTrue(links > 0, "some in-page links");
        return out;
    }

    static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
