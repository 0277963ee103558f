package brokkr.domains.bfcl.multiturn.backends;

import brokkr.python.PyException;
import brokkr.python.PyObjects;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The part of mpmath 1.3.0 that {@code MathAPI.logarithm} reaches ({@code mpmath.mp.dps = precision;
 * mpmath.log(value) / mpmath.log(base)}): binary floating point with {@code prec}-bit mantissas rounded to
 * nearest (libmp/libmpf.py), {@code log} of a real (complex for a negative argument, libmpc.mpc_log), the
 * three divisions the result can need (mpf_div, mpc_div_mpf, mpc_mpf_div, mpc_div) and {@code repr}
 * ({@code mpf('...')}, {@code mpc(real='...', imag='...')} via libmpf.to_str with repr_dps digits).
 * The logarithm and pi are computed far past the target precision and then rounded, as mpmath's results
 * are correctly rounded in all but pathological cases.
 */
final class Mpmath {
    private Mpmath() {}

    /** A raw mpf: {@code (-1)^neg * man * 2^exp} with {@code man} odd, or one of the special values. */
    record Mpf(Kind kind, boolean neg, BigInteger man, long exp) {
        enum Kind {
            FINITE,
            ZERO,
            INF,
            NINF,
            NAN
        }

        static final Mpf ZERO = new Mpf(Kind.ZERO, false, BigInteger.ZERO, 0);
        static final Mpf INF = new Mpf(Kind.INF, false, BigInteger.ZERO, 0);
        static final Mpf NINF = new Mpf(Kind.NINF, true, BigInteger.ZERO, 0);
        static final Mpf NAN = new Mpf(Kind.NAN, false, BigInteger.ZERO, 0);

        boolean finite() {
            return kind == Kind.FINITE;
        }

        boolean zero() {
            return kind == Kind.ZERO;
        }

        boolean special() {
            return kind == Kind.INF || kind == Kind.NINF || kind == Kind.NAN;
        }

        int sign() {
            return kind == Kind.ZERO || kind == Kind.NAN ? 0 : neg ? -1 : 1;
        }

        Mpf negate() {
            return switch (kind) {
                case ZERO, NAN -> this;
                case INF -> NINF;
                case NINF -> INF;
                case FINITE -> new Mpf(Kind.FINITE, !neg, man, exp);
            };
        }
    }

    /** An mpc: two mpf parts. */
    record Mpc(Mpf re, Mpf im) {}

    // ---------------------------------------------------------------- construction and rounding

    /** normalize(): {@code sign * man * 2^exp} rounded to nearest-even at {@code prec} bits (prec 0: exact). */
    static Mpf make(boolean neg, BigInteger man, long exp, int prec) {
        if (man.signum() == 0) return Mpf.ZERO;
        if (man.signum() < 0) {
            neg = !neg;
            man = man.negate();
        }
        int bc = man.bitLength();
        if (prec > 0 && bc > prec) {
            int shift = bc - prec;
            BigInteger q = man.shiftRight(shift);
            boolean half = man.testBit(shift - 1);
            boolean sticky = man.getLowestSetBit() < shift - 1;
            if (half && (sticky || q.testBit(0))) q = q.add(BigInteger.ONE);
            man = q;
            exp += shift;
        }
        int tz = man.getLowestSetBit();
        if (tz > 0) {
            man = man.shiftRight(tz);
            exp += tz;
        }
        return new Mpf(Mpf.Kind.FINITE, neg, man, exp);
    }

    static Mpf fromInt(BigInteger i) {
        return make(false, i, 0, 0);
    }

    static Mpf fromDouble(double d) {
        if (Double.isNaN(d)) return Mpf.NAN;
        if (Double.isInfinite(d)) return d > 0 ? Mpf.INF : Mpf.NINF;
        if (d == 0.0) return Mpf.ZERO;
        long bits = Double.doubleToRawLongBits(d);
        int e = (int) ((bits >> 52) & 0x7ff);
        long m = bits & ((1L << 52) - 1);
        if (e == 0) e = 1;
        else m |= 1L << 52;
        return make(d < 0, BigInteger.valueOf(m), e - 1075L, 0);
    }

    /** A rational {@code num / den * 2^exp} rounded to nearest at {@code prec} bits (den > 0). */
    static Mpf rational(boolean neg, BigInteger num, BigInteger den, long exp, int prec) {
        if (num.signum() == 0) return Mpf.ZERO;
        int extra = prec + den.bitLength() - num.bitLength() + 3;
        if (extra < 0) extra = 0;
        BigInteger[] qr = num.shiftLeft(extra).divideAndRemainder(den);
        BigInteger q = qr[0].shiftLeft(1);
        if (qr[1].signum() != 0) q = q.or(BigInteger.ONE); // sticky bit
        return make(neg, q, exp - extra - 1, prec);
    }

