package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyRound;
import brokkr.python.PySet;
import brokkr.python.PyTuple;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.TreePVector;

/**
 * The Python builtins a call string can reach through {@code eval} (the ones models and the fuzz
 * corpora use: {@code len abs max min sorted sum round int str float list dict set tuple bool repr
 * print}), callables, and the few literal types beyond {@link PyObjects}' core ({@code bytes},
 * {@code complex}, {@code Ellipsis}); CPython 3.11's results and error texts.
 */
public final class PyBuiltins {
    private PyBuiltins() {}

    /** Calls the builtin {@code name} with positional arguments ({@code call("sum", numbers)}), as a call string would. */
    public static Object call(String name, Object... args) {
        Builtin b = ALL.get(name);
        if (b == null) throw new IllegalArgumentException("no builtin " + name);
        return b.call(List.of(args), Map.of());
    }

    /** Something {@code f(...)} can call. */
    interface Callable extends PyObjects.Custom {
        Object call(List<Object> args, Map<String, Object> kwargs);
        /** The name in "X() got multiple values for keyword argument" / "argument after * must be". */
        String qualname();
    }

    record Bytes(String latin1) implements PyObjects.Custom {
        @Override public String pyTypeName() { return "bytes"; }
        @Override public String pyRepr() {
            StringBuilder sb = new StringBuilder("b'");
            for (char c : latin1.toCharArray()) {
                if (c == '\'' || c == '\\') sb.append('\\').append(c);
                else if (c == '\n') sb.append("\\n");
                else if (c == '\r') sb.append("\\r");
                else if (c == '\t') sb.append("\\t");
                else if (c < 32 || c >= 127) sb.append(String.format("\\x%02x", (int) c & 0xff));
                else sb.append(c);
            }
            return sb.append('\'').toString();
        }
    }

    static final PyObjects.Custom ELLIPSIS = new PyObjects.Custom() {
        @Override public String pyTypeName() { return "ellipsis"; }
        @Override public String pyRepr() { return "Ellipsis"; }
    };

    /** A builtin function or type. */
    record Builtin(String name, boolean isType, Fn fn) implements Callable {
        @Override public String pyTypeName() { return isType ? "type" : "builtin_function_or_method"; }
        @Override public String pyRepr() { return isType ? "<class '" + name + "'>" : "<built-in function " + name + ">"; }
        @Override public String qualname() { return name + "()"; }
        @Override public Object call(List<Object> args, Map<String, Object> kwargs) { return fn.call(args, kwargs); }
    }

    @FunctionalInterface
    interface Fn {
        Object call(List<Object> args, Map<String, Object> kwargs);
    }

    static final Map<String, Builtin> ALL = new LinkedHashMap<>();

    private static void def(String name, boolean isType, Fn fn) { ALL.put(name, new Builtin(name, isType, fn)); }

    private static void noKw(String name, Map<String, Object> kw) {
        if (!kw.isEmpty()) throw PyException.typeError(name + "() takes no keyword arguments");
    }

    private static void exactlyOne(String name, List<Object> args) {
        if (args.size() != 1) throw PyException.typeError(name + "() takes exactly one argument (" + args.size() + " given)");
    }

