package brokkr.python.source;

import java.util.List;

/**
 * The abstract syntax of a Python expression as {@code eval(s)} accepts it (the subset a call string
 * can use: literals, names, attributes, calls with every argument form, subscripts and slices,
 * displays, unary/binary/boolean operators and comparisons, conditional expressions). Built by
 * {@link PyParser}, evaluated by {@link PyEval}.
 */
public sealed interface PyExpr {
    record Const(Object value) implements PyExpr {}

    record Name(String id) implements PyExpr {}

    record Attr(PyExpr obj, String name) implements PyExpr {}

    record Call(PyExpr fn, List<Arg> args) implements PyExpr {}

    record Subscript(PyExpr obj, PyExpr index) implements PyExpr {}

    record Slice(PyExpr lower, PyExpr upper, PyExpr step) implements PyExpr {}

    record Tuple(List<PyExpr> items) implements PyExpr {}

    record ListDisplay(List<PyExpr> items) implements PyExpr {}

    record SetDisplay(List<PyExpr> items) implements PyExpr {}
    /** {@code key == null}: a {@code **value} entry. */
    record DictDisplay(List<PyExpr> keys, List<PyExpr> values) implements PyExpr {}
    /** {@code *value} inside a display or call. */
    record Starred(PyExpr value) implements PyExpr {}

    record Unary(String op, PyExpr operand) implements PyExpr {}

    record Binary(String op, PyExpr left, PyExpr right) implements PyExpr {}

    record BoolOp(String op, List<PyExpr> values) implements PyExpr {}

    record Compare(PyExpr left, List<String> ops, List<PyExpr> rights) implements PyExpr {}

    record IfExp(PyExpr test, PyExpr body, PyExpr orElse) implements PyExpr {}

    /** {@code name := value} (a positional call argument here). */
    record NamedExpr(String name, PyExpr value) implements PyExpr {}

    /** A call argument: positional ({@code name == null, star == 0}), {@code *x} (star 1), {@code k=x}, {@code **x} (star 2). */
    record Arg(String name, PyExpr value, int star) {}

    /** The identifiers of {@code e} (names, attribute names, keyword names): what CPython's parser interns. */
    static java.util.Set<String> identifiers(PyExpr e) {
        java.util.Set<String> out = new java.util.HashSet<>();
        collectIdentifiers(e, out);
        return out;
    }

    private static void collectIdentifiers(PyExpr e, java.util.Set<String> out) {
        if (e == null) return;
        switch (e) {
            case Const c -> {}
            case Name n -> out.add(n.id());
            case Attr a -> {
                out.add(a.name());
                collectIdentifiers(a.obj(), out);
            }
            case Call c -> {
                collectIdentifiers(c.fn(), out);
                for (Arg a : c.args()) {
                    if (a.name() != null) out.add(a.name());
                    collectIdentifiers(a.value(), out);
                }
            }
            case Subscript s -> {
                collectIdentifiers(s.obj(), out);
                collectIdentifiers(s.index(), out);
            }
            case Slice s -> {
                collectIdentifiers(s.lower(), out);
                collectIdentifiers(s.upper(), out);
                collectIdentifiers(s.step(), out);
            }
            case Tuple t -> t.items().forEach(x -> collectIdentifiers(x, out));
            case ListDisplay l -> l.items().forEach(x -> collectIdentifiers(x, out));
            case SetDisplay l -> l.items().forEach(x -> collectIdentifiers(x, out));
            case DictDisplay d -> {
                d.keys().forEach(x -> collectIdentifiers(x, out));
                d.values().forEach(x -> collectIdentifiers(x, out));
            }
            case Starred s -> collectIdentifiers(s.value(), out);
            case Unary u -> collectIdentifiers(u.operand(), out);
            case Binary b -> {
                collectIdentifiers(b.left(), out);
                collectIdentifiers(b.right(), out);
            }
            case BoolOp b -> b.values().forEach(x -> collectIdentifiers(x, out));
            case Compare c -> {
                collectIdentifiers(c.left(), out);
                c.rights().forEach(x -> collectIdentifiers(x, out));
            }
            case NamedExpr n -> {
                out.add(n.name());
                collectIdentifiers(n.value(), out);
            }
            case IfExp i -> {
                collectIdentifiers(i.test(), out);
                collectIdentifiers(i.body(), out);
                collectIdentifiers(i.orElse(), out);
            }
        }
    }
}
