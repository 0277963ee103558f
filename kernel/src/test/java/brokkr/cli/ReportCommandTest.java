package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr report}: one self-contained, escaped HTML file. The candidate labels and what the
 * model says (YesBench's {@code say} provider says its model name) are hostile markup here, which must
 * arrive as text. (notebooks/run-notebooks.sh opens a report in headless Chromium as well.)
 */
class ReportCommandTest {
    @TempDir
    Path tmp;

    static final String HOSTILE = "</script><script>window.pwned=1</script><img src=x onerror=alert(1)>";

    Path experiment() throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: report-test
                domain: agree
                split: test
                candidates:
                  - {id: agreeable, provider: say, model: "yes"}
                  - {id: "<b>bold</b>", provider: say, model: '%s'}
                repetitions: 2
                """.formatted(HOSTILE));
        Path dir = tmp.resolve("run");
        var run = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        return dir;
    }

    @Test
    void writesOneSelfContainedEscapedPage() throws Exception {
        Path dir = experiment();
        Path out = tmp.resolve("shared/report.html");
        var r = ExperimentCommandTest.cli("report", dir.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote " + out), r.out());
        String html = Files.readString(out);

        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<h1>report-test</h1>"), "titled with the experiment");
        // one sentence at the top says what was found, before any table
        String headline = html.substring(
                html.indexOf("<p class=\"headline\""), html.indexOf("</p>", html.indexOf("<p class=\"headline\"")));
        assertTrue(html.indexOf("<p class=\"headline\"") < html.indexOf("<table"), "the headline first");
        assertEquals(
                "<p class=\"headline\" id=\"headline\">On agree, <b>agreeable</b> did best: mean reward 1.00 (95% interval"
                        + " [0.139, 1.00]), 1.00 above <b>&lt;b&gt;bold&lt;/b&gt;</b> (paired over 3 tasks, 95% interval"
                        + " [1.00, 1.00]); 12 cells, all with a result.",
                headline);
        assertTrue(
                html.contains("<caption>scorecard</caption>") && html.contains("<caption>checks</caption>"),
                "scorecard and checks");
        // the scorecard's column groups (too wide for the page in one), up to the statistics
        String scorecard = html.substring(
                html.indexOf("<caption>scorecard</caption>"), html.indexOf("<caption>statistics</caption>"));
        for (String h : List.of("in_tok/ep", "out_tok/ep", "steps/ep", "calls/ep", "req_chars/ep")) {
            assertTrue(scorecard.contains(">" + h + "</th>"), "what an episode costs, in the scorecard itself: " + h);
        }
        assertTrue(
                html.contains("<svg")
                        && html.contains("<figcaption><b>report-test: pass^k by candidate (3 tasks, 2 trials)</b>"),
                "the pass^k chart inline");
        assertEquals(12, count(html, "<details class=\"attempt\""), "every attempt");
        assertEquals(
                6,
                count(html, "<details class=\"attempt\" id=\"attempt-\\d+\" data-passed=\"1\""),
                "the agreeable ones passed");
        assertEquals(6, count(html, "<tr class=\"task-row\""), "3 tasks x 2 candidates");
        assertTrue(html.contains("<input type=\"checkbox\" id=\"failed-only\">"), "the failed-only filter");
        assertTrue(html.contains("<code>said_yes</code>"), "the grade breakdown");
        assertEquals(
                0,
                count(html, "no transcript recorded"),
                "every attempt's transcript is read (the listing itself carries none)");
        assertEquals(12, count(html, "<div class=\"msg msg-assistant\""), "each attempt's answer in its dialogue");

        // Hostile text arrives as text: one script element (the report's own), no markup from the store.
        assertEquals(1, count(html, "<script"), "only the report's script");
        assertFalse(
                html.contains("window.pwned=1</script>") || html.contains("<img src=x") || html.contains("<b>bold</b>"),
                "escaped");
        assertTrue(
                html.contains("&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;"),
                "the model's words shown as written");
        assertTrue(html.contains("&lt;b&gt;bold&lt;/b&gt;"), "the candidate label shown as written");

        // No network: nothing is loaded from anywhere (the SVG namespace is a name, not a fetch).
        for (String ref : new String[] {
            "src=\"http", "href=\"http", "src='http", "href='http", "url(http", "@import", "<link", "<iframe"
        }) {
            assertFalse(html.contains(ref), ref);
        }
        assertTrue(
                html.contains("Content-Security-Policy\" content=\"default-src 'none'"),
                "the page forbids itself any fetch");
    }

    @Test
    void defaultsNextToTheStoreAndRefusesBadArguments() throws Exception {
        Path dir = experiment();
        var r = ExperimentCommandTest.cli("report", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.size(dir.resolve("report.html")) > 10_000);
        assertEquals(2, ExperimentCommandTest.cli("report").code());
        var none = ExperimentCommandTest.cli("report", tmp.resolve("nothing").toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("holds no experiment"), none.err());
        assertEquals(
                2,
                ExperimentCommandTest.cli("report", dir.toString(), "--bogus").code());
        assertEquals(
                2, ExperimentCommandTest.cli("report", dir.toString(), "--out").code());
    }

    /**
     * A big store reports in a small heap: the page is streamed, one attempt's evidence in memory at a time, and a
     * long text is on the page whole once per attempt, however often the attempt holds it. The child JVM gets 64 MB
     * of heap for 15 attempts, each holding a 1M-character answer (in its transcript, its output and its model
     * call), and writes a page of some 16 MB; built whole in memory (every attempt read first, the page in one
     * string, then its bytes) it ran out of memory.
     */
    @Test
    void aBigStoreReportsInASmallHeapWithLongTextsCut() throws Exception {
        StringBuilder big = new StringBuilder("BEGIN");
        var random = new java.util.Random(7);
        while (big.length() < 1_000_000) big.append(' ').append(Long.toString(random.nextLong() >>> 1, 36));
        String answer = big.append(" END").toString();
        Path file = tmp.resolve("big.yaml");
        Files.writeString(file, """
                name: big-report
                domain: agree
                split: test
                candidates:
                  - {id: verbose, provider: say, model: "%s"}
                repetitions: 5
                """.formatted(answer));
        Path dir = tmp.resolve("big");
        var run = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        long storeBytes = Files.size(dir.resolve("experiment.db"));

        Path out = tmp.resolve("big.html");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow",
                        "-Djava.awt.headless=true",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "brokkr.cli.Main",
                        "report",
                        dir.toString(),
                        "--out",
                        out.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "report of a " + storeBytes + "-byte store under -Xmx64m: " + log);

        assertTrue(Files.size(out) > 15_000_000, "a page of a quarter of the heap and more: " + Files.size(out));
        String html = Files.readString(out);
        assertTrue(html.endsWith("</body></html>\n"), "the page is complete");
        assertEquals(15, count(html, "<details class=\"attempt\""), "every attempt");
        // the tail of the answer is on the page exactly once per attempt (and the spec's once), the start of each
        // repetition cut with a way to see it whole
        assertEquals(15 + 1, count(html, " END"), "the whole answer once per attempt");
        assertTrue(count(html, "in all\\): show the whole text</summary>") >= 15, "cut, one click to the rest");
        assertTrue(html.length() < 20 * answer.length(), "not three copies per attempt: " + html.length());
    }

    /** NUL and bidi controls from a store are shown as escapes, never raw: a right-to-left override cannot reverse the page. */
    @Test
    void controlAndBidiCharactersAreShownEscaped() throws Exception {
        Path file = tmp.resolve("controls.yaml");
        Files.writeString(file, """
                name: controls
                domain: agree
                split: test
                candidates:
                  - {id: tricky, provider: say, model: "ok\\0nul \\u202Egnp.exe \\u2066iso\\u2069 \\x07bell"}
                repetitions: 1
                """);
        Path dir = tmp.resolve("controls");
        var run = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        Path out = tmp.resolve("controls.html");
        assertEquals(
                0,
                ExperimentCommandTest.cli("report", dir.toString(), "--out", out.toString())
                        .code());
        String html = Files.readString(out);
        for (char c : new char[] {'\u0000', '\u202E', '\u2066', '\u2069', '\u0007'})
            assertEquals(-1, html.indexOf(c), "no raw U+" + Integer.toHexString(c));
        assertTrue(html.contains("ok\\u0000nul \\u202Egnp.exe \\u2066iso\\u2069 \\u0007bell"), "shown escaped");
    }

    static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