    /** A positive BigDecimal approximation rounded to {@code prec} bits. */
    static Mpf fromDecimal(BigDecimal v, int prec) {
        if (v.signum() == 0) return Mpf.ZERO;
        boolean neg = v.signum() < 0;
        v = v.abs();
        BigInteger unscaled = v.unscaledValue();
        int scale = v.scale();
        if (scale <= 0) return make(neg, unscaled.multiply(BigInteger.TEN.pow(-scale)), 0, prec);
        return rational(neg, unscaled, BigInteger.TEN.pow(scale), 0, prec);
    }

    static BigDecimal toDecimal(Mpf x) {
        BigDecimal m = new BigDecimal(x.man());
        BigDecimal v = x.exp() >= 0
                ? m.multiply(new BigDecimal(BigInteger.TWO.pow((int) x.exp())))
                : m.divide(new BigDecimal(BigInteger.TWO.pow((int) -x.exp())));
        return x.neg() ? v.negate() : v;
    }

    /** dps_to_prec(n): {@code max(1, int(round((int(n)+1)*3.3219280948873626)))}. */
    static int dpsToPrec(long dps) {
        return (int) Math.max(1, Math.round((dps + 1) * 3.3219280948873626));
    }

    /** prec_to_dps(n): {@code max(1, int(round(int(n)/3.3219280948873626)-1))}. */
    static int precToDps(int prec) {
        return (int) Math.max(1, Math.round(prec / 3.3219280948873626) - 1);
    }

    /** repr_dps(n): dps + 3, or 17 for dps 15. */
    static int reprDps(int prec) {
        int dps = precToDps(prec);
        return dps == 15 ? 17 : dps + 3;
    }

    /**
     * ctx.convert for {@code log}'s argument: int/bool/float exactly, a str as from_str at the working precision,
     * anything else {@code TypeError("cannot create mpf from <repr>")}.
     */
    static Mpf convert(Object x, int prec) {
        if (x instanceof Boolean b) return fromInt(b ? BigInteger.ONE : BigInteger.ZERO);
        if (x instanceof BigInteger i) return fromInt(i);
        if (x instanceof Double d) return fromDouble(d);
        if (x instanceof String s) {
            Mpf m = fromStr(s, prec);
            if (m != null) return m;
        }
        throw PyException.typeError("cannot create mpf from " + PyObjects.repr(x));
    }

