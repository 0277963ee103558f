package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The gold is derived from the world, and every gold fact is stated in the documents it names (public set and 20 seeds). */
class WikiWorldTest {
    /** The public seed and 20 generated ones. */
    static final List<Long> SEEDS = LongStream.concat(
                    LongStream.of(WikiWorld.PUBLIC_SEED), LongStream.rangeClosed(1, 20))
            .boxed()
            .toList();

    static WikiChecker.Page doc(Documents.Doc d) {
        return WikiChecker.page(d.path(), d.text(), Set.of(), Set.of());
    }

    static boolean states(Documents.Doc d, Gold.Fact f) {
        WikiChecker.Page p = doc(d);
        for (int i = 0; i < p.sentences().size(); i++)
            if (f.statedIn(p.sentences().get(i), p.sentenceNumbers().get(i))) return true;
        return false;
    }

    static boolean mentions(Documents.Doc d, Term t) {
        WikiChecker.Page p = doc(d);
        for (int i = 0; i < p.sentences().size(); i++)
            if (t.in(p.sentences().get(i), p.sentenceNumbers().get(i))) return true;
        return false;
    }

    @Test
    void everyGoldFactIsStatedInTheDocumentsItNames() {
        for (long seed : SEEDS) {
            WikiWorld w = WikiWorld.generate(seed);
            Gold g = Gold.of(w);
            Map<String, Documents.Doc> docs = Documents.of(w);
            String at = "seed " + seed + ": ";
            assertEquals(12, docs.size(), at + "documents");
            assertEquals(9, g.entities().size(), at + "entities");
            assertTrue(g.facts().size() >= 20, at + "facts");
            assertEquals(5, g.stale().size(), at + "stale values");
            for (Gold.Fact f : g.facts()) {
                if (f.synthesis()) {
                    // A synthesis is stated by no document: its inputs are, in theirs.
                    for (Documents.Doc d : docs.values())
                        assertFalse(states(d, f), at + f.id() + " stated in " + d.path());
                    assertEquals(WikiChecker.sourcesOf(g, f), Set.copyOf(f.sources()), at + f.id() + " sources");
                    assertTrue(
                            f.inputs().size() >= 2
                                    && f.inputs().stream()
                                            .noneMatch(i -> g.fact(i).synthesis()),
                            at + f.id());
                } else {
                    for (String s : f.sources())
                        assertTrue(states(docs.get(s), f), at + f.id() + " not stated in " + s);
                }
            }
            for (Gold.Stale s : g.stale()) {
                assertTrue(mentions(docs.get(s.source()), s.value()), at + s.id() + " not in " + s.source());
                assertTrue(
                        states(docs.get(s.correctedBy()), g.fact(s.fact())),
                        at + s.id() + " not corrected by " + s.correctedBy());
            }
            Documents.Paths p = Documents.Paths.of(w);
            for (Gold.Fact f : g.facts())
                assertFalse(states(docs.get(p.agenda()), f), at + "the agenda states " + f.id());
            for (Gold.Distractor d : g.distractors())
                for (Documents.Doc doc : docs.values())
                    assertEquals(
                            doc.path().equals(d.source()),
                            doc.text().contains(d.term()),
                            at + d.term() + " in " + doc.path());
            assertTrue(
                    docs.get(p.noticeReissue())
                            .text()
                            .startsWith(docs.get(p.noticeRelease()).text()),
                    at + "duplicate");
            // Figures spelled in words ground figures written in digits.
            assertTrue(Numbers.in(docs.get(p.report()).text()).contains((long) w.staff()), at + "staff in words");
        }
    }

    @Test
    void aSeedIsAWorld() {
        assertEquals(WikiWorld.generate(7), WikiWorld.generate(7));
        assertNotEquals(WikiWorld.generate(7).toValue(), WikiWorld.generate(8).toValue());
        assertTrue(WikiWorld.generate(WikiWorld.PUBLIC_SEED).figuresDistinct());
    }

    @Test
    void numbersInDigitsAndWords() {
        assertEquals(
                List.of(46L, 1240L, 1240L, 206L, 1L, 2L, 1084417L, 2019L, 3L, 14L),
                Numbers.in("forty-six; one thousand two hundred and forty, 1,240; two hundred six; one and two; "
                        + "1084417 2019-03-14"));
        for (long n : new long[] {10, 19, 20, 46, 100, 101, 999, 1000, 1240, 20_000, 640_000, 1_084_417})
            assertEquals(List.of(n), Numbers.in(Numbers.words(n)), Numbers.words(n));
    }
}
