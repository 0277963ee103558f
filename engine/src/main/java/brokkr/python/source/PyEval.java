package brokkr.python.source;

import brokkr.python.ArrayVector;
import brokkr.python.CPython;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.python.PySetOrder;
import brokkr.python.PyTuple;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.pcollections.OrderedPMap;

/**
 * Evaluates a {@link PyExpr} as CPython's {@code eval} does, left to right, names looked up in the
 * given globals and then in {@code python}'s builtins namespace ({@link PyBuiltins#lookup}); errors
 * as CPython's exceptions, a repr in their text rendered under {@code python}. The host supplies what
 * the globals hold: {@link PyObjects.Callable}s, {@link PyObjects.Attributes} and {@link Deferred} values.
 */
public final class PyEval {
    private final Function<String, Object> globals;
    private final CPython python;
    private final Predicate<String> internedElsewhere;
    /** The expression the outermost {@link #eval} was given: its identifiers are interned when it is compiled. */
    private PyExpr source;

    private java.util.Set<String> sourceIdentifiers;
    /** The frozenset constants of {@link #source}'s set displays, by members (compile.c's const cache). */
    private final Map<java.util.Set<Object>, PySetOrder.Shape> displayConstants = new java.util.HashMap<>();

    private int depth;

    /** {@code globals}: a name's value, or Java null where the globals do not define it. */
    public PyEval(Function<String, Object> globals, CPython python) {
        this(globals, python, PySetOrder::internedAtStartup);
    }

    /**
     * {@code internedElsewhere}: the strings the evaluating CPython process has interned besides the source's own
     * identifiers (what decides whether a display's frozenset constant is rebuilt, {@link PySetOrder#display}).
     */
    public PyEval(Function<String, Object> globals, CPython python, Predicate<String> internedElsewhere) {
        this.globals = globals;
        this.python = python;
        this.internedElsewhere = internedElsewhere;
    }

    /**
     * A value that stands for another one, looked up when it is used (a host's view of state that a
     * later call in the same expression may change, e.g. a method result that aliases its instance).
     */
    public interface Deferred {
        Object current();
    }

    /** {@code v}, or what it stands for. */
    public static Object now(Object v) {
        while (v instanceof Deferred d) v = d.current();
        return v;
    }

    /**
     * {@code v} with every {@link Deferred} inside containers replaced by what it stands for now. A container without
     * one is returned as it is (the same object, nothing copied): results rarely hold a deferred value, and this runs
     * on every result. Lists are walked with their iterator (a persistent vector's {@code get} is a tree descent).
     */
    public static Object deep(Object v) {
        v = now(v);
        return switch (v) {
            case java.util.List<?> l -> {
                java.util.List<Object> out = null;
                int i = 0;
                for (Object x : l) {
                    Object r = deep(x);
                    if (r != x && out == null) out = new ArrayList<>(l.subList(0, i));
                    if (out != null) out.add(r);
                    i++;
                }
                yield out == null ? v : ArrayVector.from(out);
            }
            case PyTuple t -> {
                Object r = deep(t.items());
                yield r == t.items() ? v : new PyTuple(PyObjectOps.iterate(r));
            }
            case PySet s -> {
                boolean changed = false;
                for (Object x : s.members())
                    if (deep(x) != x) {
                        changed = true;
                        break;
                    }
                if (!changed) yield v;
                LinkedHashSet<Object> out = new LinkedHashSet<>();
                for (Object x : s.members()) out.add(deep(x));
                List<Object> order = new ArrayList<>();
                for (Object x : s.iterationOrder()) order.add(deep(x));
                yield new PySet(
                        out, s.frozen(), new PySetOrder.Shape(order, s.shape().mask()));
            }
            case Map<?, ?> m -> {
                OrderedPMap<Object, Object> out = null;
                int i = 0;
                for (Map.Entry<?, ?> en : m.entrySet()) {
                    Object r = deep(en.getValue());
                    if (r != en.getValue() && out == null) out = prefix(m, i);
                    if (out != null) out = out.plus(en.getKey(), r);
                    i++;
                }
                yield out == null ? v : out;
            }
            default -> v;
        };
    }

