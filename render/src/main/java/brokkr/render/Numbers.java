package brokkr.render;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Numbers as people read them in tables and reports: three significant digits (never cutting an
 * integer part: 1235, not 1.23e3), and durations in ms, s or min.
 */
public final class Numbers {
    private Numbers() {}

    private static final MathContext THREE = new MathContext(3);

    /** {@code 0.6667 -> "0.667"}, {@code 1.0 -> "1.00"}, {@code 0.05 -> "0.0500"}, {@code 1234.56 -> "1235"}, {@code 0 -> "0"}. */
    public static String sig3(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return String.valueOf(x);
        if (x == 0) return "0";
        double a = Math.abs(x);
        if (a >= 100) return String.valueOf(Math.round(x));
        if (a < 1e-3) return String.format(Locale.ROOT, "%.2e", x);
        BigDecimal b = new BigDecimal(x).round(THREE);
        // round() keeps an exact value's own precision (1.0 stays "1"): pad to three digits.
        return b.setScale(b.scale() + 3 - b.precision()).toPlainString();
    }

    /** Milliseconds as a duration: {@code "7 ms"}, {@code "12.5 ms"}, {@code "1.23 s"}, {@code "2 min 05 s"}. */
    public static String duration(double ms) {
        if (Double.isNaN(ms)) return "-";
        double a = Math.abs(ms);
        if (a < 1000) return (ms == Math.rint(ms) ? String.valueOf((long) ms) : sig3(ms)) + " ms";
        if (a < 60_000) return sig3(ms / 1000) + " s";
        long s = Math.round(ms / 1000);
        if (s < 3600) return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }
}