    /** libmpf.from_str for a plain decimal literal or inf/nan; null where it raises ValueError. */
    private static Mpf fromStr(String s, int prec) {
        String t = s.strip().toLowerCase();
        switch (t) {
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Mpf.INF;
            }
            case "-inf", "-infinity" -> {
                return Mpf.NINF;
            }
            case "nan", "+nan", "-nan" -> {
                return Mpf.NAN;
            }
            default -> {}
        }
        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?")) return null;
        return fromDecimal(new BigDecimal(t), prec);
    }

    // ---------------------------------------------------------------- arithmetic

    static Mpf mul(Mpf s, Mpf t) {
        if (s.finite() && t.finite()) return make(s.neg() != t.neg(), s.man().multiply(t.man()), s.exp() + t.exp(), 0);
        if (s.kind() == Mpf.Kind.NAN || t.kind() == Mpf.Kind.NAN) return Mpf.NAN;
        if (s.zero() || t.zero()) return s.special() || t.special() ? Mpf.NAN : Mpf.ZERO;
        return s.sign() * t.sign() > 0 ? Mpf.INF : Mpf.NINF;
    }

    static Mpf add(Mpf s, Mpf t, int prec) {
        if (s.finite() && t.finite()) {
            long e = Math.min(s.exp(), t.exp());
            BigInteger a = s.man().shiftLeft((int) (s.exp() - e));
            BigInteger b = t.man().shiftLeft((int) (t.exp() - e));
            if (s.neg()) a = a.negate();
            if (t.neg()) b = b.negate();
            return make(false, a.add(b), e, prec);
        }
        if (s.kind() == Mpf.Kind.NAN || t.kind() == Mpf.Kind.NAN) return Mpf.NAN;
        if (s.zero()) return t.finite() ? make(t.neg(), t.man(), t.exp(), prec) : t;
        if (t.zero()) return s.finite() ? make(s.neg(), s.man(), s.exp(), prec) : s;
        if (s.special() && t.special()) return s.kind() == t.kind() ? s : Mpf.NAN;
        return s.special() ? s : t;
    }

    static Mpf sub(Mpf s, Mpf t, int prec) {
        return add(s, t.negate(), prec);
    }

    /** mpf_div: 0/0 and x/0 are ZeroDivisionError with an empty message. */
    static Mpf div(Mpf s, Mpf t, int prec) {
        if (s.finite() && t.finite()) return rational(s.neg() != t.neg(), s.man(), t.man(), s.exp() - t.exp(), prec);
        if (s.zero()) {
            if (t.zero()) throw new PyException("ZeroDivisionError", "");
            if (t.kind() == Mpf.Kind.NAN) return Mpf.NAN;
            return Mpf.ZERO;
        }
        if (t.zero()) throw new PyException("ZeroDivisionError", "");
        if (s.special() && t.special()) return Mpf.NAN;
        if (s.kind() == Mpf.Kind.NAN || t.kind() == Mpf.Kind.NAN) return Mpf.NAN;
        if (!t.special()) return s.sign() * t.sign() > 0 ? Mpf.INF : Mpf.NINF;
        return Mpf.ZERO;
    }

    /** mpc_div_mpf: each part divided. */
    static Mpc div(Mpc z, Mpf p, int prec) {
        return new Mpc(div(z.re(), p, prec), div(z.im(), p, prec));
    }

    /** mpc_mpf_div: p / (a + bi) with m = a*a + b*b at prec + 10. */
    static Mpc div(Mpf p, Mpc z, int prec) {
        Mpf m = add(mul(z.re(), z.re()), mul(z.im(), z.im()), prec + 10);
        return new Mpc(div(mul(z.re(), p), m, prec), div(mul(z.im(), p).negate(), m, prec));
    }

    /** mpc_div at wp = prec + 10. */
    static Mpc div(Mpc z, Mpc w, int prec) {
        int wp = prec + 10;
        Mpf a = z.re(), b = z.im(), c = w.re(), d = w.im();
        Mpf mag = add(mul(c, c), mul(d, d), wp);
        Mpf t = add(mul(a, c), mul(b, d), wp);
        Mpf u = sub(mul(b, c), mul(a, d), wp);
        return new Mpc(div(t, mag, prec), div(u, mag, prec));
    }

    // ---------------------------------------------------------------- log and pi

    /** {@code mpmath.log(x)}: an Mpf for x >= 0 (and nan), an Mpc for a negative x (log|x| + pi i). */
    static Object log(Mpf x, int prec) {
        return switch (x.kind()) {
            case ZERO -> Mpf.NINF;
            case INF -> Mpf.INF;
            case NAN -> Mpf.NAN;
            case NINF -> new Mpc(Mpf.INF, pi(prec));
            case FINITE -> x.neg() ? new Mpc(lnPositive(x.negate(), prec), pi(prec)) : lnPositive(x, prec);
        };
    }

    private static Mpf lnPositive(Mpf x, int prec) {
        if (x.man().equals(BigInteger.ONE) && x.exp() == 0) return Mpf.ZERO;
        int digits =
                (int) (prec * 0.30103) + 40 + Long.toString(Math.abs(x.exp())).length();
        MathContext mc = new MathContext(digits, RoundingMode.HALF_EVEN);
        // ln(man * 2^exp) = ln(man / 2^bc) + (exp + bc) ln 2, the first argument in [1/2, 1)
        int bc = x.man().bitLength();
        BigDecimal f = new BigDecimal(x.man()).divide(new BigDecimal(BigInteger.TWO.pow(bc)), mc);
        BigDecimal v = ln(f, mc).add(ln2(mc).multiply(BigDecimal.valueOf(x.exp() + bc), mc), mc);
        return fromDecimal(v, prec);
    }

    /** ln(f) for f in [1/2, 1) by 2 atanh((f-1)/(f+1)). */
    private static BigDecimal ln(BigDecimal f, MathContext mc) {
        BigDecimal y = f.subtract(BigDecimal.ONE).divide(f.add(BigDecimal.ONE), mc);
        return atanhSeries(y, mc).multiply(BigDecimal.TWO, mc);
    }

    private static BigDecimal atanhSeries(BigDecimal y, MathContext mc) {
        BigDecimal y2 = y.multiply(y, mc);
        BigDecimal term = y, sum = y;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 5);
        for (int k = 3; ; k += 2) {
            term = term.multiply(y2, mc);
            BigDecimal add = term.divide(BigDecimal.valueOf(k), mc);
            if (add.abs().compareTo(eps) < 0) break;
            sum = sum.add(add, mc);
        }
        return sum;
    }

    private static BigDecimal ln2(MathContext mc) {
        // ln 2 = 2 atanh(1/3)
        return atanhSeries(BigDecimal.ONE.divide(BigDecimal.valueOf(3), mc), mc).multiply(BigDecimal.TWO, mc);
    }

    /** mpf_pi(prec): Machin's formula, rounded. */
    static Mpf pi(int prec) {
        MathContext mc = new MathContext((int) (prec * 0.30103) + 40, RoundingMode.HALF_EVEN);
        BigDecimal pi = atan(BigDecimal.ONE.divide(BigDecimal.valueOf(5), mc), mc)
                .multiply(BigDecimal.valueOf(16), mc)
                .subtract(
                        atan(BigDecimal.ONE.divide(BigDecimal.valueOf(239), mc), mc)
                                .multiply(BigDecimal.valueOf(4), mc),
                        mc);
        return fromDecimal(pi, prec);
    }

    private static BigDecimal atan(BigDecimal x, MathContext mc) {
        BigDecimal x2 = x.multiply(x, mc);
        BigDecimal term = x, sum = x;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 5);
        for (int k = 3; ; k += 2) {
            term = term.multiply(x2, mc).negate();
            BigDecimal add = term.divide(BigDecimal.valueOf(k), mc);
            if (add.abs().compareTo(eps) < 0) break;
            sum = sum.add(add, mc);
        }
        return sum;
    }

    // ---------------------------------------------------------------- printing

    /** libmpf.to_str(s, dps) with its defaults (strip_zeros, min_fixed = min(-(dps//3), -5), max_fixed = dps). */
    static String toStr(Mpf s, int dps) {
        switch (s.kind()) {
            case ZERO:
                return dps != 0 ? "0.0" : ".0";
            case INF:
                return "+inf";
            case NINF:
                return "-inf";
            case NAN:
                return "nan";
            default:
                break;
        }
        int minFixed = Math.min(-Math.floorDiv(dps, 3), -5);
        int maxFixed = dps;
        String sign = s.neg() ? "-" : "";
        // to_digits_exp(s, dps + 3): digits rounded toward zero
        int ddps = dps + 3;
        int bitprec = (int) (ddps * (Math.log(10) / Math.log(2))) + 10;
        long bc = s.man().bitLength();
        long fixprec = Math.max(bitprec - s.exp() - bc, 0);
        long fixdps = (long) (fixprec / (Math.log(10) / Math.log(2)) + 0.5);
        long offset = s.exp() + fixprec;
        BigInteger sf = offset >= 0 ? s.man().shiftLeft((int) offset) : s.man().shiftRight((int) -offset);
        BigInteger sd = sf.multiply(BigInteger.TEN.pow((int) fixdps)).shiftRight((int) fixprec);
        String digits = sd.toString();
        long exponent = digits.length() - fixdps - 1;
        if (dps == 0) {
            if ("56789".indexOf(digits.charAt(0)) >= 0) exponent += 1;
            digits = ".0";
        } else {
            if (digits.length() > dps && "56789".indexOf(digits.charAt(dps)) >= 0) {
                digits = digits.substring(0, dps);
                int i = dps - 1;
                while (i >= 0 && digits.charAt(i) == '9') i--;
                if (i >= 0) {
                    digits = digits.substring(0, i) + (char) (digits.charAt(i) + 1) + "0".repeat(dps - i - 1);
                } else {
                    digits = "1" + "0".repeat(dps - 1);
                    exponent += 1;
                }
            } else if (digits.length() > dps) {
                digits = digits.substring(0, dps);
            }
            int split;
            if (minFixed < exponent && exponent < maxFixed) {
                if (exponent < 0) {
                    digits = "0".repeat((int) -exponent) + digits;
                    split = 1;
                } else {
                    split = (int) exponent + 1;
                    if (split > dps) digits += "0".repeat(split - dps);
                }
                exponent = 0;
            } else {
                split = 1;
            }
            digits = digits.substring(0, Math.min(split, digits.length())) + "."
                    + (split < digits.length() ? digits.substring(split) : "");
            int end = digits.length();
            while (end > 0 && digits.charAt(end - 1) == '0') end--;
            digits = digits.substring(0, end);
            if (digits.endsWith(".")) digits += "0";
        }
        if (exponent == 0 && dps != 0) return sign + digits;
        if (exponent >= 0) return sign + digits + "e+" + exponent;
        return sign + digits + "e" + exponent;
    }

    /** An mpf or mpc as a Python object ({@code repr} as mpmath at the precision it was computed with). */
    record MpNumber(Object value, int prec) implements PyObjects.Custom {
        @Override
        public String pyTypeName() {
            return value instanceof Mpc ? "mpc" : "mpf";
        }

        @Override
        public String pyRepr() {
            int dps = reprDps(prec);
            if (value instanceof Mpc c) {
                return "mpc(real='" + toStr(c.re(), dps) + "', imag='" + toStr(c.im(), dps) + "')";
            }
            return "mpf('" + toStr((Mpf) value, dps) + "')";
        }

        @Override
        public String pyStr() {
            int dps = precToDps(prec);
            if (value instanceof Mpc c)
                return "(" + toStr(c.re(), dps) + (c.im().neg() ? "" : "+") + toStr(c.im(), dps) + "j)";
            return toStr((Mpf) value, dps);
        }
    }
}
