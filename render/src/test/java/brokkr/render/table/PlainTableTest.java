package brokkr.render.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.python.PyJson;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plain table and its renderers: what a missing value is in each format, durations, limits, notes. */
class PlainTableTest {
    static PlainTable sample() {
        PlainTable.Builder name = PlainTable.text("name"),
                n = PlainTable.integers("n"),
                id = PlainTable.longs("id"),
                rate = PlainTable.doubles("rate"),
                ms = PlainTable.longs("wall_ms");
        name.append("a, b").append("").append("c");
        n.append(1).appendMissing().append(30);
        id.append(7).append(8L).append(9);
        rate.append(2.0 / 3).append(Double.NaN).append(1.0);
        ms.append(12).append(1500).append(125_000);
        return PlainTable.of("t", name, n, id, rate, ms);
    }

    @Test
    void aMissingValueIsADashInTextEmptyInCsvAndNullInJson() {
        PlainTable t = sample();
        assertTrue(t.column("name").isMissing(1) && t.column("rate").isMissing(1), "an empty text and NaN are missing");
        assertEquals("""
                t
                name   n  id   rate        wall
                a, b   1   7  0.667       12 ms
                –      –   8      –      1.50 s
                c     30   9   1.00  2 min 05 s
                """, TableText.text(t));
        assertEquals(
                "name,n,id,rate,wall_ms\r\n\"a, b\",1,7,0.6666666666666666,12\r\n,,8,,1500\r\nc,30,9,1.0,125000\r\n",
                TableCsv.csv(t));
        assertEquals(
                "[{\"name\": \"a, b\", \"n\": 1, \"id\": 7, \"rate\": 0.6666666666666666, \"wall_ms\": 12}, "
                        + "{\"name\": null, \"n\": null, \"id\": 8, \"rate\": null, \"wall_ms\": 1500}, "
                        + "{\"name\": \"c\", \"n\": 30, \"id\": 9, \"rate\": 1.0, \"wall_ms\": 125000}]",
                PyJson.dumps(TableJson.rows(t)));
        String html = TableHtml.html(t);
        assertTrue(html.startsWith("<table class=\"brokkr-table\"><caption>t</caption>"), html);
        assertTrue(
                html.contains("<td style=\"text-align:right;white-space:nowrap\">–</td>"), "a missing number: a dash");
        assertTrue(
                html.contains("<td style=\"text-align:left;vertical-align:top;max-width:48em\"></td>"),
                "a missing text: empty");
        assertEquals(
                "| name | n | id | rate | wall |\n| :--- | ---: | ---: | ---: | ---: |\n| a, b | 1 | 7 | 0.667 | 12 ms |\n"
                        + "|  |  | 8 |  | 1.50 s |\n| c | 30 | 9 | 1.00 | 2 min 05 s |",
                TableMarkdown.markdown(t));
    }

    @Test
    void firstRowsNotesAndKinds() {
        PlainTable t = sample().withNotes(List.of("one note", "two\nlines"));
        assertEquals(2, t.first(2).rowCount());
        assertEquals(t, t.first(5), "a limit above the rows keeps the table");
        assertTrue(TableText.text(t).endsWith("  one note\n  two\n  lines\n"), TableText.text(t));
        assertTrue(
                TableHtml.html(t).endsWith("</table><p class=\"brokkr-note\">one note<br>two<br>lines</p>"),
                TableHtml.html(t));
        assertEquals(
                List.of(
                        PlainTable.Kind.TEXT,
                        PlainTable.Kind.INTEGER,
                        PlainTable.Kind.LONG,
                        PlainTable.Kind.DOUBLE,
                        PlainTable.Kind.LONG),
                t.columns().stream().map(PlainTable.Column::kind).toList());
        assertEquals(Long.class, t.column("id").get(0).getClass(), "an int appended to a long column is a long");
        assertThrows(
                IllegalArgumentException.class,
                () -> PlainTable.of("bad", PlainTable.text("a").append("x"), PlainTable.integers("b")));
    }

