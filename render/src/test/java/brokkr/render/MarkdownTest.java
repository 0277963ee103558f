package brokkr.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A page a run wrote, rendered into the report: its Markdown as HTML, its links followed only inside the page, its markup never run. */
class MarkdownTest {
    static final Map<String, String> IDS = Map.of("b.md", "page-b", "/docs/charter.md", "source-charter");

    static String html(String md) {
        return Markdown.html(md, IDS::get);
    }

    @Test
    void commonMarkWithLinksToWhatThePageHolds() {
        assertEquals(
                "<h1>Alpha</h1>\n<ul>\n<li>Founded in <strong>1988</strong> (<a href=\"#source-charter\" class=\"md-link\""
                        + " data-dest=\"/docs/charter.md\">charter</a>).</li>\n<li>See <a href=\"#page-b\" class=\"md-link\""
                        + " data-dest=\"b.md\">Beta</a>.</li>\n</ul>\n",
                (html("# Alpha\n\n- Founded in **1988** ([charter](/docs/charter.md)).\n- See [Beta](b.md).\n")));
        String table = html("| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        assertTrue(table.contains("<table>") && table.contains("<td>1</td>"), table);
    }

    @Test
    void aLinkThatReachesNothingIsMarkedAndNotFollowed() {
        String h = html("See [Gamma](gamma.md).");
        assertTrue(h.contains("<span") && h.contains("class=\"md-broken\"") && h.contains(">Gamma</span>"), h);
        assertTrue(h.contains("title=\"broken link: gamma.md reaches no file\""), h);
        assertFalse(h.contains("href"), h);
    }

    @Test
    void markupInAPageIsShownAsTextAndNeverRuns() {
        String page = """
                # <script>window.pwned=1</script>

                <img src=x onerror="window.pwned=2">

                Inline <b onclick="window.pwned=3">bold</b> and <iframe src="https://example.com"></iframe>.

                [click](javascript:window.pwned=4) [site](https://example.com/track) [mail](mailto:a@b.c)
                ![logo](https://example.com/logo.png) [tricky](b.md "x\\" onmouseover=\\"window.pwned=5")
                """;
        String h = html(page);
        for (String markup : List.of("<script", "<img", "<b ", "<iframe", "onerror=\"", "onclick=\"", "onmouseover=\""))
            assertFalse(h.contains(markup), markup + " in " + h);
        assertTrue(h.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;"), "the title as written: " + h);
        assertTrue(h.contains("&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;"), h);
        assertTrue(h.contains("&lt;b onclick=&quot;window.pwned=3&quot;&gt;bold&lt;/b&gt;"), h);
        // Links with a scheme are named, never followed; the image is its alt text, never fetched.
        assertEquals(List.of("#page-b"), hrefs(h), "the only link followed is the one to a page here");
        assertTrue(h.contains("title=\"javascript:window.pwned=4 (outside this page: not followed)\""), h);
        assertTrue(h.contains("title=\"https://example.com/track (outside this page: not followed)\""), h);
        assertTrue(h.contains(">[image: logo]</span>") && !h.contains(" src=\""), h);
        // A link title that tries to close its attribute stays inside it.
        assertTrue(h.contains("title=\"x&quot; onmouseover=&quot;window.pwned=5\""), h);
    }

    @Test
    void invisibleControlsAreShownAsEscapes() {
        String h = html("Admin\u202Eexe.txt and a bell\u0007");
        assertTrue(h.contains("Admin\\u202Eexe.txt and a bell\\u0007"), h);
        assertFalse(h.contains("\u202E") || h.contains("\u0007"), h);
        assertEquals("", Markdown.html(null, IDS::get));
    }

    static List<String> hrefs(String h) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("href=\"([^\"]*)\"").matcher(h);
        while (m.find()) out.add(m.group(1));
        return out;
    }
}
