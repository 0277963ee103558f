package brokkr.domains.bfcl;

import brokkr.python.PyObjects;
import brokkr.python.source.PyExpr;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code ast.unparse} of an expression, as {@code resolve_ast_by_type} (model_handler/utils.py) uses it
 * for a nested call without keyword arguments ({@code f(1, 'a')} stays the string {@code "f(1, 'a')"}) and a
 * subscript: Lib/ast.py's _Unparser precedences (parentheses only where the operand binds looser), constants by
 * {@code repr}, {@code (x,)} tuples, calls and displays with {@code ", "}. Argued from Lib/ast.py, not proven.
 */
final class PyUnparse {
    private PyUnparse() {}

    private static final Map<String, Integer> BIN = Map.ofEntries(
            Map.entry("|", 8),
            Map.entry("^", 9),
            Map.entry("&", 10),
            Map.entry("<<", 11),
            Map.entry(">>", 11),
            Map.entry("+", 12),
            Map.entry("-", 12),
            Map.entry("*", 13),
            Map.entry("/", 13),
            Map.entry("//", 13),
            Map.entry("%", 13),
            Map.entry("@", 13),
            Map.entry("**", 15));

    static String unparse(PyExpr e) {
        StringBuilder sb = new StringBuilder();
        write(e, sb, 0);
        return sb.toString();
    }

    /** A subscript's index: a tuple without parentheses ({@code a[1, 2]}), slices as written. */
    static String unparseSlice(PyExpr e) {
        if (e instanceof PyExpr.Tuple t && !t.items().isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < t.items().size(); i++) {
                if (i > 0) sb.append(", ");
                write(t.items().get(i), sb, 3);
            }
            if (t.items().size() == 1) sb.append(',');
            return sb.toString();
        }
        return unparse(e);
    }

    private static int prec(PyExpr e) {
        return switch (e) {
            case PyExpr.Tuple t -> 0;
            case PyExpr.NamedExpr n -> 1;
            case PyExpr.IfExp i -> 3;
            case PyExpr.BoolOp b -> b.op().equals("or") ? 4 : 5;
            case PyExpr.Unary u -> u.op().equals("not") ? 6 : 14;
            case PyExpr.Compare c -> 7;
            case PyExpr.Binary b -> BIN.getOrDefault(b.op(), 12);
            default -> 17;
        };
    }

    private static void write(PyExpr e, StringBuilder sb, int need) {
        boolean paren = prec(e) < need && !(e instanceof PyExpr.Tuple);
        if (paren) sb.append('(');
        switch (e) {
            case PyExpr.Const c -> sb.append(c.value() == PyObjects.ELLIPSIS ? "..." : PyObjects.repr(c.value()));
            case PyExpr.Name n -> sb.append(n.id());
            case PyExpr.Attr a -> {
                write(a.obj(), sb, 17);
                // 1 .real needs a space
                if (a.obj() instanceof PyExpr.Const c && c.value() instanceof java.math.BigInteger) sb.append(' ');
                sb.append('.').append(a.name());
            }
            case PyExpr.Call c -> {
                write(c.fn(), sb, 17);
                sb.append('(');
                boolean first = true;
                for (PyExpr.Arg a : c.args()) {
                    if (!first) sb.append(", ");
                    first = false;
                    if (a.star() == 1) sb.append('*');
                    else if (a.star() == 2) sb.append("**");
                    else if (a.name() != null) sb.append(a.name()).append('=');
                    write(a.value(), sb, 3);
                }
                sb.append(')');
            }
            case PyExpr.Subscript s -> {
                write(s.obj(), sb, 17);
                sb.append('[').append(unparseSlice(s.index())).append(']');
            }
            case PyExpr.Slice s -> {
                if (s.lower() != null) write(s.lower(), sb, 3);
                sb.append(':');
                if (s.upper() != null) write(s.upper(), sb, 3);
                if (s.step() != null) {
                    sb.append(':');
                    write(s.step(), sb, 3);
                }
            }
            case PyExpr.Tuple t -> {
                sb.append('(');
                items(t.items(), sb);
                if (t.items().size() == 1) sb.append(',');
                sb.append(')');
            }
            case PyExpr.ListDisplay l -> {
                sb.append('[');
                items(l.items(), sb);
                sb.append(']');
            }
            case PyExpr.SetDisplay s -> {
                sb.append('{');
                items(s.items(), sb);
                sb.append('}');
            }
            case PyExpr.DictDisplay d -> {
                sb.append('{');
                for (int i = 0; i < d.keys().size(); i++) {
                    if (i > 0) sb.append(", ");
                    if (d.keys().get(i) == null) {
                        sb.append("**");
                        write(d.values().get(i), sb, 8);
                    } else {
                        write(d.keys().get(i), sb, 3);
                        sb.append(": ");
                        write(d.values().get(i), sb, 3);
                    }
                }
                sb.append('}');
            }
            case PyExpr.Starred s -> {
                sb.append('*');
                write(s.value(), sb, 8);
            }
            case PyExpr.Unary u -> {
                sb.append(u.op().equals("not") ? "not " : u.op());
                write(u.operand(), sb, prec(e));
            }
            case PyExpr.Binary b -> {
                int p = prec(e);
                boolean power = b.op().equals("**");
                write(b.left(), sb, power ? p + 1 : p);
                sb.append(' ').append(b.op()).append(' ');
                write(b.right(), sb, power ? p : p + 1);
            }
            case PyExpr.BoolOp b -> {
                int p = prec(e);
                for (int i = 0; i < b.values().size(); i++) {
                    if (i > 0) sb.append(' ').append(b.op()).append(' ');
                    write(b.values().get(i), sb, p + 1);
                }
            }
            case PyExpr.Compare c -> {
                write(c.left(), sb, 8);
                for (int i = 0; i < c.ops().size(); i++) {
                    sb.append(' ').append(c.ops().get(i)).append(' ');
                    write(c.rights().get(i), sb, 8);
                }
            }
            case PyExpr.IfExp i -> {
                write(i.body(), sb, 4);
                sb.append(" if ");
                write(i.test(), sb, 4);
                sb.append(" else ");
                write(i.orElse(), sb, 3);
            }
            case PyExpr.NamedExpr n -> {
                sb.append(n.name()).append(" := ");
                write(n.value(), sb, 2);
            }
        }
        if (paren) sb.append(')');
    }

    private static void items(List<PyExpr> items, StringBuilder sb) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) sb.append(", ");
            write(items.get(i), sb, 3);
        }
    }
}
