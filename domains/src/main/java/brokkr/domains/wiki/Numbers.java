package brokkr.domains.wiki;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers in prose, written in digits ({@code 46}, {@code 1,240}) or in words ({@code forty-six}, {@code one
 * thousand two hundred and forty}): what the grounding check reads on a page and in a source, and how the
 * documents spell some of their figures, so a page that writes {@code 46} is grounded by a source that says
 * {@code forty-six}.
 */
public final class Numbers {
    private Numbers() {}

    private static final String[] UNITS = {
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen"
    };
    private static final String[] TENS = {
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"
    };
    private static final Map<String, Long> SMALL = small();
    private static final Map<String, Long> SCALES = Map.of("thousand", 1_000L, "million", 1_000_000L);

    private static Map<String, Long> small() {
        Map<String, Long> m = new java.util.HashMap<>();
        for (int i = 0; i < UNITS.length; i++) m.put(UNITS[i], (long) i);
        for (int i = 2; i < TENS.length; i++) m.put(TENS[i], i * 10L);
        return Map.copyOf(m);
    }

    /** {@code n} in English words, British style ({@code one thousand two hundred and forty}); 0 <= n < 10^9. */
    public static String words(long n) {
        if (n < 0 || n >= 1_000_000_000L) throw new IllegalArgumentException("out of range: " + n);
        if (n < 20) return UNITS[(int) n];
        if (n < 100) return TENS[(int) (n / 10)] + (n % 10 == 0 ? "" : "-" + UNITS[(int) (n % 10)]);
        if (n < 1000) return UNITS[(int) (n / 100)] + " hundred" + (n % 100 == 0 ? "" : " and " + words(n % 100));
        long scale = n < 1_000_000 ? 1000 : 1_000_000;
        String name = scale == 1000 ? " thousand" : " million";
        long rest = n % scale;
        return words(n / scale) + name + (rest == 0 ? "" : (rest < 100 ? " and " : " ") + words(rest));
    }

    /** {@code n} in digits with thousands separators, as the documents print figures ({@code 1,240}). */
    public static String digits(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    private static final Pattern TOKEN =
            Pattern.compile("\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d+|[a-z]+", Pattern.CASE_INSENSITIVE);

    /** Every number in {@code text}, in order: digit runs (commas as thousands separators) and runs of number words. */
    public static List<Long> in(String text) {
        List<Long> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        long total = 0, current = 0;
        boolean inWords = false, pendingAnd = false;
        while (m.find()) {
            String t = m.group().toLowerCase(java.util.Locale.ROOT);
            if (Character.isDigit(t.charAt(0))) {
                if (inWords) out.add(total + current);
                inWords = false;
                pendingAnd = false;
                total = current = 0;
                out.add(Long.parseLong(t.replace(",", "")));
                continue;
            }
            Long small = SMALL.get(t);
            if (small != null) {
                // "forty six" / "forty-six": a unit after a tens word adds; two units in a row are two numbers.
                if (inWords && current % 10 == 0 && current % 100 >= 20 && small < 10 || inWords && pendingAnd) {
                    current += small;
                } else if (inWords && (current % 100 == 0) && current > 0) {
                    current += small;
                } else if (inWords && current == 0 && total > 0) {
                    current = small;
                } else {
                    if (inWords) out.add(total + current);
                    total = 0;
                    current = small;
                }
                inWords = true;
                pendingAnd = false;
            } else if (t.equals("hundred") && inWords && current > 0 && current < 100) {
                current *= 100;
            } else if (SCALES.containsKey(t) && inWords && (current > 0)) {
                total += current * SCALES.get(t);
                current = 0;
            } else if (t.equals("and") && inWords && (current > 0 && current % 100 == 0 || current == 0 && total > 0)) {
                // "two hundred and six", "one thousand and forty"; "one and two" stays two numbers.
                pendingAnd = true;
            } else {
                if (inWords) out.add(total + current);
                inWords = false;
                pendingAnd = false;
                total = current = 0;
            }
        }
        if (inWords) out.add(total + current);
        return out;
    }
}
