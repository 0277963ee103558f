package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.domains.wiki.ReferenceWiki.Kind;
import brokkr.eval.ModelRef;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The judge tier: off by default (the content id and the grade as without it), its model part of the content id
 * when on, its answer format read robustly and refused clearly, and with the scripted gold judge the calibration
 * still holding: the reference scores 1.0, each wiki loses what it lost before plus {@code faithful} where its prose
 * claims what its cited documents do not say, and a claim invisible to every other check loses exactly that.
 */
class WikiJudgeTest {
    static final WikiBenchmark WIKI = new WikiBenchmark();

    /** The ids of the public task and variant 17 before the judge tier existed (commit b5c8af6). */
    static final String PUBLIC_ID = "fe8d4e50c3f4adcfe42d443798c58b70453f6400f5a89fda2767db19d50dee4e",
            VARIANT_17_ID = "cc98de99f9639c97cae31a8da1c3a7fa58a575971687dd74d32ae237f6d76fc9";

    @Test
    void withoutAJudgeTheContentIdIsUnchangedAndTheJudgeModelChangesIt() {
        assertEquals(PUBLIC_ID, WIKI.environment("catalog", Map.of()).id());
        assertEquals(
                VARIANT_17_ID,
                WIKI.environment("catalog", Map.of(), PyDict.of("variant", 17)).id());
        // An experiment's other roles (tau2's user simulator) are not wiki's: ignored.
        assertEquals(
                PUBLIC_ID,
                WIKI.environment("catalog", Map.of("user", new ModelRef("openai", "customer")))
                        .id());
        ModelRef a = new ModelRef("openai", "judge-a"), b = new ModelRef("openai", "judge-b");
        var withA = WIKI.environment("catalog", Map.of("judge", a));
        assertEquals(Map.of("judge", a), withA.models());
        assertNotEquals(PUBLIC_ID, withA.id());
        assertNotEquals(
                withA.id(), WIKI.environment("catalog", Map.of("judge", b)).id());
        // What is asked changes the id; how long to wait for it does not.
        assertNotEquals(
                withA.id(),
                WIKI.environment(
                                "catalog",
                                Map.of("judge", new ModelRef("openai", "judge-a", PyDict.of("temperature", 0.0))))
                        .id());
        assertEquals(
                withA.id(),
                WIKI.environment(
                                "catalog",
                                Map.of("judge", new ModelRef("openai", "judge-a", PyDict.of("timeout_seconds", 30))))
                        .id());
        assertThrows(
                IllegalArgumentException.class,
                () -> WIKI.scripted("judge", new ModelRef("scripted", "all-met"), withA));
        assertTrue(WIKI.scripted("judge", new ModelRef("scripted", GoldJudge.NAME), withA) instanceof GoldJudge);
    }

    @Test
    void theAnswerFormatIsReadRobustly() {
        String json =
                "{\"claims\": [{\"claim\": \"It has 120 members.\", \"supported\": true, \"reason\": \"the report\"},"
                        + " {\"claim\": \"It was founded by aliens.\", \"supported\": false}]}";
        List<WikiJudge.Claim> expected = List.of(
                new WikiJudge.Claim("It has 120 members.", true, "the report"),
                new WikiJudge.Claim("It was founded by aliens.", false, ""));
        assertEquals(expected, WikiJudge.parse(json));
        assertEquals(expected, WikiJudge.parse("```json\n" + json + "\n```"));
        assertEquals(expected, WikiJudge.parse("Here is my verdict:\n" + json + "\nI hope this helps."));
        assertEquals(
                List.of(new WikiJudge.Claim("x", false, "")),
                WikiJudge.parse(
                        "{\"verdict\": \"mixed\", \"claims\": [{\"supported\": false, \"claim\": \"x\", \"n\": 1}]}"));
        assertEquals(List.of(), WikiJudge.parse(" {\"claims\": []} "));
        // Round trip: what a judge writes with answer() reads back.
        assertEquals(expected, WikiJudge.parse(WikiJudge.answer(expected)));
    }

    @Test
    void anAnswerOutsideTheFormatIsRefusedSayingWhy() {
        Map<String, String> bad = Map.of(
                "All claims are supported.", "is not the JSON object of the format",
                "", "answer is empty",
                "[1, 2]", "is a JSON list, not an object",
                "{\"results\": []}", "has no \"claims\" (keys: results)",
                "{\"claims\": {\"a\": 1}}", "\"claims\" is a JSON dict, not a list",
                "{\"claims\": [\"it is fine\"]}", "claim 1 is a JSON str, not an object",
                "{\"claims\": [{\"supported\": true}]}", "claim 1 has no \"claim\" text",
                "{\"claims\": [{\"claim\": \"a\", \"supported\": true}, {\"claim\": \"b\", \"supported\": \"yes\"}]}",
                        "claim 2 (\"b\"): \"supported\" is not a JSON boolean",
                "{\"claims\": [{\"claim\": \"a\"}]}", "\"supported\" is missing");
        bad.forEach((answer, says) -> {
            var e = assertThrows(WikiJudge.JudgeFormatException.class, () -> WikiJudge.parse(answer), answer);
            assertTrue(e.getMessage().contains(says), answer + " -> " + e.getMessage());
        });
    }