    /** Trials ("3", "3-4") sit where numbers do, and a long telecom task id wraps inside its cell. */
    @Test
    void countsAlignAsNumbersAndLongIdsWrapInTheirCell() {
        String id = "[mobile_data_issue]airplane_mode_on|bad_network_preference|bad_wifi_calling";
        var t = PlainTable.of(
                "t",
                PlainTable.text("task").append(id).append("t2"),
                PlainTable.text("trials").append("3").append("3-4"));
        String html = TableHtml.html(t);
        assertTrue(html.contains("<th style=\"text-align:right\">trials</th>"), html);
        assertTrue(html.contains("<td style=\"text-align:right;white-space:nowrap\">3-4</td>"), html);
        assertTrue(
                html.contains("overflow-wrap:anywhere;min-width:12em\">" + TableText.cell(t.column(0), 0, "")), html);
        assertTrue(html.contains("max-width:48em\">t2</td>"), "a short text as before: " + html);
    }

    /** A table wider than the terminal stacks its columns in groups that repeat the names of a row; nothing is cut. */
    @Test
    void aWideTableStacksColumnGroupsAtAWidth() {
        List<PlainTable.Builder> cols = new java.util.ArrayList<>(List.of(
                PlainTable.text("benchmark").append("tau2-airline"),
                PlainTable.text("candidate").append("gold")));
        for (int i = 0; i < 10; i++) cols.add(PlainTable.doubles("metric_" + i).append(0.125 * i));
        PlainTable t = PlainTable.of("wide", cols.toArray(PlainTable.Builder[]::new));
        String stacked = TableText.aligned(t, 60);
        assertTrue(stacked.lines().allMatch(l -> l.length() <= 60), stacked);
        assertTrue(
                stacked.lines()
                                .filter(l -> l.startsWith("benchmark     candidate"))
                                .count()
                        >= 3,
                stacked);
        for (int i = 0; i < 10; i++) assertTrue(stacked.contains("metric_" + i), "every column: " + stacked);
        assertEquals(TableText.aligned(t), TableText.aligned(t, 0), "no width: one table as before");
    }

    /**
     * Issue 31, item 3: a scorecard of twenty columns lost its right-hand ones off a notebook's output or the
     * report's page. Too wide for the page, the HTML stacks column groups, each repeating the columns that name a
     * row, every column once; a table that fits stays one.
     */
    @Test
    void aTableTooWideForThePageStacksColumnGroupsThatEachRepeatTheRowsName() {
        List<PlainTable.Builder> columns = new java.util.ArrayList<>();
        columns.add(PlainTable.text("benchmark").append("tau2-retail"));
        columns.add(PlainTable.text("candidate").append("gold"));
        for (int i = 0; i < 20; i++)
            columns.add(PlainTable.doubles("metric_" + i + "/ep").append(i / 3.0));
        String html = TableHtml.html(PlainTable.of("scorecard", columns.toArray(PlainTable.Builder[]::new)));
        String[] tables = html.split("<table ", -1);
        assertTrue(tables.length - 1 >= 2, html);
        int widest = 0;
        for (int t = 1; t < tables.length; t++) {
            assertTrue(tables[t].contains(">benchmark</th>") && tables[t].contains(">candidate</th>"), tables[t]);
            assertTrue(tables[t].contains(">tau2-retail</td>"), tables[t]);
            int headers = tables[t].split("</th>", -1).length - 1;
            widest = Math.max(widest, headers);
        }
        assertTrue(widest < 22, "each group narrower than the whole: " + widest);
        assertTrue(tables[1].contains("<caption>scorecard</caption>"), tables[1]);
        for (int i = 0; i < 20; i++)
            assertEquals(1, html.split(">metric_" + i + "/ep</th>", -1).length - 1, "metric_" + i + " once");

        String narrow = TableHtml.html(PlainTable.of(
                "small",
                PlainTable.text("benchmark").append("loop"),
                PlainTable.doubles("avg_reward").append(1)));
        assertEquals(1, narrow.split("<table ", -1).length - 1, narrow);
    }
}
