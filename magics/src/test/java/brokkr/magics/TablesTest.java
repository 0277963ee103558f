package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.Tables;
import brokkr.render.JsonText;
import brokkr.render.Numbers;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Tables as people read them: three significant digits, durations, alignment, wrapping, folding, JSON. */
class TablesTest {
    @Test
    void numbersKeepThreeSignificantDigitsWithoutCuttingIntegers() {
        assertEquals("0.667", Numbers.sig3(2.0 / 3));
        assertEquals("1.00", Numbers.sig3(1.0));
        assertEquals("0.500", Numbers.sig3(0.5));
        assertEquals("0.0500", Numbers.sig3(0.05));
        assertEquals("12.5", Numbers.sig3(12.5));
        assertEquals("1235", Numbers.sig3(1234.5678));
        assertEquals("0", Numbers.sig3(0.0));
        assertEquals("-0.333", Numbers.sig3(-1.0 / 3));
        assertEquals("1.23e-05", Numbers.sig3(0.0000123));
    }

    @Test
    void durationsInMillisecondsSecondsAndMinutes() {
        assertEquals("7 ms", Numbers.duration(7));
        assertEquals("12.5 ms", Numbers.duration(12.5));
        assertEquals("999 ms", Numbers.duration(999));
        assertEquals("1.23 s", Numbers.duration(1234.5678));
        assertEquals("59.0 s", Numbers.duration(59_000));
        assertEquals("2 min 05 s", Numbers.duration(125_000));
        assertEquals("1 h 01 min", Numbers.duration(3_660_000));
    }

    static Table sample() {
        return Table.create(
                "t",
                StringColumn.create("name", List.of("a", "<b>")),
                DoubleColumn.create("score", new double[] {1.0 / 3, 1.0}),
                LongColumn.create("wall_ms", new long[] {42, 61_000}),
                StringColumn.create("note", List.of("word ".repeat(50).strip(), "")));
    }

    @Test
    void alignedTextFormatsNumbersAndWrapsLongTexts() {
        String text = Tables.aligned(sample());
        List<String> lines = text.lines().toList();
        assertEquals("name  score        wall  note", lines.get(0));
        assertTrue(lines.get(1).startsWith("a     0.333       42 ms  word word"), lines.get(1));
        assertTrue(lines.get(1).length() <= 2 + 5 + 2 + 5 + 2 + 10 + 2 + Tables.FOLD, lines.get(1));
        assertTrue(lines.get(2).matches(" {25}word.*"), "the note's continuation under its column: " + lines.get(2));
        assertTrue(
                lines.get(3).matches(" {25}word( word){9}"),
                "50 words take three lines of at most 100: " + lines.get(3));
        assertEquals("<b>    1.00  1 min 01 s  –", lines.get(4));
        assertEquals(5, lines.size());
        for (String l : lines) assertFalse(l.endsWith(" "), "no trailing blanks: '" + l + "'");
    }

    @Test
    void wrappingStopsAfterTheLineLimitWithAnEllipsis() {
        List<String> lines = Tables.wrap("x".repeat(30) + " " + "y".repeat(500), 100, 4);
        assertEquals(4, lines.size());
        assertTrue(lines.get(3).endsWith("..."));
        for (String l : lines) assertTrue(l.length() <= 100, l);
        assertEquals(List.of("short"), Tables.wrap("short", 100, 4));
    }

    @Test
    void htmlAlignsTextLeftNumbersRightAndFoldsLongTexts() {
        String html = Tables.html(sample());
        assertTrue(
                html.contains("<th style=\"text-align:left\">name</th><th style=\"text-align:right\">score</th>"
                        + "<th style=\"text-align:right\">wall</th>"),
                html);
        assertTrue(
                html.contains(">0.333</td>") && html.contains(">42 ms</td>") && html.contains(">1 min 01 s</td>"),
                html);
        assertTrue(html.contains(">&lt;b&gt;</td>"), "escaped: " + html);
        assertTrue(
                html.contains("<details class=\"brokkr-long\"><summary>word word"),
                "a long text folds under its beginning: " + html);
        assertTrue(html.contains("word ".repeat(49) + "word</div>"), "and keeps all of it: " + html);
    }

    @Test
    void jsonCellsAndToolResultsShowIndentedAndFoldWhenLong() {
        assertEquals("{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ]\n}", JsonText.pretty("{\"a\": 1, \"b\": [2, 3]}"));
        assertNull(JsonText.pretty("not json {"));
        assertNull(JsonText.pretty("\"a string\""));
        String shortJson = JsonText.html("{\"status\": \"pending\", \"note\": \"<x>\"}");
        assertTrue(
                shortJson.startsWith(
                        "<details class=\"brokkr-json\" open><summary>JSON object: status, note</summary>"),
                shortJson);
        assertTrue(shortJson.contains("&quot;&lt;x&gt;&quot;"), shortJson);
        StringBuilder big = new StringBuilder("[");
        for (int i = 0; i < 30; i++)
            big.append(i == 0 ? "" : ", ").append("{\"id\": ").append(i).append('}');
        String longJson = JsonText.html(big.append(']').toString());
        assertTrue(
                longJson.startsWith("<details class=\"brokkr-json\"><summary>JSON array of 30</summary>"),
                "long JSON starts folded: " + longJson);
        assertTrue(JsonText.html("plain <text>").contains("plain &lt;text&gt;"));
        CallOutcome call =
                new CallOutcome("get", "{}", "{\"order_id\": \"#W1\", \"status\": \"pending\"}", false, List.of());
        assertTrue(call.text().contains("{\n  \"order_id\": \"#W1\",\n  \"status\": \"pending\"\n}"), call.text());
        assertTrue(call.html().contains("brokkr-json"), call.html());
    }
}