    /** A judge that answers in prose: the grade cannot be had, an infrastructure failure names the page. */
    @Test
    void anUnreadableAnswerIsAJudgeFailureNamingThePage() {
        WikiWorld w = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
        Candidate prose = (history, tools) -> Turn.of(new Message.Assistant("Looks faithful to me."));
        var e = assertThrows(
                InfrastructureFailure.class,
                () -> WikiJudge.judge("test/prose", prose, WikiBenchmark.docs(w), ReferenceWiki.of(w, Kind.REFERENCE)));
        assertTrue(
                e.getMessage().contains("the judge's answer is not the JSON object of the format")
                        && e.getMessage().contains("it begins: \"Looks faithful to me.\""),
                e.getMessage());
        // The first page in path order is the one asked first.
        String first = new TreeMap<>(ReferenceWiki.of(w, Kind.REFERENCE)).firstKey();
        assertTrue(e.getMessage().startsWith("judge: page " + first + ": "), e.getMessage());
    }

    /** The request for a page: the prompt, the page, and exactly the documents it cites, each with its text. */
    @Test
    void aRequestCarriesThePageAndTheTextsOfTheDocumentsItCites() {
        WikiWorld w = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
        Map<String, String> docs = WikiBenchmark.docs(w), wiki = ReferenceWiki.of(w, Kind.REFERENCE);
        Gold gold = Gold.of(w);
        String path = Workspace.WIKI + gold.entities().getFirst().slug() + ".md";
        List<Message> seen = new java.util.ArrayList<>();
        Candidate recording = (history, tools) -> {
            if (WikiJudge.read(history).path().equals(path)) seen.addAll(history);
            return Turn.of(new Message.Assistant("{\"claims\": []}"));
        };
        WikiJudge.Verdicts v = assertDoesNotThrow(() -> WikiJudge.judge("test/empty", recording, docs, wiki));
        assertEquals(wiki.keySet(), v.pages().keySet());
        assertEquals(0, v.claims());
        WikiJudge.Request r = WikiJudge.read(seen);
        assertEquals(wiki.get(path), r.text());
        Set<String> cited =
                new HashSet<>(WikiChecker.links(path, wiki.get(path)).values());
        cited.retainAll(docs.keySet());
        assertFalse(cited.isEmpty());
        assertEquals(cited, r.documents().keySet());
        r.documents().forEach((p, t) -> assertEquals(docs.get(p), t, p));
        assertEquals(WikiJudge.SYSTEM_PROMPT, seen.getFirst().content());
    }

