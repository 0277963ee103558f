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

    /** A call argument: positional ({@code name == null, star == 0}), {@code *x} (star 1), {@code k=x}, {@code **x} (star 2). */
    record Arg(String name, PyExpr value, int star) {}
}
