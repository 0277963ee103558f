package brokkr.domains.tau2.banking;

import brokkr.python.PyBuiltins;
import brokkr.python.PyFormat;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.python.PyStrings;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;

/**
 * The Python expressions the banking tool bodies are made of, spelled once: truthiness, f-string
 * {@code str()}, {@code x in [...]}, {@code format(x, '.2f')}, {@code s.replace('_', ' ').title()},
 * {@code s.upper()} and table lookups {@code key in self.db.<table>.data}, each raising what CPython raises.
 */
final class BankPy {
    private BankPy() {}

    static final Value NONE = PyNone.NONE;

    static boolean t(Value v) {
        return PyBuiltins.truthy(v);
    }

    static String s(Value v) {
        return PyRepr.str(v);
    }

    static PyStr ps(String s) {
        return new PyStr(s);
    }

    static PyList strs(List<String> xs) {
        return BankingUserTools.strList(xs);
    }

    /** {@code v in [options]} (list membership by ==, never raises). */
    static boolean oneOf(Value v, List<String> options) {
        return PyBuiltins.in(v, strs(options));
    }

    /** {@code str(list_of_str)}, as an f-string prints a list. */
    static String listRepr(List<String> xs) {
        return PyRepr.repr(strs(xs));
    }

    /** {@code v.replace('_', ' ').title()}. */
    static String title(Value v) {
        if (!(v instanceof PyStr s)) throw PyBuiltins.attributeError(v, "replace");
        return PyStrings.title(s.value().replace("_", " "));
    }

    /** {@code v.upper()}. */
    static String upper(Value v) {
        if (!(v instanceof PyStr s)) throw PyBuiltins.attributeError(v, "upper");
        return PyStrings.upper(s.value());
    }

    /** {@code f"{v:.2f}"}. */
    static String f2(Value v) {
        return PyFormat.format(v, ".2f");
    }

    static String f2(double v) {
        return PyFormat.format(new PyFloat(v), ".2f");
    }

    /** {@code self.db.<table>.data.get(key)} / {@code key in ...}: null when absent; an unhashable key raises. */
    static PyDict row(WorldCell c, String table, Value key) {
        PyBuiltins.requireHashable(key);
        return key instanceof PyStr k ? DbQuery.record(c, table, k.value()) : null;
    }

    static Value get(PyDict d, String key) {
        return d.getOrDefault(key, NONE);
    }

    static Value get(PyDict d, String key, Value dflt) {
        return d.getOrDefault(key, dflt);
    }

    static Value get(PyDict d, String key, String dflt) {
        return d.getOrDefault(key, new PyStr(dflt));
    }

    static boolean eq(Value a, Value b) {
        return PyOps.eq(a, b);
    }

    static boolean eq(Value a, String b) {
        return PyOps.eq(a, new PyStr(b));
    }

    /** {@code json.dumps(d, indent=2)}. */
    static String j2(PyDict d) {
        return BankingTools.jsonIndent2(d);
    }

    static PyDict dict(Object... kv) {
        return PyDict.of(kv);
    }

    /** A query result that found nothing ({@code "No results found"} is never produced, but upstream tests both). */
    static boolean none(String queryResult) {
        return queryResult.contains("No results found") || queryResult.contains("No records found");
    }

    static PyInt i(long v) {
        return PyInt.of(v);
    }

    /** {@code float(str(v).replace('$', '').replace(',', ''))}, or 0.0 on ValueError / TypeError. */
    static double moneyOr0(Value v) {
        try {
            return PyBuiltins.toFloat(new PyStr(s(v).replace("$", "").replace(",", "")));
        } catch (brokkr.python.PyException e) {
            if (e.pyType().equals("ValueError") || e.pyType().equals("TypeError")) return 0.0;
            throw e;
        }
    }
}
