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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;
import org.pcollections.OrderedPMap;

/**
 * Python's builtins, in both object models:
 * <ul>
 *   <li>the built-in operations transcribed tool code applies to its (untyped, JSON-like) {@link Value}
 *       arguments: membership in dicts and sets, iteration, {@code len}, {@code list.count}/{@code str.count},
 *       {@code ==}, {@code <}, {@code sorted}, {@code str.lower}, {@code round(float, n)}, {@code int()},
 *       {@code float()}. Equality, ordering, rounding and truthiness are {@link PyOps}, {@link PyRound}
 *       and {@link PyTruth}'s (checked against CPython vectors); this class adds what tool code does with them;</li>
 *   <li>the builtins namespace of evaluated source ({@link #lookup}: {@code len abs max min sorted sum round
 *       int str float list dict set tuple bool repr print}) over {@link PyObjects}' dynamic objects, what
 *       {@code brokkr.python.source.PyEval} resolves a name to when the globals do not hold it.</li>
 * </ul>
 * The rules the two share ({@code float(str)}, {@code int(str)}, list.sort's comparisons) are written once
 * ({@link #parseFloat}, {@link #parseInt}, {@link #listSort}). Exception texts are those of CPython 3.11 and
 * 3.13 alike; where a text quotes a str's repr, the caller's {@link CPython} profile renders it.
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
            case PyList l -> {
                return l.items();
            }
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
                if (!(x instanceof PyStr sub))
                    throw PyException.typeError("'in <string>' requires string as left operand, not " + x.typeName());
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
        if (v instanceof PyStr s)
            return s.value().toLowerCase(java.util.Locale.ROOT); // full Unicode mapping, final sigma as Python
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
        if (a instanceof PyFloat fa && b instanceof PyFloat fb)
            return Double.compare(fa.value() + 0.0, fb.value() + 0.0);
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
    public static boolean lt(Value a, Value b) {
        return PyOps.lt(a, b);
    }

    /** {@code sorted(v)} ({@link #listSort}). */
    public static PyList sorted(Value v) {
        return PyList.of(listSort(iterate(v), PyOps::lt, false));
    }

    /**
     * {@code list.sort(reverse=...)} with {@code lt} as {@code <}: CPython's listsort on a short run (count_run,
     * then binary insertion; Objects/listobject.c), which compares only with {@code <} and in the same
     * operand order, so a mixed-type list fails with the same {@code TypeError} text and an inconsistent
     * order (NaN) gives the same result. (Longer lists are sorted the same way; the result is identical
     * for any consistent order.) {@code reverse} reverses before and after sorting, as listsort does to
     * keep equal items stable. count_run is 3.11's (a strictly descending run); 3.13's also takes equal
     * items into a descending run, which changes only which pairs are compared, not a consistent result.
     */
    public static <T> List<T> listSort(List<T> items, BiPredicate<T, T> lt, boolean reverse) {
        List<T> a = new ArrayList<>(items);
        int n = a.size();
        if (n < 2) return a;
        if (reverse) Collections.reverse(a);
        // count_run
        int run = 2;
        if (lt.test(a.get(1), a.get(0))) {
            while (run < n && lt.test(a.get(run), a.get(run - 1))) run++;
            Collections.reverse(a.subList(0, run));
        } else {
            while (run < n && !lt.test(a.get(run), a.get(run - 1))) run++;
        }
        // binarysort(lo, hi, start = run)
        for (int start = run; start < n; start++) {
            T pivot = a.get(start);
            int l = 0, r = start;
            do {
                int p = l + ((r - l) >> 1);
                if (lt.test(pivot, a.get(p))) r = p;
                else l = p + 1;
            } while (l < r);
            a.remove(start);
            a.add(l, pivot);
        }
        if (reverse) Collections.reverse(a);
        return a;
    }

    /**
     * {@code max(a, b)}: Python/bltinmodule.c min_max keeps the first item and replaces it by a later
     * one only when {@code item > kept} ({@code max(0, 0.0)} is the int 0, {@code max(0, nan)} is 0).
     */
    public static Value max(Value a, Value b) {
        return PyOps.gt(b, a) ? b : a;
    }

    /** {@code str(v)}. */
    public static String str(Value v) {
        return PyRepr.str(v);
    }

    /** {@code round(x, ndigits)} for a float. */
    public static double round(double x, int ndigits) {
        return PyRound.round(x, ndigits);
    }

    /** {@code round(v, ndigits)} for an int, bool or float value. */
    public static Value round(Value v, int ndigits) {
        return PyRound.round(v, ndigits);
    }

    private static final Pattern FLOAT_LITERAL = Pattern.compile(
            "[+-]?(?:(?:\\d(?:_?\\d)*(?:\\.(?:\\d(?:_?\\d)*)?)?|\\.\\d(?:_?\\d)*)(?:[eE][+-]?\\d(?:_?\\d)*)?|inf|infinity|nan)",
            Pattern.CASE_INSENSITIVE);

    /** {@code float(v)}: numbers as {@link #toDouble}, a str as {@link #parseFloat} (its error under CPython 3.13). */
    public static double toFloat(Value v) {
        if (!(v instanceof PyStr s)) return toDouble(v);
        return parseFloat(s.value(), CPython.V3_13);
    }

    /**
     * {@code float(s)} for a str, as Objects/floatobject.c float_from_string: surrounding whitespace,
     * underscores between digits, {@code inf}/{@code infinity}/{@code nan} in any case and with a sign,
     * otherwise {@code ValueError: could not convert string to float: '...'} (the repr under {@code python}).
     */
    public static double parseFloat(String s, CPython python) {
        String t = PyStrings.strip(decimalAndSpaceToAscii(s));
        if (!FLOAT_LITERAL.matcher(t).matches()) throw notALiteral("could not convert string to float: ", s, python);
        String lower = t.toLowerCase(java.util.Locale.ROOT).replace("_", "");
        String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        boolean neg = lower.startsWith("-");
        if (body.startsWith("inf")) return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (body.equals("nan")) return neg ? -Double.NaN : Double.NaN;
        return Double.parseDouble(lower);
    }

    /**
     * {@code int(s)} for a str: a base-10 literal, surrounding whitespace and underscores between digits
     * allowed, else {@code ValueError: invalid literal for int() with base 10: '...'} (the repr under {@code python}).
     */
    public static BigInteger parseInt(String s, CPython python) {
        String t = PyStrings.strip(decimalAndSpaceToAscii(s));
        if (!INT_LITERAL.matcher(t).matches()) throw notALiteral("invalid literal for int() with base 10: ", s, python);
        return new BigInteger(t.replace("_", ""));
    }

    /**
     * Objects/unicodeobject.c _PyUnicode_TransformDecimalAndSpaceToASCII, which int() and float() apply
     * to a str first: every Unicode decimal digit (category Nd, e.g. fullwidth or Arabic-Indic) becomes
     * its ASCII digit and every Unicode whitespace a space; any other non-ASCII character becomes
     * {@code '?'}, which no literal accepts.
     */
    static String decimalAndSpaceToAscii(String s) {
        boolean ascii = true;
        for (int i = 0; i < s.length() && ascii; i++) ascii = s.charAt(i) < 0x80;
        if (ascii) return s;
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            if (cp < 0x80) sb.append((char) cp);
            else if (PyStrings.isSpace(cp)) sb.append(' ');
            else if (Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER)
                sb.append((char) ('0' + Character.digit(cp, 10)));
            else sb.append('?');
        });
        return sb.toString();
    }

    /** The ValueError of a str that is no literal of the type: the text, then the str's repr under {@code python}. */
    private static PyException notALiteral(String text, String s, CPython python) {
        StringBuilder msg = new StringBuilder(text);
        PyRepr.reprStr(s, msg, python);
        return PyException.valueError(msg.toString());
    }

    private static final Pattern INT_LITERAL = Pattern.compile("[+-]?\\d(?:_?\\d)*");

    /** {@code int(v)} for a number: floats truncate toward zero; infinities and NaN raise as CPython. */
    public static PyInt intOf(Value v) {
        return switch (v) {
            case PyInt i -> i;
            case PyBool b -> PyInt.of(b.value() ? 1 : 0);
            case PyFloat f -> {
                double x = f.value();
                if (Double.isNaN(x)) throw PyException.valueError("cannot convert float NaN to integer");
                if (Double.isInfinite(x))
                    throw new PyException("OverflowError", "cannot convert float infinity to integer");
                yield new PyInt(new BigDecimal(x).toBigInteger());
            }
            default ->
                throw PyException.typeError(
                        "int() argument must be a string, a bytes-like object or a real number, not '" + v.typeName()
                                + "'");
        };
    }

    /**
     * {@code int(v)} for any value: numbers as {@link #intOf}, a str as a base-10 literal (whitespace and
     * underscores between digits allowed), else {@code ValueError: invalid literal for int() with base 10: '...'}.
     */
    public static PyInt intOfAny(Value v) {
        if (!(v instanceof PyStr s)) return intOf(v);
        return new PyInt(parseInt(s.value(), CPython.V3_13));
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
            default ->
                throw PyException.typeError(
                        "float() argument must be a string or a real number, not '" + v.typeName() + "'");
        };
    }

    public static double intToDouble(BigInteger i) {
        double d = i.doubleValue();
        if (Double.isInfinite(d)) throw new PyException("OverflowError", "int too large to convert to float");
        return d;
    }

    /** Python truthiness. */
    public static boolean truthy(Value v) {
        return PyTruth.truthy(v);
    }

    // ---------------------------------------------------------------- the builtins namespace (dynamic objects)

    /** A builtin function or type of the namespace ({@link #lookup}). */
    public record Builtin(String name, boolean isType, Fn fn) implements PyObjects.Callable {
        @Override
        public String pyTypeName() {
            return isType ? "type" : "builtin_function_or_method";
        }

        @Override
        public String pyRepr() {
            return isType ? "<class '" + name + "'>" : "<built-in function " + name + ">";
        }

        @Override
        public String qualname() {
            return name + "()";
        }

        @Override
        public Object call(List<Object> args, Map<String, Object> kwargs) {
            return fn.call(args, kwargs);
        }
    }

    /** A builtin's body: positional and keyword arguments to a {@link PyObjects} object. */
    @FunctionalInterface
    public interface Fn {
        Object call(List<Object> args, Map<String, Object> kwargs);
    }

    /** The namespace of each release: {@code str}, {@code repr} and the texts quoting a repr render under it. */
    private static final Map<CPython, Map<String, Builtin>> NAMESPACES = namespaces();

    private static Map<CPython, Map<String, Builtin>> namespaces() {
        Map<CPython, Map<String, Builtin>> out = new java.util.EnumMap<>(CPython.class);
        for (CPython python : CPython.values()) out.put(python, namespace(python));
        return out;
    }

    /** The builtin {@code name} of {@code python}'s namespace, or Java null if there is none. */
    public static Builtin lookup(String name, CPython python) {
        return NAMESPACES.get(python).get(name);
    }

    /**
     * Calls the builtin {@code name} with positional arguments ({@code call("sum", python, numbers)}), as
     * evaluated source would.
     */
    public static Object call(String name, CPython python, Object... args) {
        Builtin b = lookup(name, python);
        if (b == null) throw new IllegalArgumentException("no builtin " + name);
        return b.call(List.of(args), Map.of());
    }

    private static void def(Map<String, Builtin> ns, String name, boolean isType, Fn fn) {
        ns.put(name, new Builtin(name, isType, fn));
    }

    private static void noKw(String name, Map<String, Object> kw) {
        if (!kw.isEmpty()) throw PyException.typeError(name + "() takes no keyword arguments");
    }

    private static void exactlyOne(String name, List<Object> args) {
        if (args.size() != 1)
            throw PyException.typeError(name + "() takes exactly one argument (" + args.size() + " given)");
    }

    private static Map<String, Builtin> namespace(CPython python) {
        Map<String, Builtin> ns = new LinkedHashMap<>();
        def(ns, "len", false, (a, kw) -> {
            noKw("len", kw);
            exactlyOne("len", a);
            return BigInteger.valueOf(PyObjectOps.len(a.getFirst()));
        });
        def(ns, "abs", false, (a, kw) -> {
            noKw("abs", kw);
            exactlyOne("abs", a);
            return PyObjectOps.abs(a.getFirst());
        });
        def(ns, "max", false, (a, kw) -> minMax("max", a, kw, true));
        def(ns, "min", false, (a, kw) -> minMax("min", a, kw, false));
        def(ns, "sorted", false, (a, kw) -> {
            if (a.size() != 1) throw PyException.typeError("sorted expected 1 argument, got " + a.size());
            for (String k : kw.keySet()) {
                if (!k.equals("reverse") && !k.equals("key")) {
                    throw PyException.typeError("'" + k + "' is an invalid keyword argument for sort()");
                }
            }
            boolean reverse = kw.containsKey("reverse") && PyObjects.truthy(kw.get("reverse"));
            return ArrayVector.from(listSort(PyObjectOps.iterate(a.getFirst()), PyObjectOps::lt, reverse));
        });
        def(ns, "sum", false, (a, kw) -> {
            if (a.isEmpty()) throw PyException.typeError("sum() takes at least 1 positional argument (0 given)");
            if (a.size() > 2) throw PyException.typeError("sum() takes at most 2 arguments (" + a.size() + " given)");
            Object start = a.size() > 1 ? a.get(1) : kw.getOrDefault("start", BigInteger.ZERO);
            if (start instanceof String)
                throw PyException.typeError("sum() can't sum strings [use ''.join(seq) instead]");
            Object acc = start;
            for (Object x : PyObjectOps.iterate(a.getFirst())) acc = PyObjectOps.add(acc, x);
            return acc;
        });
        def(ns, "round", false, (a, kw) -> {
            Object x = a.isEmpty() ? kw.get("number") : a.getFirst();
            Object nd = a.size() > 1 ? a.get(1) : kw.getOrDefault("ndigits", PyNone.NONE);
            if (x == null) throw PyException.typeError("round() missing required argument 'number' (pos 1)");
            if (!PyObjects.isNumber(x))
                throw PyException.typeError("type " + PyObjects.typeName(x) + " doesn't define __round__ method");
            if (nd == PyNone.NONE) {
                if (x instanceof Double d) return PyRound.round(new PyFloat(d)).value();
                return PyObjects.asBigInteger(x);
            }
            if (!PyObjects.isInt(nd)) {
                throw PyException.typeError(
                        "'" + PyObjects.typeName(nd) + "' object cannot be interpreted as an integer");
            }
            BigInteger n = PyObjects.asBigInteger(nd);
            // floatobject.c double_round: beyond NDIGITS_MAX (323) x itself, below NDIGITS_MIN (-308) 0.0 * x
            if (x instanceof Double d) {
                if (n.compareTo(BigInteger.valueOf(323)) > 0) return d;
                if (n.compareTo(BigInteger.valueOf(-308)) < 0) return 0.0 * d;
            } else {
                BigInteger i = PyObjects.asBigInteger(x);
                if (n.signum() >= 0) return i;
                if (n.negate().compareTo(BigInteger.valueOf(i.abs().toString().length() + 1L)) > 0)
                    return BigInteger.ZERO;
            }
            Value r = PyRound.round(
                    x instanceof Double d ? new PyFloat(d) : new PyInt(PyObjects.asBigInteger(x)), n.intValue());
            return PyObjects.fromValue(r);
        });
        def(ns, "int", true, (a, kw) -> {
            if (a.isEmpty()) return BigInteger.ZERO;
            return intOfObject(a.getFirst(), python);
        });
        def(ns, "float", true, (a, kw) -> {
            noKw("float", kw);
            if (a.isEmpty()) return 0.0;
            return floatOfObject(a.getFirst(), python);
        });
        def(ns, "str", true, (a, kw) -> a.isEmpty() ? "" : PyObjects.str(a.getFirst(), python));
        def(ns, "repr", false, (a, kw) -> {
            exactlyOne("repr", a);
            return PyObjects.repr(a.getFirst(), python);
        });
        def(ns, "bool", true, (a, kw) -> !a.isEmpty() && PyObjects.truthy(a.getFirst()));
        def(ns, "list", true, (a, kw) -> {
            noKw("list", kw);
            if (a.size() > 1) throw PyException.typeError("list expected at most 1 argument, got " + a.size());
            return a.isEmpty() ? ArrayVector.empty() : ArrayVector.from(PyObjectOps.iterate(a.getFirst()));
        });
        def(ns, "tuple", true, (a, kw) -> {
            noKw("tuple", kw);
            if (a.size() > 1) throw PyException.typeError("tuple expected at most 1 argument, got " + a.size());
            return a.isEmpty() ? new PyTuple(List.of()) : new PyTuple(PyObjectOps.iterate(a.getFirst()));
        });
        def(ns, "set", true, (a, kw) -> {
            noKw("set", kw);
            if (a.size() > 1) throw PyException.typeError("set expected at most 1 argument, got " + a.size());
            // Objects/setobject.c set_update_internal: another set is merged table to table (set_merge)
            if (!a.isEmpty() && a.getFirst() instanceof PySet other) return PySet.copyOf(other);
            LinkedHashSet<Object> members = new LinkedHashSet<>();
            if (!a.isEmpty()) {
                for (Object o : PyObjectOps.iterate(a.getFirst())) {
                    PyObjects.requireHashable(o);
                    members.add(o);
                }
            }
            return PySet.of(members);
        });
        def(ns, "dict", true, (a, kw) -> {
            if (a.size() > 1) throw PyException.typeError("dict expected at most 1 argument, got " + a.size());
            OrderedPMap<Object, Object> m = OrderedPMap.empty();
            if (!a.isEmpty()) {
                Object src = a.getFirst();
                if (src instanceof Map<?, ?> map) {
                    for (Map.Entry<?, ?> e : map.entrySet()) m = m.plus(e.getKey(), e.getValue());
                } else {
                    int i = 0;
                    for (Object item : PyObjectOps.iterate(src)) {
                        List<Object> pair;
                        try {
                            pair = PyObjectOps.iterate(item);
                        } catch (PyException e) {
                            throw PyException.typeError(
                                    "cannot convert dictionary update sequence element #" + i + " to a sequence");
                        }
                        if (pair.size() != 2) {
                            throw PyException.valueError("dictionary update sequence element #" + i + " has length "
                                    + pair.size() + "; 2 is required");
                        }
                        PyObjects.requireHashable(pair.get(0));
                        m = m.plus(pair.get(0), pair.get(1));
                        i++;
                    }
                }
            }
            for (Map.Entry<String, Object> e : kw.entrySet()) m = m.plus(e.getKey(), e.getValue());
            return m;
        });
        def(ns, "print", false, (a, kw) -> PyNone.NONE);
        return Map.copyOf(ns);
    }

    private static Object minMax(String name, List<Object> args, Map<String, Object> kw, boolean max) {
        for (String k : kw.keySet()) {
            if (!k.equals("key") && !k.equals("default")) {
                throw PyException.typeError("'" + k + "' is an invalid keyword argument for " + name + "()");
            }
        }
        if (args.isEmpty()) throw PyException.typeError(name + " expected at least 1 argument, got 0");
        List<Object> items = args.size() == 1 ? PyObjectOps.iterate(args.getFirst()) : args;
        if (items.isEmpty()) {
            if (kw.containsKey("default")) return kw.get("default");
            throw PyException.valueError(name + "() arg is an empty sequence");
        }
        Object best = items.getFirst();
        for (int i = 1; i < items.size(); i++) {
            Object item = items.get(i);
            // bltinmodule.c min_max: PyObject_RichCompareBool(item, maxitem, op)
            if (max ? PyObjectOps.gt(item, best) : PyObjectOps.lt(item, best)) best = item;
        }
        return best;
    }

    /** {@code int(x)} of a dynamic object: bool, int, float (truncated), str ({@link #parseInt}). */
    public static BigInteger intOfObject(Object x, CPython python) {
        return switch (x) {
            case Boolean b -> b ? BigInteger.ONE : BigInteger.ZERO;
            case BigInteger i -> i;
            case Double d -> intOf(new PyFloat(d)).value();
            case String s -> parseInt(s, python);
            default ->
                throw PyException.typeError(
                        "int() argument must be a string, a bytes-like object or a real number, not '"
                                + PyObjects.typeName(x) + "'");
        };
    }

    /** {@code float(x)} of a dynamic object: bool, int (OverflowError beyond a float), float, str ({@link #parseFloat}). */
    public static double floatOfObject(Object x, CPython python) {
        return switch (x) {
            case Boolean b -> b ? 1.0 : 0.0;
            case BigInteger i -> PyObjectOps.toDouble(i);
            case Double d -> d;
            case String s -> parseFloat(s, python);
            default ->
                throw PyException.typeError(
                        "float() argument must be a string or a real number, not '" + PyObjects.typeName(x) + "'");
        };
    }
}
