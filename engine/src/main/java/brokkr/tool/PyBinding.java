package brokkr.tool;

import brokkr.python.PyException;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPython's binding of keyword arguments to a function's positional-or-keyword parameters, with its
 * exact {@code TypeError} texts (CPython 3.13 wording): unexpected keywords are reported first, in
 * the order the keywords were given, then missing required arguments.
 */
public final class PyBinding {
    private PyBinding() {}

    /**
     * @param qualname  the function's {@code __qualname__}, e.g. {@code RetailTools.get_order_details}
     * @param bound     names of parameters already bound positionally (e.g. {@code self}); a keyword
     *                  naming one of them is "multiple values"
     * @param params    the remaining parameters
     */
    public static Args bind(String qualname, List<String> bound, List<Param> params, PyDict kwargs) {
        Map<String, Value> values = new LinkedHashMap<>();
        for (Map.Entry<String, Value> e : kwargs.entries()) {
            String k = e.getKey();
            if (bound.contains(k)) {
                throw PyException.typeError(qualname + "() got multiple values for argument '" + k + "'");
            }
            boolean known = false;
            for (Param p : params) if (p.name().equals(k)) { known = true; break; }
            if (!known) {
                throw PyException.typeError(qualname + "() got an unexpected keyword argument '" + k + "'");
            }
            values.put(k, e.getValue());
        }
        List<String> missing = new ArrayList<>();
        for (Param p : params) if (p.isRequired() && !values.containsKey(p.name())) missing.add(p.name());
        if (!missing.isEmpty()) {
            throw PyException.typeError(qualname + "() missing " + missing.size() + " required positional argument"
                    + (missing.size() == 1 ? "" : "s") + ": " + joinNames(missing));
        }
        Map<String, Value> ordered = new LinkedHashMap<>();
        for (Param p : params) ordered.put(p.name(), values.containsKey(p.name()) ? values.get(p.name()) : p.defaultValue());
        return new Args(ordered);
    }

    /** {@code 'a'}, {@code 'a' and 'b'}, {@code 'a', 'b', and 'c'} (CPython's {@code format_missing}). */
    static String joinNames(List<String> names) {
        List<String> q = names.stream().map(n -> "'" + n + "'").toList();
        if (q.size() == 1) return q.get(0);
        if (q.size() == 2) return q.get(0) + " and " + q.get(1);
        return String.join(", ", q.subList(0, q.size() - 1)) + ", and " + q.get(q.size() - 1);
    }
}