    static <T> T assertDoesNotThrow(ThrowingSupplier<T> s) {
        try {
            return s.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    /** The gold judge's verdicts on {@code wiki}, asked through the request path a model is asked through. */
    static WikiJudge.Verdicts goldVerdicts(WikiWorld w, Map<String, String> wiki) {
        return assertDoesNotThrow(
                () -> WikiJudge.judge("scripted/gold", new GoldJudge(Gold.of(w)), WikiBenchmark.docs(w), wiki));
    }

    static WikiChecker.Grade judged(WikiWorld w, Map<String, String> wiki) {
        return WikiChecker.grade(Gold.of(w), WikiBenchmark.docs(w), wiki, goldVerdicts(w, wiki));
    }

    /** What each wiki fails with the gold judge on: what it failed before, plus faithful where its prose is not. */
    static final Map<Kind, Set<String>> JUDGED_FLIPS = new EnumMap<>(Map.ofEntries(
            Map.entry(Kind.REFERENCE, Set.of()),
            Map.entry(Kind.UNRELATED, Set.of("no_distractors")),
            Map.entry(Kind.INVENTED, Set.of("numbers_grounded", "faithful")),
            Map.entry(Kind.STALE, Set.of("current_values", "facts_stated")),
            Map.entry(Kind.MISSING_PAGES, Set.of("entity_pages", "facts_stated", "relations_linked")),
            Map.entry(Kind.NO_CITATIONS, Set.of("facts_cited", "numbers_grounded", "faithful")),
            Map.entry(Kind.CITE_ALL, Set.of("citations_precise", "facts_cited", "numbers_grounded"))));

    /** The reference with one made-up claim no check but the judge's can see: no figure, no distractor, cited. */
    static Map<String, String> inventedClaim(WikiWorld w) {
        Gold gold = Gold.of(w);
        Map<String, String> pages = new TreeMap<>(ReferenceWiki.of(w, Kind.REFERENCE));
        Gold.Entity director = gold.entities().get(2);
        String path = Workspace.WIKI + director.slug() + ".md";
        String source = gold.fact("director_appointed").sources().getFirst();
        pages.put(
                path,
                pages.get(path) + "- " + director.name() + " was born in " + w.hqTown() + " "
                        + ReferenceWiki.cite(List.of(source)) + ".\n");
        return pages;
    }

    @Test
    void withTheGoldJudgeTheCalibrationHoldsAndAnInventedClaimLosesExactlyFaithful() {
        for (long seed : WikiWorldTest.SEEDS) {
            WikiWorld w = WikiWorld.generate(seed);
            String at = "seed " + seed + ": ";
            Map<Kind, WikiChecker.Grade> grades = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) {
                Map<String, String> wiki = ReferenceWiki.of(w, k);
                WikiChecker.Grade off = WikiCalibrationTest.grade(w, k), on = judged(w, wiki);
                grades.put(k, on);
                // The judge adds one check after the others and changes no other.
                assertEquals(off.checks(), on.checks().subList(0, off.checks().size()), at + k.id);
                assertEquals(WikiChecker.FAITHFUL, on.checks().getLast().name(), at + k.id);
                Set<String> expected = JUDGED_FLIPS.get(k);
                if (expected != null) assertEquals(expected, on.failed(), at + k.id + " " + on.details());
            }
            WikiChecker.Grade reference = grades.get(Kind.REFERENCE);
            assertEquals(1.0, reference.score(), at + reference.details());
            assertTrue(
                    ((brokkr.value.PyInt) reference.details().get("claims")).longValue() > 30,
                    at + reference.details());
            // Gaming: a pasted source is faithful (it is not original: other checks say so); a page citing nothing is
            // not.
            assertFalse(grades.get(Kind.DUMP).failed().contains("faithful"), at + "dump");
            assertTrue(grades.get(Kind.ONE_PAGE).failed().contains("faithful"), at + "one-page");
            assertTrue(grades.get(Kind.FACTS_UNCITED).failed().contains("faithful"), at + "uncited");
            WikiChecker.Grade empty = grades.get(Kind.EMPTY);
            assertEquals(0.0, empty.score(), at + "empty");
            assertFalse(empty.failed().contains("faithful"), at + "empty");

            // The invented claim: invisible without the judge, exactly faithful with it.
            Map<String, String> invented = inventedClaim(w);
            WikiChecker.Grade off = WikiChecker.grade(Gold.of(w), WikiBenchmark.docs(w), invented);
            assertEquals(1.0, off.score(), at + off.details());
            WikiChecker.Grade on = judged(w, invented);
            assertEquals(Set.of("faithful"), on.failed(), at + on.details());
            assertTrue(on.score() < 1.0 && on.score() > 0.9, at + on.score());
            List<Value> why = on.details().get("unfaithful_claims").asList().items();
            assertEquals(1, why.size(), at + why);
            String director = Gold.of(w).entities().get(2).slug();
            assertTrue(
                    why.getFirst()
                            .asStr()
                            .startsWith("/wiki/" + director + ".md: \""
                                    + Gold.of(w).entities().get(2).name() + " was born in " + w.hqTown()),
                    at + why);
        }
    }

    @Test
    void theJudgedWeightsSumToOneAndFaithfulnessCostsInProportion() {
        assertEquals(1.0, WikiChecker.Weights.JUDGED.sum(), 1e-12);
        assertEquals(0.0, WikiChecker.Weights.DEFAULT.faithfulness());
        WikiWorld w = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
        Map<String, String> wiki = ReferenceWiki.of(w, Kind.REFERENCE);
        WikiJudge.Verdicts all = goldVerdicts(w, wiki);
        int claims = all.claims();
        // One claim of N judged unsupported: the faithfulness part loses 5/N of its 0.10.
        Map<String, List<WikiJudge.Claim>> one = new TreeMap<>(all.pages());
        String page = one.keySet().stream()
                .filter(p -> !one.get(p).isEmpty())
                .findFirst()
                .orElseThrow();
        List<WikiJudge.Claim> cs = new java.util.ArrayList<>(one.get(page));
        cs.set(0, new WikiJudge.Claim(cs.getFirst().claim(), false, "made up"));
        one.put(page, cs);
        WikiChecker.Grade g =
                WikiChecker.grade(Gold.of(w), WikiBenchmark.docs(w), wiki, new WikiJudge.Verdicts("test", one));
        assertEquals(Set.of("faithful"), g.failed());
        assertEquals(1.0 - 0.10 * 5.0 / claims, g.score(), 1e-6);
        assertEquals(
                List.of(page + ": \"" + cs.getFirst().claim() + "\" (made up)"),
                g.details().get("unfaithful_claims").asList().stream()
                        .map(Value::asStr)
                        .toList());
    }
}