    /** The first {@code n} entries of {@code m}, in order. */
    private static OrderedPMap<Object, Object> prefix(Map<?, ?> m, int n) {
        OrderedPMap<Object, Object> out = OrderedPMap.empty();
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (i++ == n) break;
            out = out.plus(e.getKey(), e.getValue());
        }
        return out;
    }

    /** Evaluates {@code e} for use: what a deferred value stands for. */
    private Object use(PyExpr e) {
        return now(eval(e));
    }

    public Object eval(PyExpr e) {
        if (depth == 0 && source != e) {
            source = e;
            sourceIdentifiers = null;
            displayConstants.clear();
        }
        depth++;
        try {
            return evalNode(e);
        } finally {
            depth--;
        }
    }

    /** A string the parser interned while compiling {@link #source}, or one interned before it. */
    private boolean alreadyInterned(String s) {
        if (internedElsewhere.test(s)) return true;
        if (sourceIdentifiers == null) sourceIdentifiers = PyExpr.identifiers(source);
        return sourceIdentifiers.contains(s);
    }

    private Object evalNode(PyExpr e) {
        return switch (e) {
            case PyExpr.Const c -> c.value();
            case PyExpr.Name n -> {
                Object v = globals.apply(n.id());
                if (v == null) v = PyBuiltins.lookup(n.id(), python);
                if (v == null) throw new PyException("NameError", "name '" + n.id() + "' is not defined");
                yield v;
            }
            case PyExpr.Attr a -> attribute(use(a.obj()), a.name());
            case PyExpr.Call c -> call(c);
            case PyExpr.Subscript s -> subscript(use(s.obj()), deep(eval(s.index())));
            case PyExpr.Slice s ->
                new SliceObj(
                        s.lower() == null ? PyNone.NONE : use(s.lower()),
                        s.upper() == null ? PyNone.NONE : use(s.upper()),
                        s.step() == null ? PyNone.NONE : use(s.step()));
            case PyExpr.Tuple t -> new PyTuple(items(t.items()));
            case PyExpr.ListDisplay l -> ArrayVector.from(items(l.items()));
            case PyExpr.SetDisplay s -> {
                List<Object> added = new ArrayList<>();
                for (Object o : items(s.items())) {
                    o = deep(o);
                    PyObjects.requireHashable(o);
                    added.add(o);
                }
                // Python/compile.c starunpack_helper: more than two items that are all constants after the AST
                // optimizer's folding become BUILD_SET 0; LOAD_CONST frozenset; SET_UPDATE, not BUILD_SET n
                if (s.items().size() > 2 && s.items().stream().allMatch(PyEval::foldsToConstant)) {
                    // compile.c merge_consts_recursive: an equal frozenset constant met earlier in the same
                    // compilation is reused, with the order it was built in
                    LinkedHashSet<Object> members = new LinkedHashSet<>(added);
                    PySetOrder.Shape shape = displayConstants.computeIfAbsent(
                            members, m -> PySetOrder.display(added, this::alreadyInterned));
                    yield new PySet(members, false, shape);
                }
                yield PySet.of(new LinkedHashSet<>(added));
            }
            case PyExpr.DictDisplay d -> {
                OrderedPMap<Object, Object> m = OrderedPMap.empty();
                for (int i = 0; i < d.keys().size(); i++) {
                    if (d.keys().get(i) == null) {
                        Object src = deep(eval(d.values().get(i)));
                        if (!(src instanceof Map<?, ?> map)) {
                            throw PyException.typeError("'" + PyObjects.typeName(src) + "' object is not a mapping");
                        }
                        for (Map.Entry<?, ?> en : map.entrySet()) m = put(m, en.getKey(), en.getValue());
                    } else {
                        Object k = deep(eval(d.keys().get(i)));
                        Object v = eval(d.values().get(i));
                        PyObjects.requireHashable(k);
                        m = put(m, k, v);
                    }
                }
                yield m;
            }
            case PyExpr.Starred s -> throw new PyException("SyntaxError", "can't use starred expression here");
            case PyExpr.Unary u -> {
                Object v = use(u.operand());
                yield switch (u.op()) {
                    case "-" -> PyObjectOps.neg(v);
                    case "+" -> PyObjectOps.pos(v);
                    case "~" -> PyObjectOps.invert(v);
                    case "not" -> !PyObjects.truthy(v);
                    default -> throw new IllegalStateException(u.op());
                };
            }
            case PyExpr.Binary b -> binary(b.op(), deep(eval(b.left())), deep(eval(b.right())));
            case PyExpr.BoolOp b -> {
                Object v = null;
                for (PyExpr x : b.values()) {
                    v = eval(x);
                    boolean t = PyObjects.truthy(now(v));
                    if (b.op().equals("or") ? t : !t) break;
                }
                yield v;
            }
            case PyExpr.Compare c -> {
                Object left = deep(eval(c.left()));
                for (int i = 0; i < c.ops().size(); i++) {
                    Object right = deep(eval(c.rights().get(i)));
                    if (!compare(c.ops().get(i), left, right)) yield false;
                    left = right;
                }
                yield true;
            }
            case PyExpr.IfExp i -> PyObjects.truthy(use(i.test())) ? eval(i.body()) : eval(i.orElse());
            // the binding goes to eval's throw-away locals; nothing later in a call string reads it here
            case PyExpr.NamedExpr n -> eval(n.value());
        };
    }

    /** Re-inserting an existing key keeps its first position, as CPython's dict does. */
    private static OrderedPMap<Object, Object> put(OrderedPMap<Object, Object> m, Object k, Object v) {
        return m.plus(k, v);
    }

    /**
     * Whether CPython 3.11's AST optimizer (Python/ast_opt.c) leaves {@code e} a Constant: a literal, a sign on a
     * numeric literal ({@code fold_unaryop}), a tuple of such ({@code fold_tuple}).
     */
    private static boolean foldsToConstant(PyExpr e) {
        return switch (e) {
            case PyExpr.Const c -> true;
            case PyExpr.Unary u ->
                (u.op().equals("-") || u.op().equals("+") || u.op().equals("~"))
                        && u.operand() instanceof PyExpr.Const c
                        && !(c.value() instanceof String);
            case PyExpr.Tuple t -> t.items().stream().allMatch(PyEval::foldsToConstant);
            default -> false;
        };
    }

    private List<Object> items(List<PyExpr> exprs) {
        List<Object> out = new ArrayList<>(exprs.size());
        for (PyExpr x : exprs) {
            if (x instanceof PyExpr.Starred s) {
                Object v = deep(eval(s.value()));
                try {
                    out.addAll(PyObjectOps.iterate(v));
                } catch (PyException err) {
                    throw PyException.typeError("Value after * must be an iterable, not " + PyObjects.typeName(v));
                }
            } else {
                out.add(eval(x));
            }
        }
        return out;
    }

    private Object call(PyExpr.Call c) {
        Object fn = use(c.fn());
        List<Object> args = new ArrayList<>();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        for (PyExpr.Arg a : c.args()) {
            // arguments are what the values are now (a callee sees the object, not a view of it)
            Object v = deep(eval(a.value()));
            switch (a.star()) {
                case 1 -> {
                    try {
                        args.addAll(PyObjectOps.iterate(v));
                    } catch (PyException err) {
                        throw PyException.typeError(
                                qualname(fn) + " argument after * must be an iterable, not " + PyObjects.typeName(v));
                    }
                }
                case 2 -> {
                    if (!(v instanceof Map<?, ?> m)) {
                        throw PyException.typeError(
                                qualname(fn) + " argument after ** must be a mapping, not " + PyObjects.typeName(v));
                    }
                    for (Map.Entry<?, ?> en : m.entrySet()) {
                        if (!(en.getKey() instanceof String k)) throw PyException.typeError("keywords must be strings");
                        if (kwargs.containsKey(k)) {
                            throw PyException.typeError(
                                    qualname(fn) + " got multiple values for keyword argument '" + k + "'");
                        }
                        kwargs.put(k, en.getValue());
                    }
                }
                default -> {
                    if (a.name() == null) args.add(v);
                    else kwargs.put(a.name(), v);
                }
            }
        }
        if (!(fn instanceof PyObjects.Callable callable)) {
            throw PyException.typeError("'" + PyObjects.typeName(fn) + "' object is not callable");
        }
        return callable.call(args, kwargs);
    }

    private static String qualname(Object fn) {
        return fn instanceof PyObjects.Callable c ? c.qualname() : PyObjects.typeName(fn) + " object";
    }

    private static Object attribute(Object obj, String name) {
        if (obj instanceof PyObjects.Attributes a) return a.attribute(name);
        throw PyException.attributeError("'" + PyObjects.typeName(obj) + "' object has no attribute '" + name + "'");
    }

    record SliceObj(Object start, Object stop, Object step) implements PyObjects.Custom {
        @Override
        public String pyTypeName() {
            return "slice";
        }

        @Override
        public String pyRepr() {
            return "slice(" + PyObjects.repr(start) + ", " + PyObjects.repr(stop) + ", " + PyObjects.repr(step) + ")";
        }
    }

    /** {@code obj[index]}: a slice of a sequence here, anything else {@link PyObjectOps#getItem}'s. */
    private Object subscript(Object obj, Object index) {
        if (obj instanceof PyBuiltins.Builtin b && b.isType()) {
            throw PyException.typeError("type '" + b.name() + "' is not subscriptable");
        }
        if (index instanceof SliceObj s) {
            if (obj instanceof Map<?, ?> && !python.slicesHashable())
                throw PyException.typeError("unhashable type: 'slice'");
            switch (obj) {
                case List<?> l -> {
                    return slice(l, s, false, false);
                }
                case PyTuple t -> {
                    return slice(t.items(), s, true, false);
                }
                case String str -> {
                    return slice(PyObjectOps.iterate(str), s, false, true);
                }
                default -> {}
            }
        }
        try {
            return PyObjectOps.getItem(obj, index);
        } catch (PyException e) {
            // the KeyError quotes the key under this evaluator's release
            if (e.pyType().equals("KeyError") && obj instanceof Map<?, ?>)
                throw new PyException("KeyError", PyObjects.repr(index, python));
            throw e;
        }
    }

    private static Object slice(List<?> items, SliceObj s, boolean tuple, boolean str) {
        int n = items.size();
        int step = s.step() == PyNone.NONE ? 1 : sliceIndex(s.step());
        if (step == 0) throw PyException.valueError("slice step cannot be zero");
        int start = s.start() == PyNone.NONE ? (step > 0 ? 0 : n - 1) : clamp(sliceIndex(s.start()), n, step);
        int stop = s.stop() == PyNone.NONE ? (step > 0 ? n : -1) : clamp(sliceIndex(s.stop()), n, step);
        List<Object> out = new ArrayList<>();
        for (int i = start; step > 0 ? i < stop : i > stop; i += step) out.add(items.get(i));
        if (str) {
            StringBuilder sb = new StringBuilder();
            out.forEach(o -> sb.append((String) o));
            return sb.toString();
        }
        return tuple ? new PyTuple(out) : ArrayVector.from(out);
    }

    private static int sliceIndex(Object o) {
        if (!PyObjects.isInt(o))
            throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
        BigInteger i = PyObjects.asBigInteger(o);
        return i.max(BigInteger.valueOf(Integer.MIN_VALUE / 2))
                .min(BigInteger.valueOf(Integer.MAX_VALUE / 2))
                .intValue();
    }

    private static int clamp(int i, int n, int step) {
        if (i < 0) i += n;
        if (step > 0) return Math.max(0, Math.min(i, n));
        return Math.max(-1, Math.min(i, n - 1));
    }

    private static Object binary(String op, Object a, Object b) {
        return switch (op) {
            case "+" -> PyObjectOps.add(a, b);
            case "-" -> PyObjectOps.sub(a, b);
            case "*" -> PyObjectOps.mul(a, b);
            case "/" -> PyObjectOps.truediv(a, b);
            case "//" -> PyObjectOps.floordiv(a, b);
            case "%" -> PyObjectOps.mod(a, b);
            case "**" -> PyObjectOps.pow(a, b);
            default ->
                throw PyException.typeError("unsupported operand type(s) for " + op + ": '" + PyObjects.typeName(a)
                        + "' and '" + PyObjects.typeName(b) + "'");
        };
    }

    private static boolean compare(String op, Object a, Object b) {
        return switch (op) {
            case "==" -> PyObjects.eq(a, b);
            case "!=" -> !PyObjects.eq(a, b);
            case "<" -> PyObjectOps.lt(a, b);
            case "<=" -> PyObjectOps.le(a, b);
            case ">" -> PyObjectOps.gt(a, b);
            case ">=" -> PyObjectOps.ge(a, b);
            case "in" -> PyObjectOps.in(a, b);
            case "not in" -> !PyObjectOps.in(a, b);
            case "is" -> a == b || a instanceof Boolean x && x.equals(b) || a == PyNone.NONE && b == PyNone.NONE;
            case "is not" -> !(a == b || a instanceof Boolean x && x.equals(b));
            default -> throw new IllegalStateException(op);
        };
    }
}
