package brokkr.domains.bfcl.multiturn.backends;

import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code datetime.strptime(s, fmt)} for the formats the backends use ({@code %Y %m %d %H %M %S} and
 * literals), after CPython 3.11 Lib/_strptime.py: the directive regexes of {@code TimeRE} (Unicode
 * {@code \d}, case-insensitive, anchored at the start), then "unconverted data remains", then the date's
 * validity ({@code datetime_date(year, month, day)}), with CPython's error texts.
 */
final class PyStrptime {
    private PyStrptime() {}

    static LocalDateTime parse(Object data, String format) {
        if (!(data instanceof String s)) {
            // Modules/_datetimemodule.c datetime_strptime: PyArg_ParseTuple "UU:strptime".
            String what = data == PyNone.NONE ? "None" : PyObjects.typeName(data);
            throw PyException.typeError("strptime() argument 1 must be str, not " + what);
        }
        Matcher m = pattern(format).matcher(s);
        if (!m.lookingAt()) {
            throw PyException.valueError(
                    "time data " + PyObjects.repr(s) + " does not match format " + PyObjects.repr(format));
        }
        if (m.end() != s.length()) throw PyException.valueError("unconverted data remains: " + s.substring(m.end()));
        int year = group(m, "Y", 1900), month = group(m, "m", 1), day = group(m, "d", 1);
        int hour = group(m, "H", 0), minute = group(m, "M", 0), second = group(m, "S", 0);
        LocalDate date;
        try {
            if (year < 1) throw PyException.valueError("year " + year + " is out of range");
            date = LocalDate.of(year, month, day);
        } catch (DateTimeException e) {
            throw PyException.valueError("day is out of range for month");
        }
        if (second > 59) throw PyException.valueError("second must be in 0..59");
        return date.atTime(hour, minute, second);
    }

    private static int group(Matcher m, String name, int dflt) {
        String g;
        try {
            g = m.group(name);
        } catch (IllegalArgumentException absent) {
            return dflt;
        }
        if (g == null) return dflt;
        int v = 0;
        for (int i = 0; i < g.length(); i++) {
            char c = g.charAt(i);
            if (c != ' ') v = v * 10 + Character.digit(c, 10);
        }
        return v;
    }

    private static Pattern pattern(String format) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c == '%' && i + 1 < format.length()) {
                char d = format.charAt(++i);
                re.append(
                        switch (d) {
                            case 'Y' -> "(?<Y>\\d\\d\\d\\d)";
                            case 'm' -> "(?<m>1[0-2]|0[1-9]|[1-9])";
                            case 'd' -> "(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])";
                            case 'H' -> "(?<H>2[0-3]|[0-1]\\d|\\d)";
                            case 'M' -> "(?<M>[0-5]\\d|\\d)";
                            case 'S' -> "(?<S>6[0-1]|[0-5]\\d|\\d)";
                            default ->
                                throw new IllegalArgumentException("strptime directive %" + d + " not supported");
                        });
            } else if (Character.isWhitespace(c)) {
                re.append("\\s+");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(
                re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS);
    }
}
