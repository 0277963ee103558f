package brokkr.python;

import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code datetime.strptime(s, fmt)} for the directives {@code %m %d %Y %H %M %S} and literal text, as
 * CPython's {@code _strptime} matches them: each directive's own regex (one- or two-digit months, days,
 * hours...), whitespace in the format matching any run of whitespace, case-insensitive, the whole string
 * consumed; then the date checked ({@code ValueError: day is out of range for month}).
 */
public final class PyDates {
    private PyDates() {}

    private static String directive(char d) {
        return switch (d) {
            case 'm' -> "(?<m>1[0-2]|0[1-9]|[1-9])";
            case 'd' -> "(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])";
            case 'Y' -> "(?<Y>\\d\\d\\d\\d)";
            case 'H' -> "(?<H>2[0-3]|[0-1]\\d|\\d)";
            case 'M' -> "(?<M>[0-5]\\d|\\d)";
            case 'S' -> "(?<S>6[0-1]|[0-5]\\d|\\d)";
            default -> throw new UnsupportedOperationException("strptime directive %" + d + " is not transcribed");
        };
    }

    /** {@code datetime.strptime(value, fmt)}; a non-str value is CPython's TypeError. */
    public static LocalDateTime strptime(Value value, String fmt) {
        if (!(value instanceof PyStr s)) {
            throw PyException.typeError("strptime() argument 1 must be str, not " + value.typeName());
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < fmt.length(); i++) {
            char ch = fmt.charAt(i);
            if (ch == '%' && i + 1 < fmt.length()) re.append(directive(fmt.charAt(++i)));
            else if (Character.isWhitespace(ch)) re.append("\\s+");
            else re.append(Pattern.quote(String.valueOf(ch)));
        }
        Matcher m = Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE).matcher(s.value());
        if (!m.lookingAt()) {
            throw PyException.valueError(
                    "time data " + PyRepr.repr(value) + " does not match format " + PyRepr.repr(new PyStr(fmt)));
        }
        if (m.end() != s.value().length())
            throw PyException.valueError(
                    "unconverted data remains: " + s.value().substring(m.end()));
        int year = group(m, "Y", 1900), month = group(m, "m", 1), day = group(m, "d", 1);
        int hour = group(m, "H", 0), minute = group(m, "M", 0), second = group(m, "S", 0);
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second);
        } catch (DateTimeException e) {
            if (second > 59) throw PyException.valueError("second must be in 0..59");
            throw PyException.valueError("day is out of range for month");
        }
    }

    private static int group(Matcher m, String name, int dflt) {
        try {
            String g = m.group(name);
            return g == null ? dflt : Integer.parseInt(g.trim());
        } catch (IllegalArgumentException e) {
            return dflt;
        }
    }
}
