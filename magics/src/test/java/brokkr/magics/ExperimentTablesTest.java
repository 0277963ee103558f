package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.Evidence;
import brokkr.eval.TrustTier;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Inspect;
import brokkr.experiment.Scorecard;
import brokkr.magics.builtin.ExperimentMagics;
import brokkr.magics.view.ExperimentTables;
import brokkr.magics.view.Tables;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class ExperimentTablesTest {
    static Scorecard sample() {
        var gold = new Scorecard.CandidateScore(
                "tau2-retail",
                "gold",
                "a1",
                2,
                6,
                1,
                1.0,
                List.of(1.0, 1.0, 1.0),
                List.of(
                        new Scorecard.TaskScore("5", 3, 3, 1.0, List.of(1.0, 1.0, 1.0)),
                        new Scorecard.TaskScore("12", 3, 3, 1.0, List.of(1.0, 1.0, 1.0))),
                List.of(new Scorecard.CheckScore("setup_verified", 6, 0), new Scorecard.CheckScore("db", 6, 0)),
                Map.of(TrustTier.MODEL_JUDGED, 2, TrustTier.DETERMINISTIC, 4),
                new Scorecard.Cost(
                        1234,
                        56,
                        12.5,
                        75,
                        new EpisodeCost.Means(
                                6, 1234 / 6.0, 56 / 6.0, 4.0, 3.5, 12345.5, Map.of("agent", 0.0123, "judge", 0.0045))));
        // A scripted model: no tokens reported (missing, never 0), its steps and request characters counted. 3 of 5
        // attempts passed; pass^1 = (2/3 + 1/2) / 2 = 7/12, pass^2 = (1/3 + 0) / 2 = 1/6.
        var flaky = new Scorecard.CandidateScore(
                "tau2-retail",
                "flaky-model",
                "a2",
                2,
                5,
                2,
                0.6,
                List.of(7.0 / 12, 1.0 / 6),
                List.of(
                        new Scorecard.TaskScore("5", 3, 2, 2.0 / 3, List.of(2.0 / 3, 1.0 / 3, 0.0)),
                        new Scorecard.TaskScore("12", 2, 1, 0.5, List.of(0.5, 0.0))),
                List.of(new Scorecard.CheckScore("setup_verified", 5, 0), new Scorecard.CheckScore("db", 5, 2)),
                Map.of(TrustTier.DETERMINISTIC, 5),
                new Scorecard.Cost(
                        0, 0, 1234.5678, 6172, new EpisodeCost.Means(5, Double.NaN, Double.NaN, 10.0, 2.6, 8400.0)));
        var down = new Scorecard.CandidateScore(
                "loop",
                "down",
                "a3",
                0,
                0,
                4,
                0.0,
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                new Scorecard.Cost(0, 0, 0, 0, EpisodeCost.Means.NONE));
        return new Scorecard(List.of(gold, flaky, down), 16, 5);
    }

    static String golden(String name) throws Exception {
        try (var in = ExperimentTablesTest.class.getResourceAsStream("golden/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The CLI's text (experiment run/show) and the notebook's tables, frozen byte for byte. */
    @Test
    void scorecardRendersExactlyAsFrozen() throws Exception {
        Scorecard s = sample();
        assertEquals(golden("scorecard.txt"), ExperimentTables.text(s));
        assertEquals(golden("scorecard-empty.txt"), ExperimentTables.text(new Scorecard(List.of(), 0, 0)));
        assertEquals(golden("scorecard.html"), new ExperimentMagics.ScorecardView("d", s).html());
        assertEquals(
                golden("scorecard-tables.txt"),
                Tables.text(ExperimentTables.summary(s))
                        + Tables.text(ExperimentTables.tasks(s))
                        + Tables.text(ExperimentTables.checks(s)));
    }

    /** A candidate with no scored attempt has no average reward: "–" in the text and HTML, missing in the tables, never 0.000. */
    @Test
    void aCandidateWithNoScoredAttemptShowsADashNeverZero() {
        Scorecard s = sample();
        String downLine = ExperimentTables.text(s)
                .lines()
                .filter(l -> l.startsWith("loop"))
                .findFirst()
                .orElseThrow();
        // tasks 0, trials –, attempts 0, infra 4, avg_reward/se/t95_lo/t95_hi –, pass^1..3 –, the eight costs per
        // episode (five counts, three roles' dollars) –, duration –, trust –
        assertEquals(
                List.of(
                        "loop", "down", "0", "–", "0", "4", "–", "–", "–", "–", "–", "–", "–", "–", "–", "–", "–", "–",
                        "–", "–", "–", "–", "–"),
                List.of(downLine.split("\\s+")));
        Table summary = ExperimentTables.summary(s);
        assertTrue(summary.doubleColumn("avg_reward").isMissing(2), "missing, not 0.0");
        assertTrue(summary.doubleColumn("mean_duration_ms").isMissing(2));
        assertTrue(summary.doubleColumn("se").isMissing(2)
                && summary.doubleColumn("t95_lo").isMissing(2));
        Table stats = ExperimentTables.statistics(s);
        Table down = stats.where(stats.stringColumn("candidate").isEqualTo("down"));
        assertEquals(1, down.rowCount(), "only avg_reward: no pass^k without a scored trial");
        for (String c : List.of("value", "se", "t95_lo", "t95_hi", "wilson95_lo", "wilson95_hi"))
            assertTrue(down.doubleColumn(c).isMissing(0), c);
        assertEquals(4, down.intColumn("infra_excluded").get(0));
        assertEquals(1.0, summary.doubleColumn("avg_reward").get(0));
        String html = new ExperimentMagics.ScorecardView("d", s).html();
        String row = html.substring(html.indexOf(">down<"));
        row = row.substring(0, row.indexOf("</tr>"));
        assertTrue(row.contains(">–</td>"), row);
        assertFalse(row.replaceAll("<[^>]*>", " ").matches(".*\\b0\\.0+\\b.*"), row);
    }

    /**
     * What an episode costs, in the summary itself: gold's means per episode under the five columns in every
     * view (text, the table, HTML); the scripted flaky-model reported no tokens, so its token cells are
     * missing ("–"), never 0, while its steps, calls and request characters show.
     */
    @Test
    void theSummaryShowsTheCostsPerEpisodeAndADashForTokensNoModelReported() {
        Scorecard s = sample();
        Table summary = ExperimentTables.summary(s);
        assertEquals(
                List.of(
                        "in_tok/ep",
                        "out_tok/ep",
                        "steps/ep",
                        "calls/ep",
                        "req_chars/ep",
                        "usd_agent/ep",
                        "usd_user/ep",
                        "usd_judge/ep"),
                summary.columnNames()
                        .subList(summary.columnIndex("in_tok/ep"), summary.columnIndex("mean_duration_ms")));
        assertEquals(1234 / 6.0, summary.doubleColumn("in_tok/ep").get(0), 1e-12);
        assertEquals(12345.5, summary.doubleColumn("req_chars/ep").get(0));
        // Dollars by role: gold's agent and judge priced, its user simulator asked no model (a dash); flaky-model's
        // scripted agent unpriced (a dash, never $0).
        assertEquals(0.0123, summary.doubleColumn("usd_agent/ep").get(0));
        assertEquals(0.0045, summary.doubleColumn("usd_judge/ep").get(0));
        assertTrue(summary.doubleColumn("usd_user/ep").isMissing(0));
        assertTrue(summary.doubleColumn("usd_agent/ep").isMissing(1));
        assertTrue(
                summary.doubleColumn("in_tok/ep").isMissing(1)
                        && summary.doubleColumn("out_tok/ep").isMissing(1),
                "not reported: missing");
        assertEquals(10.0, summary.doubleColumn("steps/ep").get(1));
        assertEquals(2.6, summary.doubleColumn("calls/ep").get(1));
        String flakyLine = ExperimentTables.text(s)
                .lines()
                .filter(l -> l.contains("flaky-model") && l.contains("deterministic"))
                .findFirst()
                .orElseThrow();
        assertTrue(flakyLine.matches(".*\\s–\\s+–\\s+10\\.0\\s+2\\.60\\s+8400\\s.*"), flakyLine);
        String html = new ExperimentMagics.ScorecardView("d", s).html();
        for (String h : ExperimentTables.PER_EPISODE) assertTrue(html.contains(">" + Tables.esc(h) + "</th>"), h);
        // the per-episode columns are in later groups of the scorecard (too wide for the page in one): flaky-model's
        // steps show, its tokens (before them) and its dollars are dashes
        String row = html.substring(html.indexOf(">flaky-model<", html.indexOf(">steps/ep</th>")));
        row = row.substring(0, row.indexOf("</tr>"));
        assertTrue(row.contains(">10.0</td>"), row);
        String usdRow = html.substring(html.indexOf(">flaky-model<", html.indexOf(">usd_agent/ep</th>")));
        usdRow = usdRow.substring(0, usdRow.indexOf("</tr>"));
        assertTrue(usdRow.contains(">–</td>") && !usdRow.contains(">0.00"), usdRow);
    }

    /**
     * flaky-model's average reward, by hand: tasks of 3 trials (mean 2/3) and 2 (mean 1/2), N = 5, m = 0.6;
     * residuals summed per task 0.2 and -0.2; CR1 variance 2 * 0.08 / 25 = 0.0064, se 0.08; the t interval
     * (12.706 for 1 df) clipped to [0, 1]; Wilson-type: CR0 variance 0.0032, n_eff = 0.24/0.0032 = 75 capped
     * at the 5 trials, Wilson(0.6, 5, 12.706) = [0.010867, 0.995141] (the formula evaluated in SciPy).
     */
    @Test
    void statisticsTableCarriesTheHandWorkedNumbers() {
        Table stats = ExperimentTables.statistics(sample());
        Table flaky = stats.where(stats.stringColumn("candidate")
                .isEqualTo("flaky-model")
                .and(stats.stringColumn("metric").isEqualTo("avg_reward")));
        assertEquals(0.6, flaky.doubleColumn("value").get(0), 1e-12);
        assertEquals(0.08, flaky.doubleColumn("se").get(0), 1e-12);
        assertEquals(0.0, flaky.doubleColumn("t95_lo").get(0));
        assertEquals(1.0, flaky.doubleColumn("t95_hi").get(0));
        assertEquals(0.010867016, flaky.doubleColumn("wilson95_lo").get(0), 1e-8);
        assertEquals(0.995140880, flaky.doubleColumn("wilson95_hi").get(0), 1e-8);
        assertEquals("wilson", flaky.stringColumn("read").get(0), "2 tasks: read the Wilson-type interval");
        assertEquals("2-3", flaky.stringColumn("trials").get(0));
        assertEquals(5, flaky.intColumn("attempts").get(0));
        assertEquals(2, flaky.intColumn("infra_excluded").get(0));
        assertEquals(
                List.of("avg_reward", "pass^1", "pass^2"),
                stats.where(stats.stringColumn("candidate").isEqualTo("flaky-model"))
                        .stringColumn("metric")
                        .asList());
        assertTrue(ExperimentTables.text(sample())
                .contains("infrastructure failures are excluded from every metric and denominator"));
    }

    /**
     * {@code ./brokkr experiment attempts}: numbers right-aligned with three significant digits, durations
     * in ms or s, a missing reward and empty texts as "–", long errors cut to one line of 100.
     */
    @Test
    void attemptsListAsTheCliPrintsThem() {
        String longError = "infrastructure failure: openai gpt: 5 attempts failed;\nlast: " + "x".repeat(100);
        var rows = List.of(
                new Inspect.AttemptRow(
                        new Attempt(
                                1,
                                "e1",
                                "a1",
                                0,
                                "5",
                                Attempt.Status.COMPLETED,
                                List.of(new Check("setup_verified", true), new Check("db", true)),
                                1.0,
                                TrustTier.DETERMINISTIC,
                                Evidence.EMPTY,
                                null,
                                0,
                                124),
                        "tau2-retail",
                        "gold"),
                new Inspect.AttemptRow(
                        new Attempt(
                                12,
                                "e1",
                                "a2",
                                3,
                                "12",
                                Attempt.Status.COMPLETED,
                                List.of(new Check("db", false), new Check("nl_assertion", false)),
                                0.0,
                                TrustTier.MODEL_JUDGED,
                                Evidence.EMPTY,
                                null,
                                0,
                                7),
                        "tau2-retail",
                        "stop-at-once"),
                new Inspect.AttemptRow(
                        new Attempt(
                                13,
                                "e2",
                                "a3",
                                1,
                                "5",
                                Attempt.Status.INFRASTRUCTURE_FAILURE,
                                List.of(),
                                0.0,
                                null,
                                Evidence.EMPTY,
                                longError,
                                0,
                                5887),
                        "loop",
                        "down"));
        String expected = """
                id  benchmark    candidate     task  trial  status                  reward  failed_checks    duration  error
                 1  tau2-retail  gold          5         1  completed                 1.00  –                  124 ms  –
                12  tau2-retail  stop-at-once  12        4  completed                    0  db,nl_assertion      7 ms  –
                13  loop         down          5         2  infrastructure_failure       –  –                  5.89 s  infrastructure failure: openai gpt: 5 attempts failed; last: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...
                """;
        assertEquals(expected, Tables.aligned(ExperimentTables.attempts(rows)));
    }
}
