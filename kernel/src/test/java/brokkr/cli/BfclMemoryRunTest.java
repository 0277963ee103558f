package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.BfclCategory;
import brokkr.domains.bfcl.BfclOverall;
import brokkr.domains.bfcl.memory.MemoryCategory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./brokkr bfcl run --agent gold} over every part at once (a seeded sample of each single-turn, multi-turn and
 * memory category): the memory part prints upstream's memory accuracy per category, and upstream's overall is
 * printed once over all parts, each segment equal to upstream's formula (generate_leaderboard_csv) written out on the
 * per-category numbers the run printed; the agentic segment and its memory half are N/A until every category of
 * theirs ran (memory_vector, web_search), and the overall of the segments run names what it covers.
 */
class BfclMemoryRunTest {
    static final Pattern SINGLE = Pattern.compile("(?m)^([a-z_]+) +(\\d+) +(\\d+) +([0-9.]+) +\\d+ +\\d+$");
    static final Pattern EPISODIC =
            Pattern.compile("(?m)^((?:multi_turn|memory)_[a-z_]+) +(\\d+) +(\\d+) +([0-9.]+)%$");

    @Test
    void goldOverEveryPartPrintsUpstreamsOverallOfThem() {
        List<String> categories = new ArrayList<>(BfclCategory.ids());
        categories.addAll(BfclOverall.MULTI_TURN);
        categories.addAll(MemoryCategory.availableIds());
        ConformanceCommandTest.Run r = BfclCommandTest.main(
                "bfcl",
                "run",
                "--agent",
                "gold",
                "--categories",
                String.join(",", categories),
                "--sample",
                "3",
                "--seed",
                "4");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(
                out.contains("memory: " + 3 * MemoryCategory.availableIds().size()
                        + " tasks (sample 3 per category, seed 4)\n"),
                out);
        Map<String, Double> acc = new LinkedHashMap<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Matcher m = SINGLE.matcher(out); m.find(); ) {
            if (m.group(1).equals("total")) continue;
            acc.put(m.group(1), Double.parseDouble(m.group(4)));
            count.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        for (Matcher m = EPISODIC.matcher(out); m.find(); ) {
            acc.put(m.group(1), Double.parseDouble(m.group(4)) / 100);
            count.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        assertEquals(new java.util.TreeSet<>(categories), new java.util.TreeSet<>(acc.keySet()), out);
        for (String c : MemoryCategory.availableIds()) assertEquals(3, count.get(c), c);

        // upstream's formula, written out on the printed numbers (rounded as printed: compare at 1e-3)
        double simple = (acc.get("simple_python") + acc.get("simple_java") + acc.get("simple_javascript")) / 3;
        double nonLive = (simple + acc.get("multiple") + acc.get("parallel") + acc.get("parallel_multiple")) / 4;
        double live = 0;
        int n = 0;
        for (String c : BfclOverall.LIVE) {
            live += acc.get(c) * count.get(c);
            n += count.get(c);
        }
        live /= n;
        double irrelevance = (acc.get("irrelevance") + acc.get("live_irrelevance")) / 2;
        double multiTurn = 0;
        for (String c : BfclOverall.MULTI_TURN) multiTurn += acc.get(c) / 4;
        assertFigure(out, "non-live (10%)", nonLive);
        assertFigure(out, "live (10%)", live);
        assertFigure(out, "irrelevance (10%)", irrelevance);
        assertFigure(out, "multi-turn (30%)", multiTurn);
        assertFigure(out, "agentic (40%)", null); // web_search was not run
        assertFigure(out, "agentic: web search (20%)", null);
        assertFigure(out, "overall (upstream's weights)", null);
        boolean vector = MemoryCategory.availableIds().contains("memory_vector");
        if (vector) {
            double memory = (acc.get("memory_kv") + acc.get("memory_vector") + acc.get("memory_rec_sum")) / 3;
            assertFigure(out, "agentic: memory (20%)", memory);
            assertFigure(
                    out,
                    "overall of the segments run (non-live, live, irrelevance, multi-turn, memory (half of agentic): 80% of upstream's weight)",
                    (10 * nonLive + 10 * live + 10 * irrelevance + 30 * multiTurn + 20 * memory) / 80);
        } else {
            // summary_memory is the mean of all three: without memory_vector it is not upstream's
            assertFigure(out, "agentic: memory (20%)", null);
            assertFigure(
                    out,
                    "overall of the segments run (non-live, live, irrelevance, multi-turn: 60% of upstream's weight)",
                    (10 * nonLive + 10 * live + 10 * irrelevance + 30 * multiTurn) / 60);
        }
        // the overall is printed once, after the last part
        assertEquals(1, out.split("overall \\(upstream's weights\\)", -1).length - 1, out);
    }

    /** Once memory's three categories ran (and web search did not), memory is half of agentic in the overall of the segments run. */
    @Test
    void theMemoryHalfCountsInTheOverallOfTheSegmentsRun() {
        Map<String, BfclOverall.Category> c = new LinkedHashMap<>();
        for (String id : BfclOverall.MULTI_TURN) c.put(id, new BfclOverall.Category(1.0, 200));
        c.put("memory_kv", new BfclOverall.Category(140.0 / 155, 155));
        c.put("memory_vector", new BfclOverall.Category(0.5, 155));
        c.put("memory_rec_sum", new BfclOverall.Category(140.0 / 155, 155));
        BfclOverall o = BfclOverall.of(c);
        double memory = (2 * 140.0 / 155 + 0.5) / 3;
        assertNull(o.upstream());
        assertEquals(List.of("non-live", "live", "irrelevance", "agentic"), o.notRun());
        assertEquals((30 * 1.0 + 20 * memory) / 50, o.ofSegmentsRun(), 1e-12);
        assertEquals("multi-turn, memory (half of agentic): 50% of upstream's weight", o.covers());
        c.remove("memory_vector");
        assertEquals("multi-turn: 30% of upstream's weight", BfclOverall.of(c).covers());
    }

    private static void assertFigure(String out, String name, Double expected) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ": (.*)$").matcher(out);
        assertTrue(m.find(), name + " in\n" + out);
        if (expected == null) assertEquals("N/A", m.group(1), name);
        else
            assertEquals(
                    Double.parseDouble(String.format(Locale.ROOT, "%.4f", expected)),
                    Double.parseDouble(m.group(1)),
                    1e-3,
                    name);
    }
}
