package brokkr.python;

/** A Python {@code complex} (an object of {@link PyObjects}' model beyond the JSON-like core). */
public record PyComplex(double re, double im) implements PyObjects.Custom {
    @Override
    public String pyTypeName() {
        return "complex";
    }

    /** complexobject.c complex_repr: 'r' format without a forced ".0"; the real part left out when it is +0. */
    @Override
    public String pyRepr() {
        String imag = part(im) + "j";
        if (re == 0.0 && Math.copySign(1.0, re) > 0) return imag;
        return "(" + part(re) + (im >= 0 || Double.isNaN(im) ? "+" : "") + imag + ")";
    }

    private static String part(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        String r = PyFloats.repr(x);
        return r.endsWith(".0") ? r.substring(0, r.length() - 2) : r;
    }

    /**
     * complexobject.c c_pow for a real base and exponent (float ** float with a negative base and a
     * non-integral exponent): |a|^b * (cos(b * atan2(0, a)) + i sin(...)).
     */
    public static PyComplex pow(double a, double b) {
        double vabs = Math.hypot(a, 0.0);
        double len = Math.pow(vabs, b);
        double at = Math.atan2(0.0, a);
        double phase = at * b;
        PyComplex r = new PyComplex(len * Math.cos(phase), len * Math.sin(phase));
        if (Double.isInfinite(r.re) || Double.isInfinite(r.im))
            throw new PyException("OverflowError", "complex exponentiation");
        return r;
    }
}
