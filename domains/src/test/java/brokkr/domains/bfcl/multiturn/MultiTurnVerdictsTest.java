package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.Value;
import java.util.IdentityHashMap;
import org.junit.jupiter.api.Test;

/** The verdict corpus's shortening of error details, its canonical text made from the children's. */
class MultiTurnVerdictsTest {
    /** Nested details past 4,096 characters at several levels, unsorted and non-ASCII keys, floats, empties. */
    private static Value details() {
        StringBuilder big = new StringBuilder("{\"z\": [");
        for (int i = 0; i < 300; i++)
            big.append(i == 0 ? "" : ", ")
                    .append("{\"b\": ")
                    .append(i)
                    .append(".5, \"a\": \"é")
                    .append(i)
                    .append("\"}");
        big.append("], \"\\u00e9t\\u00e9\": {\"y\": [], \"x\": {}, \"w\": [1, 2.0, -0.0, 1e300, true, null]}, ");
        big.append("\"$keep\": 1, \"long\": \"").append("q".repeat(5000)).append("\", \"nested\": {\"inner\": [");
        for (int i = 0; i < 200; i++)
            big.append(i == 0 ? "" : ", ").append("[\"").append("r".repeat(30)).append("\"]");
        big.append("]}}");
        return Json.parse("{\"details\": " + big + ", \"small\": {\"k\": \"v\"}, \"$sha\": \"x\"}");
    }

    @Test
    void shortenedTextIsTheCanonicalTextOfTheShortenedDetails() {
        Value v = details();
        MultiTurnVerdicts.Shortened s = MultiTurnVerdicts.shortened(v, new IdentityHashMap<>());
        assertEquals(StateDump.canonical(s.value()), s.text());
        assertEquals(StateDump.canonical(MultiTurnVerdicts.shorten(v)), s.text());
        assertTrue(s.text().contains("\"$sha\""), "something was digested");
        Value inner = Json.parse("{\"b\": [1, {\"d\": \"\\u00e9\", \"c\": 2.25}], \"a\": {}}");
        assertEquals(StateDump.canonical(inner), MultiTurnVerdicts.canonical(inner, new IdentityHashMap<>()));
    }

    /**
     * The tree comparison agrees with comparing canonical texts: on the details against their own shortening, and
     * against copies each changed in one place (a digest's hash or length, a float for an int, a bool for an int,
     * a key, a list's length, a short string made long enough to be digested).
     */
    @Test
    void treeMatchAgreesWithTheCanonicalTexts() {
        // without its $ keys (each makes the whole one digest)
        Value v = ((brokkr.value.PyDict) ((brokkr.value.PyDict) details()).get("details")).without("$keep");
        String want = StateDump.canonical(MultiTurnVerdicts.shorten(v));
        Value shortened = Json.parse(want);
        assertTrue(MultiTurnVerdicts.matchesShortened(v, shortened, new IdentityHashMap<>()));
        String[][] edits = {
            {"\"$len\":", "\"$len\":1"},
            {"2.0,", "2,"},
            {"-0.0", "0.0"},
            {"true", "1"},
            {"\"y\"", "\"Y\""},
            {"\"y\":[]", "\"y\":[null]"},
            {"\"a\":\"\\u00e90\"", "\"a\":\"" + "v".repeat(5000) + "\""},
        };
        for (String[] e : edits) {
            assertTrue(want.contains(e[0]), e[0]);
            int at = want.indexOf(e[0]);
            String text = want.substring(0, at) + e[1] + want.substring(at + e[0].length());
            Value changed = Json.parse(text);
            assertEquals(
                    StateDump.canonical(changed).equals(want),
                    MultiTurnVerdicts.matchesShortened(v, changed, new IdentityHashMap<>()),
                    e[0] + " -> " + e[1].substring(0, Math.min(20, e[1].length())));
        }
        // a string past the limit matches only its digest
        Value longString = Json.parse("\"" + "q".repeat(5000) + "\"");
        assertTrue(MultiTurnVerdicts.matchesShortened(
                longString, MultiTurnVerdicts.shorten(longString), new IdentityHashMap<>()));
        assertTrue(!MultiTurnVerdicts.matchesShortened(longString, longString, new IdentityHashMap<>()));
    }
}
