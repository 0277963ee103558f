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
}
