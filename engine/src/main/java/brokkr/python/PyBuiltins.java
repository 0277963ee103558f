package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CPython semantics of the built-in operations transcribed tool code applies to its (untyped, JSON-like)
 * arguments, with CPython 3.13's exception texts: membership in dicts and sets, iteration, {@code len},
 * {@code list.count}/{@code str.count}, {@code ==}, {@code <}, {@code sorted}, {@code str.lower},
 * {@code round(float, n)}. Equality, ordering, rounding and truthiness are {@link PyOps}, {@link PyRound}
 * and {@link PyTruth}'s (checked against CPython vectors); this class adds what tool code does with them.
 */
public final class PyBuiltins {
    private PyBuiltins() {}

    /** {@code hash(v)} succeeds: lists and dicts raise {@code TypeError: unhashable type: 'list'}. */
    public static void requireHashable(Value v) {
        if (v instanceof PyList || v instanceof PyDict) {
            throw PyException.typeError("unhashable type: '" + v.typeName() + "'");
        }
    }

    /** {@code key in d} for a dict (or set) of str keys. */
    public static boolean contains(PyDict d, Value key) {
        requireHashable(key);
        return key instanceof PyStr s && d.containsKey(s.value());
    }

    /** {@code key in {"a", "b"}} for a set of str. */
    public static boolean inStrSet(Value key, String... members) {
        requireHashable(key);
        if (!(key instanceof PyStr s)) return false;
        for (String m : members) if (m.equals(s.value())) return true;
        return false;
    }

    /** {@code iter(v)} materialised: a str yields its characters (code points), a dict its keys. */
    public static List<Value> iterate(Value v) {
        switch (v) {
            case PyList l -> { return l.items(); }
            case PyStr s -> {
                List<Value> out = new ArrayList<>(s.value().length());
                s.value().codePoints().forEach(cp -> out.add(new PyStr(Character.toString(cp))));
                return out;
            }
            case PyDict d -> {
                List<Value> out = new ArrayList<>(d.size());
                for (String k : d.keys()) out.add(new PyStr(k));
                return out;
            }
            default -> throw PyException.typeError("'" + v.typeName() + "' object is not iterable");
        }
    }

    /** {@code len(v)}. */
    public static int len(Value v) {
        return switch (v) {
            case PyList l -> l.size();
            case PyStr s -> s.value().codePointCount(0, s.value().length());
            case PyDict d -> d.size();
            default -> throw PyException.typeError("object of type '" + v.typeName() + "' has no len()");
        };
    }

