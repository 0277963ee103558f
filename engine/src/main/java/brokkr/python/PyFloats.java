package brokkr.python;

/** Python's {@code float.__repr__} (= {@code str(float)}): the shortest digits that round-trip, Python's layout. */
public final class PyFloats {
    private PyFloats() {}

    public static String repr(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        if (x == 0.0) return (Double.doubleToRawLongBits(x) < 0) ? "-0.0" : "0.0";
        StringBuilder out = new StringBuilder(24);
        if (x < 0) out.append('-');
        Decimal d = shortest(Math.abs(x));
        String digits = d.digits;
        int decpt = d.decpt;
        // CPython float_repr_style 'short' / format code 'r': exponent iff decpt <= -4 or decpt > 16.
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                out.append("0.");
                out.repeat('0', -decpt);
                out.append(digits);
            } else if (decpt >= digits.length()) {
                out.append(digits);
                out.repeat('0', decpt - digits.length());
                out.append(".0");
            } else {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
            }
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) out.append('.').append(digits, 1, digits.length());
            int e = decpt - 1;
            out.append('e').append(e < 0 ? '-' : '+');
            int ae = Math.abs(e);
            if (ae < 10) out.append('0');
            out.append(ae);
        }
        return out.toString();
    }

    /** Shortest round-trip digits (no leading/trailing zeros) and decimal point position: x = 0.DIGITS × 10^decpt. */
    public record Decimal(String digits, int decpt) {}

    /**
     * Java 19+ {@link Double#toString} yields the shortest uniquely-identifying decimal (closest on
     * ties), which is what CPython's {@code repr} (dtoa mode 0) yields; only the layout differs.
     */
    public static Decimal shortest(double positive) {
        String s = Double.toString(positive);
        int e = s.indexOf('E');
        String mant = e < 0 ? s : s.substring(0, e);
        int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
        int dot = mant.indexOf('.');
        String digits = mant.substring(0, dot) + mant.substring(dot + 1);
        int decpt = dot + exp;
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') { lead++; decpt--; }
        int end = digits.length();
        while (end > lead + 1 && digits.charAt(end - 1) == '0') end--;
        return new Decimal(digits.substring(lead, end), decpt);
    }
}