    static {
        def("len", false, (a, kw) -> {
            noKw("len", kw);
            exactlyOne("len", a);
            return BigInteger.valueOf(PyObjectOps.len(a.getFirst()));
        });
        def("abs", false, (a, kw) -> {
            noKw("abs", kw);
            exactlyOne("abs", a);
            return PyObjectOps.abs(a.getFirst());
        });
        def("max", false, (a, kw) -> minMax("max", a, kw, true));
        def("min", false, (a, kw) -> minMax("min", a, kw, false));
        def("sorted", false, (a, kw) -> {
            if (a.size() != 1) throw PyException.typeError("sorted expected 1 argument, got " + a.size());
            for (String k : kw.keySet()) {
                if (!k.equals("reverse") && !k.equals("key")) {
                    throw PyException.typeError("'" + k + "' is an invalid keyword argument for sort()");
                }
            }
            List<Object> items = PyObjectOps.iterate(a.getFirst());
            boolean reverse = kw.containsKey("reverse") && PyObjects.truthy(kw.get("reverse"));
            return TreePVector.from(sort(items, reverse));
        });
        def("sum", false, (a, kw) -> {
            if (a.isEmpty()) throw PyException.typeError("sum() takes at least 1 positional argument (0 given)");
            if (a.size() > 2) throw PyException.typeError("sum() takes at most 2 arguments (" + a.size() + " given)");
            Object start = a.size() > 1 ? a.get(1) : kw.getOrDefault("start", BigInteger.ZERO);
            if (start instanceof String) throw PyException.typeError("sum() can't sum strings [use ''.join(seq) instead]");
            Object acc = start;
            for (Object x : PyObjectOps.iterate(a.getFirst())) acc = PyObjectOps.add(acc, x);
            return acc;
        });
        def("round", false, (a, kw) -> {
            Object x = a.isEmpty() ? kw.get("number") : a.getFirst();
            Object nd = a.size() > 1 ? a.get(1) : kw.getOrDefault("ndigits", PyNone.NONE);
            if (x == null) throw PyException.typeError("round() missing required argument 'number' (pos 1)");
            if (!PyObjects.isNumber(x)) throw PyException.typeError("type " + PyObjects.typeName(x) + " doesn't define __round__ method");
            if (nd == PyNone.NONE) {
                if (x instanceof Double d) return PyRound.round(new PyFloat(d)).value();
                return PyObjects.asBigInteger(x);
            }
            if (!PyObjects.isInt(nd)) {
                throw PyException.typeError("'" + PyObjects.typeName(nd) + "' object cannot be interpreted as an integer");
            }
            BigInteger n = PyObjects.asBigInteger(nd);
            // floatobject.c double_round: beyond NDIGITS_MAX (323) x itself, below NDIGITS_MIN (-308) 0.0 * x
            if (x instanceof Double d) {
                if (n.compareTo(BigInteger.valueOf(323)) > 0) return d;
                if (n.compareTo(BigInteger.valueOf(-308)) < 0) return 0.0 * d;
            } else {
                BigInteger i = PyObjects.asBigInteger(x);
                if (n.signum() >= 0) return i;
                if (n.negate().compareTo(BigInteger.valueOf(i.abs().toString().length() + 1L)) > 0) return BigInteger.ZERO;
            }
            Value r = PyRound.round(x instanceof Double d ? new PyFloat(d) : new PyInt(PyObjects.asBigInteger(x)), n.intValue());
            return PyObjects.fromValue(r);
        });
        def("int", true, (a, kw) -> {
            if (a.isEmpty()) return BigInteger.ZERO;
            return toInt(a.getFirst());
        });
        def("float", true, (a, kw) -> {
            noKw("float", kw);
            if (a.isEmpty()) return 0.0;
            return toFloat(a.getFirst());
        });
        def("str", true, (a, kw) -> a.isEmpty() ? "" : PyObjects.str(a.getFirst()));
        def("repr", false, (a, kw) -> {
            exactlyOne("repr", a);
            return PyObjects.repr(a.getFirst());
        });
        def("bool", true, (a, kw) -> !a.isEmpty() && PyObjects.truthy(a.getFirst()));
        def("list", true, (a, kw) -> {
            noKw("list", kw);
            if (a.size() > 1) throw PyException.typeError("list expected at most 1 argument, got " + a.size());
            return a.isEmpty() ? TreePVector.empty() : TreePVector.from(PyObjectOps.iterate(a.getFirst()));
        });
        def("tuple", true, (a, kw) -> {
            noKw("tuple", kw);
            if (a.size() > 1) throw PyException.typeError("tuple expected at most 1 argument, got " + a.size());
            return a.isEmpty() ? new PyTuple(List.of()) : new PyTuple(PyObjectOps.iterate(a.getFirst()));
        });
        def("set", true, (a, kw) -> {
            noKw("set", kw);
            if (a.size() > 1) throw PyException.typeError("set expected at most 1 argument, got " + a.size());
            LinkedHashSet<Object> members = new LinkedHashSet<>();
            if (!a.isEmpty()) {
                for (Object o : PyObjectOps.iterate(a.getFirst())) {
                    PyObjects.requireHashable(o);
                    members.add(o);
                }
            }
            return PySet.of(members);
        });
        def("dict", true, (a, kw) -> {
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
                            throw PyException.typeError("cannot convert dictionary update sequence element #" + i + " to a sequence");
                        }
                        if (pair.size() != 2) {
                            throw PyException.valueError("dictionary update sequence element #" + i + " has length " + pair.size() + "; 2 is required");
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
        def("print", false, (a, kw) -> PyNone.NONE);
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

    /** list.sort's order (stable); comparisons with {@code <} as CPython's sort makes them. */
    static List<Object> sort(List<Object> items, boolean reverse) {
        List<Object> out = new ArrayList<>(items);
        if (reverse) java.util.Collections.reverse(out);
        // binary insertion sort (CPython's listsort for short runs): pivot < element comparisons
        for (int i = 1; i < out.size(); i++) {
            Object pivot = out.get(i);
            int lo = 0, hi = i;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (PyObjectOps.lt(pivot, out.get(mid))) hi = mid;
                else lo = mid + 1;
            }
            out.remove(i);
            out.add(lo, pivot);
        }
        if (reverse) java.util.Collections.reverse(out);
        return out;
    }

    /** {@code int(x)}. */
    static Object toInt(Object x) {
        return switch (x) {
            case Boolean b -> b ? BigInteger.ONE : BigInteger.ZERO;
            case BigInteger i -> i;
            case Double d -> {
                if (d.isNaN()) throw PyException.valueError("cannot convert float NaN to integer");
                if (d.isInfinite()) throw new PyException("OverflowError", "cannot convert float infinity to integer");
                yield new BigDecimal(d).toBigInteger();
            }
            case String s -> {
                String t = s.strip().replace("_", "");
                if (t.matches("[+-]?[0-9]+") && !s.strip().startsWith("_") && !s.contains("__") && !s.strip().endsWith("_")) {
                    yield new BigInteger(t.startsWith("+") ? t.substring(1) : t);
                }
                throw PyException.valueError("invalid literal for int() with base 10: " + PyObjects.repr(s));
            }
            default -> throw PyException.typeError("int() argument must be a string, a bytes-like object or a real number, not '"
                    + PyObjects.typeName(x) + "'");
        };
    }

    /** {@code float(x)}. */
    static Object toFloat(Object x) {
        return switch (x) {
            case Boolean b -> b ? 1.0 : 0.0;
            case BigInteger i -> PyObjectOps.toDouble(i);
            case Double d -> d;
            case String s -> {
                String t = s.strip();
                String lower = t.toLowerCase();
                String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
                double sign = lower.startsWith("-") ? -1.0 : 1.0;
                if (body.equals("inf") || body.equals("infinity")) yield sign * Double.POSITIVE_INFINITY;
                if (body.equals("nan")) yield Double.NaN;
                if (t.matches("[+-]?(\\d(_?\\d)*)?(\\.(\\d(_?\\d)*)?)?([eE][+-]?\\d(_?\\d)*)?") && t.matches(".*\\d.*")
                        && !t.matches("[+-]?\\.?[eE].*")) {
                    yield Double.parseDouble(t.replace("_", ""));
                }
                throw PyException.valueError("could not convert string to float: " + PyObjects.repr(s));
            }
            default -> throw PyException.typeError("float() argument must be a string or a real number, not '"
                    + PyObjects.typeName(x) + "'");
        };
    }
}