    /** {@code seq.count(x)}: list (by ==), str (non-overlapping substrings); anything else has no {@code count}. */
    public static int count(Value seq, Value x) {
        switch (seq) {
            case PyList l -> {
                int n = 0;
                for (Value e : l) if (eq(e, x)) n++;
                return n;
            }
            case PyStr s -> {
                if (!(x instanceof PyStr sub)) {
                    throw PyException.typeError("must be str, not " + x.typeName());
                }
                String hay = s.value(), needle = sub.value();
                if (needle.isEmpty()) return hay.codePointCount(0, hay.length()) + 1;
                int n = 0;
                for (int i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length())) n++;
                return n;
            }
            default -> throw attributeError(seq, "count");
        }
    }

    /**
     * {@code x in container}: a substring test for str (a non-str operand is CPython's TypeError), {@code ==}
     * membership for lists, key membership for dicts (an unhashable key raises), TypeError otherwise.
     */
    public static boolean in(Value x, Value container) {
        return switch (container) {
            case PyStr s -> {
                if (!(x instanceof PyStr sub)) throw PyException.typeError("'in <string>' requires string as left operand, not " + x.typeName());
                yield s.value().contains(sub.value());
            }
            case PyList l -> {
                for (Value v : l) if (eq(v, x)) yield true;
                yield false;
            }
            case PyDict d -> contains(d, x);
            default -> throw PyException.typeError("argument of type '" + container.typeName() + "' is not iterable");
        };
    }

    /** {@code v.lower()} (str only). */
    public static String lower(Value v) {
        if (v instanceof PyStr s) return s.value().toLowerCase(java.util.Locale.ROOT); // full Unicode mapping, final sigma as Python
        throw attributeError(v, "lower");
    }

    public static PyException attributeError(Value v, String attr) {
        return PyException.attributeError("'" + v.typeName() + "' object has no attribute '" + attr + "'");
    }

    /**
     * Equality as {@code in}, {@code list.count} and {@code list.index} compare: identity first, then
     * {@code ==} ({@code PyObject_RichCompare} with CPython's identity shortcut).
     */
    public static boolean eq(Value a, Value b) {
        return a == b || PyOps.eq(a, b);
    }

    public static boolean isNumber(Value v) {
        return v instanceof PyInt || v instanceof PyFloat || v instanceof PyBool;
    }

    /** Exact comparison of two numbers (NaN compares as unordered: returns 2). */
    public static int numCompare(Value a, Value b) {
        if (a instanceof PyFloat fa && Double.isNaN(fa.value())) return 2;
        if (b instanceof PyFloat fb && Double.isNaN(fb.value())) return 2;
        if (a instanceof PyFloat fa && b instanceof PyFloat fb) return Double.compare(fa.value() + 0.0, fb.value() + 0.0);
        if (!(a instanceof PyFloat) && !(b instanceof PyFloat)) return bigInt(a).compareTo(bigInt(b));
        double fx = a instanceof PyFloat f ? f.value() : b instanceof PyFloat g ? g.value() : 0;
        if (Double.isInfinite(fx)) {
            int s = fx > 0 ? 1 : -1;
            return a instanceof PyFloat ? s : -s;
        }
        return exact(a).compareTo(exact(b));
    }

    private static BigDecimal exact(Value v) {
        return v instanceof PyFloat f ? new BigDecimal(f.value()) : new BigDecimal(bigInt(v));
    }

    public static BigInteger bigInt(Value v) {
        return switch (v) {
            case PyInt i -> i.value();
            case PyBool b -> b.value() ? BigInteger.ONE : BigInteger.ZERO;
            default -> throw new IllegalArgumentException("not an int: " + v.typeName());
        };
    }

    /** Python {@code a < b}; mixed kinds raise {@code '<' not supported between instances of ...}. */
    public static boolean lt(Value a, Value b) { return PyOps.lt(a, b); }

    /**
     * {@code sorted(v)}: CPython's list.sort on a short run (count_run, then binary insertion), which
     * compares only with {@code <} and in the same operand order, so a mixed-type list fails with the
     * same {@code TypeError} text. (Longer lists are sorted the same way; the result is identical for
     * any consistent order.)
     */
    public static PyList sorted(Value v) {
        List<Value> a = new ArrayList<>(iterate(v));
        int n = a.size();
        if (n < 2) return PyList.of(a);
        // count_run
        int run = 2;
        if (lt(a.get(1), a.get(0))) {
            while (run < n && lt(a.get(run), a.get(run - 1))) run++;
            java.util.Collections.reverse(a.subList(0, run));
        } else {
            while (run < n && !lt(a.get(run), a.get(run - 1))) run++;
        }
        // binarysort(lo, hi, start = run)
        for (int start = run; start < n; start++) {
            Value pivot = a.get(start);
            int l = 0, r = start;
            do {
                int p = l + ((r - l) >> 1);
                if (lt(pivot, a.get(p))) r = p; else l = p + 1;
            } while (l < r);
            a.remove(start);
            a.add(l, pivot);
        }
        return PyList.of(a);
    }

    /**
     * {@code max(a, b)}: Python/bltinmodule.c min_max keeps the first item and replaces it by a later
     * one only when {@code item > kept} ({@code max(0, 0.0)} is the int 0, {@code max(0, nan)} is 0).
     */
    public static Value max(Value a, Value b) { return PyOps.gt(b, a) ? b : a; }

    /** {@code str(v)}. */
    public static String str(Value v) { return PyRepr.str(v); }

    /** {@code round(x, ndigits)} for a float. */
    public static double round(double x, int ndigits) { return PyRound.round(x, ndigits); }

    /** {@code round(v, ndigits)} for an int, bool or float value. */
    public static Value round(Value v, int ndigits) { return PyRound.round(v, ndigits); }

    /** {@code float(v)} for numbers. */
    private static final java.util.regex.Pattern FLOAT_LITERAL = java.util.regex.Pattern.compile(
            "[+-]?(?:(?:\\d(?:_?\\d)*(?:\\.(?:\\d(?:_?\\d)*)?)?|\\.\\d(?:_?\\d)*)(?:[eE][+-]?\\d(?:_?\\d)*)?|inf|infinity|nan)",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * {@code float(v)}: numbers as {@link #toDouble}, a str parsed as CPython does (surrounding
     * whitespace, underscores between digits, {@code inf}/{@code nan} in any case), otherwise
     * {@code ValueError: could not convert string to float: '...'}.
     */
    public static double toFloat(Value v) {
        if (!(v instanceof PyStr s)) return toDouble(v);
        String t = PyStrings.strip(s.value());
        if (!FLOAT_LITERAL.matcher(t).matches()) {
            throw PyException.valueError("could not convert string to float: " + PyRepr.repr(v));
        }
        String lower = t.toLowerCase(java.util.Locale.ROOT).replace("_", "");
        String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        boolean neg = lower.startsWith("-");
        if (body.startsWith("inf")) return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (body.equals("nan")) return Double.NaN;
        return Double.parseDouble(lower);
    }

    /** {@code int(v)} for a number: floats truncate toward zero; infinities and NaN raise as CPython. */
    public static PyInt intOf(Value v) {
        return switch (v) {
            case PyInt i -> i;
            case PyBool b -> PyInt.of(b.value() ? 1 : 0);
            case PyFloat f -> {
                double x = f.value();
                if (Double.isNaN(x)) throw PyException.valueError("cannot convert float NaN to integer");
                if (Double.isInfinite(x)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
                yield new PyInt(new BigDecimal(x).toBigInteger());
            }
            default -> throw PyException.typeError("int() argument must be a string, a bytes-like object or a real number, not '"
                    + v.typeName() + "'");
        };
    }

    /**
     * {@code int(v)} for any value: numbers as {@link #intOf}, a str as a base-10 literal (whitespace and
     * underscores between digits allowed), else {@code ValueError: invalid literal for int() with base 10: '...'}.
     */
    public static PyInt intOfAny(Value v) {
        if (!(v instanceof PyStr s)) return intOf(v);
        String t = PyStrings.strip(s.value());
        if (!t.matches("[+-]?\\d(?:_?\\d)*")) throw PyException.valueError("invalid literal for int() with base 10: " + PyRepr.repr(v));
        return new PyInt(new BigInteger(t.replace("_", "")));
    }

    /** {@code abs(v)} for numbers (bool is an int); anything else is CPython's TypeError. */
    public static Value abs(Value v) {
        return switch (v) {
            case PyInt i -> new PyInt(i.value().abs());
            case PyBool b -> PyInt.of(b.value() ? 1 : 0);
            case PyFloat f -> new PyFloat(Math.abs(f.value()));
            default -> throw PyException.typeError("bad operand type for abs(): '" + v.typeName() + "'");
        };
    }

    public static double toDouble(Value v) {
        return switch (v) {
            case PyFloat f -> f.value();
            case PyInt i -> intToDouble(i.value());
            case PyBool b -> b.value() ? 1.0 : 0.0;
            default -> throw PyException.typeError("float() argument must be a string or a real number, not '"
                    + v.typeName() + "'");
        };
    }

    public static double intToDouble(BigInteger i) {
        double d = i.doubleValue();
        if (Double.isInfinite(d)) throw new PyException("OverflowError", "int too large to convert to float");
        return d;
    }

    /** Python truthiness. */
    public static boolean truthy(Value v) { return PyTruth.truthy(v); }
}
