package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.wiki.ReferenceWiki.Kind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The checker's calibration, on the public seed and 20 generated ones: the reference wiki scores 1.0 with every
 * check true; each damaged variant loses exactly the checks its damage touches, in a fixed order of scores; no
 * wiki a gaming agent would write scores above an honest partial one.
 */
class WikiCalibrationTest {
    static WikiChecker.Grade grade(WikiWorld w, Kind k) {
        Map<String, String> docs = new TreeMap<>();
        Documents.of(w).forEach((p, d) -> docs.put(p, d.text()));
        return WikiChecker.grade(Gold.of(w), docs, ReferenceWiki.of(w, k));
    }

    /** What each damage flips, and nothing else. */
    static final Map<Kind, Set<String>> FLIPS = new EnumMap<>(Map.of(
            Kind.REFERENCE, Set.of(),
            Kind.UNRELATED, Set.of("no_distractors"),
            Kind.INVENTED, Set.of("numbers_grounded"),
            Kind.STALE, Set.of("current_values", "facts_stated"),
            Kind.MISSING_PAGES, Set.of("entity_pages", "facts_stated", "relations_linked"),
            Kind.NO_CITATIONS, Set.of("facts_cited", "numbers_grounded")));

    /** Honest wikis from best to worst: each scores strictly below the one before. */
    static final List<Kind> ORDER =
            List.of(Kind.REFERENCE, Kind.UNRELATED, Kind.INVENTED, Kind.STALE, Kind.MISSING_PAGES, Kind.NO_CITATIONS);

    static final List<Kind> HONEST_PARTIAL = List.of(Kind.UNRELATED, Kind.INVENTED, Kind.STALE, Kind.MISSING_PAGES);
    static final List<Kind> ADVERSARIAL = List.of(Kind.DUMP, Kind.ONE_PAGE, Kind.FACTS_UNCITED, Kind.CITE_ALL);

    @Test
    void calibrationHoldsOnThePublicSetAndTwentySeeds() {
        for (long seed : WikiWorldTest.SEEDS) {
            WikiWorld w = WikiWorld.generate(seed);
            Map<Kind, WikiChecker.Grade> grades = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) grades.put(k, grade(w, k));
            String at = "seed " + seed + ": ";
            assertEquals(
                    1.0,
                    grades.get(Kind.REFERENCE).score(),
                    at + grades.get(Kind.REFERENCE).details());
            for (var e : FLIPS.entrySet())
                assertEquals(
                        e.getValue(),
                        grades.get(e.getKey()).failed(),
                        at + e.getKey().id + " " + grades.get(e.getKey()).details());
            for (int i = 1; i < ORDER.size(); i++)
                assertTrue(
                        grades.get(ORDER.get(i)).score()
                                < grades.get(ORDER.get(i - 1)).score(),
                        at + ORDER.get(i).id + " not below " + ORDER.get(i - 1).id);
            double honest = HONEST_PARTIAL.stream()
                    .mapToDouble(k -> grades.get(k).score())
                    .min()
                    .orElseThrow();
            for (Kind k : ADVERSARIAL) {
                WikiChecker.Grade g = grades.get(k);
                assertTrue(
                        g.score() < honest, at + k.id + " scores " + g.score() + ", an honest partial wiki " + honest);
                assertTrue(g.score() <= grades.get(Kind.NO_CITATIONS).score(), at + k.id + " above the uncited wiki");
                assertTrue(!g.failed().isEmpty(), at + k.id);
            }
            // Spraying citations buys nothing: the cite-all wiki counts no fact, like the uncited one.
            assertEquals(
                    0L,
                    ((brokkr.value.PyInt) grades.get(Kind.CITE_ALL).details().get("facts_counted")).longValue(),
                    at + "cite-all");
            assertEquals(0.0, grades.get(Kind.EMPTY).score(), at + "empty");
            assertEquals(
                    Set.of("entity_pages", "facts_stated", "index_page", "relations_linked"),
                    grades.get(Kind.EMPTY).failed());
        }
    }

    @Test
    void theWeightsSumToOne() {
        assertEquals(1.0, WikiChecker.Weights.DEFAULT.sum(), 1e-12);
        assertEquals(
                WikiChecker.CHECKS,
                grade(WikiWorld.generate(1), Kind.REFERENCE).checks().stream()
                        .map(c -> c.name())
                        .toList());
    }
}
