package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A wiki written by hand for the public world, in another style than the reference (paragraphs, tables, relative
 * citations, several facts and a stale value per line, figures in words, page titles and file names of its own):
 * the checker reads what it says, not the reference's template. Small edits to it lose exactly their check.
 */
class WikiHandwrittenTest {
    static final List<String> PAGES = List.of(
            "index",
            "rushmere-river-trust",
            "ines-castellan",
            "bram-varga",
            "clara-brennan",
            "curlew-ford-field-station",
            "fenwick-reserve",
            "millbrook-pipeline",
            "drought-notice",
            "reserve-extension");

    static Map<String, String> handwritten() throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (String p : PAGES)
            try (InputStream in = WikiHandwrittenTest.class.getResourceAsStream("handwritten/" + p + ".md")) {
                out.put("/wiki/" + p + ".md", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        return out;
    }

    static WikiChecker.Grade grade(Map<String, String> wiki) {
        WikiWorld w = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
        return WikiChecker.grade(Gold.of(w), WikiBenchmark.docs(w), wiki);
    }

    static Map<String, String> edit(Map<String, String> wiki, String page, String from, String to) {
        Map<String, String> out = new TreeMap<>(wiki);
        String text = out.get("/wiki/" + page + ".md");
        if (!text.contains(from)) throw new IllegalArgumentException(from);
        out.put("/wiki/" + page + ".md", text.replace(from, to));
        return out;
    }

    @Test
    void aHandwrittenWikiScoresOne() throws IOException {
        WikiChecker.Grade g = grade(handwritten());
        assertEquals(Set.of(), g.failed(), g.details().toString());
        assertEquals(1.0, g.score());
    }

    @Test
    void eachEditLosesItsCheck() throws IOException {
        Map<String, String> wiki = handwritten();
        // The derived duration left out.
        assertEquals(
                Set.of("facts_stated"),
                grade(edit(wiki, "drought-notice", ", so it lasted 72 days", ""))
                        .failed());
        // A wrong duration: not the synthesis value, in no cited source.
        assertEquals(
                Set.of("facts_stated", "numbers_grounded"),
                grade(edit(wiki, "drought-notice", "72 days", "71 days")).failed());
        // The blog's figure given as fact ("claims ... that is wrong" were its qualifiers).
        assertEquals(
                Set.of("current_values"),
                grade(edit(
                                wiki,
                                "millbrook-pipeline",
                                "An unofficial blog claims it runs for 66 km ([blog](/docs/riverbank-blog.md)); that is wrong.",
                                "It runs for 66 km ([blog](/docs/riverbank-blog.md))."))
                        .failed());
        // The agenda cited for a figure it does not give.
        assertEquals(
                Set.of("citations_precise"),
                grade(edit(
                                wiki,
                                "bram-varga",
                                "([minutes](/docs/board-minutes-2003.md))",
                                "([minutes](/docs/board-minutes-2003.md), [agenda](/docs/agm-agenda.md))"))
                        .failed());
        // A link to a page that is not there.
        assertEquals(
                Set.of("links_resolve"),
                grade(edit(wiki, "clara-brennan", "a hydrologist,", "a [hydrologist](hydrology.md),"))
                        .failed());
    }
}
