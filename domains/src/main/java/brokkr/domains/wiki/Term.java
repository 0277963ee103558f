package brokkr.domains.wiki;

import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;

/**
 * What a sentence must contain to state a value: a number (in digits or words), a piece of text (a name, a
 * town, a profession), or a date (in the usual English and ISO spellings).
 */
public sealed interface Term {
    /** Whether {@code sentence} (lower case) with its numbers ({@link Numbers#in}) contains this value. */
    boolean in(String sentence, List<Long> numbers);

    /** The value as the reference wiki prints it. */
    String printed();

    record Num(long n) implements Term {
        @Override
        public boolean in(String sentence, List<Long> numbers) {
            return numbers.contains(n);
        }

        @Override
        public String printed() {
            return n >= 10_000 ? Numbers.digits(n) : Long.toString(n);
        }
    }

    record Text(String text) implements Term {
        @Override
        public boolean in(String sentence, List<Long> numbers) {
            return sentence.contains(text.toLowerCase(Locale.ROOT));
        }

        @Override
        public String printed() {
            return text;
        }
    }

    record Day(LocalDate date) implements Term {
        @Override
        public boolean in(String sentence, List<Long> numbers) {
            for (String form : forms()) if (sentence.contains(form)) return true;
            return false;
        }

        /** {@code 14 march 2019}, {@code 14th march 2019}, {@code march 14, 2019}, {@code march 14 2019}, {@code 2019-03-14}. */
        List<String> forms() {
            String month = date.getMonth()
                    .getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                    .toLowerCase(Locale.ROOT);
            int d = date.getDayOfMonth(), y = date.getYear();
            String th = d % 10 == 1 && d != 11
                    ? "st"
                    : d % 10 == 2 && d != 12 ? "nd" : d % 10 == 3 && d != 13 ? "rd" : "th";
            return List.of(
                    d + " " + month + " " + y,
                    d + th + " " + month + " " + y,
                    d + th + " of " + month + " " + y,
                    month + " " + d + ", " + y,
                    month + " " + d + " " + y,
                    date.toString());
        }

        @Override
        public String printed() {
            return spelled(date);
        }

        /** {@code 14 March 2019}, as the documents write a date. */
        public static String spelled(LocalDate date) {
            return date.getDayOfMonth() + " " + date.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " "
                    + date.getYear();
        }
    }
}
