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
                // CPython 3.13 (ceval.c initialize_locals) offers a suggestion among the keyword-capable
                // parameter names (co_varnames[posonly:total], so `self` included).
                List<String> candidates = new ArrayList<>(bound);
                for (Param p : params) candidates.add(p.name());
                String suggestion = suggest(candidates, k);
                throw PyException.typeError(qualname + "() got an unexpected keyword argument '" + k + "'"
                        + (suggestion == null ? "" : ". Did you mean '" + suggestion + "'?"));
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

    private static final int MOVE_COST = 2, CASE_COST = 1, MAX_STRING_SIZE = 40, MAX_CANDIDATE_ITEMS = 750;

    /** CPython {@code _Py_CalculateSuggestions} (Python/suggestions.c): closest name by weighted Levenshtein. */
    static String suggest(List<String> dir, String name) {
        if (dir.size() >= MAX_CANDIDATE_ITEMS) return null;
        byte[] n = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long bestDistance = Long.MAX_VALUE;
        String best = null;
        for (String item : dir) {
            if (item.equals(name)) continue;
            byte[] it = item.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            long maxDistance = (long) (n.length + it.length + 3) * MOVE_COST / 6;
            maxDistance = Math.min(maxDistance, bestDistance - 1);
            long d = levenshtein(n, it, maxDistance);
            if (d > maxDistance) continue;
            if (best == null || d < bestDistance) { best = item; bestDistance = d; }
        }
        return best;
    }

    private static int substitutionCost(byte a, byte b) {
        if ((a & 31) != (b & 31)) return MOVE_COST;
        if (a == b) return 0;
        int x = a, y = b;
        if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
        if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
        return x == y ? CASE_COST : MOVE_COST;
    }

    private static long levenshtein(byte[] a0, byte[] b0, long maxCost) {
        int aStart = 0, aEnd = a0.length, bStart = 0, bEnd = b0.length;
        while (aStart < aEnd && bStart < bEnd && a0[aStart] == b0[bStart]) { aStart++; bStart++; }
        while (aStart < aEnd && bStart < bEnd && a0[aEnd - 1] == b0[bEnd - 1]) { aEnd--; bEnd--; }
        int aSize = aEnd - aStart, bSize = bEnd - bStart;
        if (aSize == 0 || bSize == 0) return (long) (aSize + bSize) * MOVE_COST;
        if (aSize > MAX_STRING_SIZE || bSize > MAX_STRING_SIZE) return maxCost + 1;
        byte[] a = java.util.Arrays.copyOfRange(a0, aStart, aEnd), b = java.util.Arrays.copyOfRange(b0, bStart, bEnd);
        if (b.length < a.length) { byte[] t = a; a = b; b = t; }
        if ((long) (b.length - a.length) * MOVE_COST > maxCost) return maxCost + 1;
        long[] buffer = new long[a.length];
        long tmp = MOVE_COST;
        for (int i = 0; i < a.length; i++) { buffer[i] = tmp; tmp += MOVE_COST; }
        long result = 0;
        for (int bi = 0; bi < b.length; bi++) {
            byte code = b[bi];
            long distance = result = (long) bi * MOVE_COST;
            long minimum = Long.MAX_VALUE;
            for (int i = 0; i < a.length; i++) {
                long substitute = distance + substitutionCost(code, a[i]);
                distance = buffer[i];
                long insertDelete = Math.min(result, distance) + MOVE_COST;
                result = Math.min(insertDelete, substitute);
                buffer[i] = result;
                if (result < minimum) minimum = result;
            }
            if (minimum > maxCost) return maxCost + 1;
        }
        return result;
    }
}
