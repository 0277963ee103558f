package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PyStringsTest {
    /** Reference: compare the code point arrays, as Python does. */
    private static int byCodePoints(String a, String b) {
        int[] x = a.codePoints().toArray(), y = b.codePoints().toArray();
        return java.util.Arrays.compare(x, y);
    }

    @Test
    void comparesByCodePointIncludingSurrogatesAndPrefixes() {
        String[] alphabet = {
            "a",
            "z",
            "\uE000",
            "\uFFFF",
            "\uD800",
            "\uDBFF",
            "\uDC00",
            "\uDFFF",
            "\uD83D\uDE00",
            "\uD800\uDC00",
            "\uDBFF\uDFFF",
            "\u00e9",
            ""
        };
        Random rng = new Random(1);
        List<String> strs = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = rng.nextInt(4); k > 0; k--) sb.append(alphabet[rng.nextInt(alphabet.length)]);
            strs.add(sb.toString());
        }
        int checked = 0;
        for (int i = 0; i + 1 < strs.size(); i++) {
            String a = strs.get(i), b = strs.get(i + 1);
            assertEquals(Integer.signum(byCodePoints(a, b)), Integer.signum(PyStrings.compare(a, b)), a + " vs " + b);
            assertEquals(Integer.signum(byCodePoints(b, a)), Integer.signum(PyStrings.compare(b, a)), b + " vs " + a);
            checked++;
        }
        assertEquals(2999, checked);
    }
}
