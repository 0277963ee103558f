package brokkr.python;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * CPython's binding of a call's arguments to a function's positional-or-keyword parameters
 * (Python/ceval.c {@code initialize_locals}), with its exact {@code TypeError} texts, in its order:
 * each keyword in the order given (unknown: "got an unexpected keyword argument", already bound:
 * "got multiple values for argument"), then too many positional arguments, then the missing required
 * ones. Counts include the parameters bound before the call ({@code self}), as CPython's do.
 *
 * <p>Where releases differ ({@link CPython}): 3.13 appends {@code ". Did you mean 'x'?"} to an unexpected
 * keyword when one of the keyword-capable parameter names is close ({@link #suggest}; gh-107944); 3.11 does not.
 */
public final class PyArgumentBinding {
    private PyArgumentBinding() {}

    /**
     * The value of each of {@code params} (Java null where a parameter received nothing: the caller fills
     * in its default), or the {@code TypeError} CPython raises.
     *
     * @param qualname  the function's {@code __qualname__}, e.g. {@code RetailTools.get_order_details}
     * @param bound     names of the parameters bound before the call (e.g. {@code self}), ahead of {@code params}
     * @param params    the remaining parameters' names
     * @param required  whether the parameter at an index of {@code params} has no default
     * @param args      the positional arguments (after the bound ones)
     * @param kwargs    the keyword arguments, in call order
     */
    public static <V> List<V> bind(
            String qualname,
            List<String> bound,
            List<String> params,
            IntPredicate required,
            List<V> args,
            Map<String, V> kwargs,
            CPython python) {
        int n = params.size();
        List<V> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(i < args.size() ? args.get(i) : null);
        for (Map.Entry<String, V> e : kwargs.entrySet()) {
            String k = e.getKey();
            if (bound.contains(k))
                throw PyException.typeError(qualname + "() got multiple values for argument '" + k + "'");
            int idx = params.indexOf(k);
            if (idx < 0) {
                String suggestion = null;
                if (python.suggestsKeywords()) {
                    // the keyword-capable parameter names, co_varnames[posonly:total] (so `self` included)
                    List<String> candidates = new ArrayList<>(bound);
                    candidates.addAll(params);
                    suggestion = suggest(candidates, k);
                }
                throw PyException.typeError(qualname + "() got an unexpected keyword argument '" + k + "'"
                        + (suggestion == null ? "" : ". Did you mean '" + suggestion + "'?"));
            }
            if (out.get(idx) != null)
                throw PyException.typeError(qualname + "() got multiple values for argument '" + k + "'");
            out.set(idx, e.getValue());
        }
        if (args.size() > n) {
            // too_many_positional
            int atLeast = bound.size();
            for (int i = 0; i < n; i++) if (required.test(i)) atLeast++;
            int total = n + bound.size();
            String takes = atLeast == total
                    ? total + " positional argument" + (total == 1 ? "" : "s")
                    : "from " + atLeast + " to " + total + " positional arguments";
            int given = args.size() + bound.size();
            throw PyException.typeError(
                    qualname + "() takes " + takes + " but " + given + (given == 1 ? " was" : " were") + " given");
        }
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < n; i++) if (out.get(i) == null && required.test(i)) missing.add(params.get(i));
        if (!missing.isEmpty()) {
            throw PyException.typeError(qualname + "() missing " + missing.size() + " required positional argument"
                    + (missing.size() == 1 ? "" : "s") + ": " + joinNames(missing));
        }
        return out;
    }

    /** {@code 'a'}, {@code 'a' and 'b'}, {@code 'a', 'b', and 'c'} (ceval.c {@code format_missing}). */
    static String joinNames(List<String> names) {
        List<String> q = names.stream().map(n -> "'" + n + "'").toList();
        if (q.size() == 1) return q.get(0);
        if (q.size() == 2) return q.get(0) + " and " + q.get(1);
        return String.join(", ", q.subList(0, q.size() - 1)) + ", and " + q.get(q.size() - 1);
    }

    private static final int MOVE_COST = 2, CASE_COST = 1, MAX_STRING_SIZE = 40, MAX_CANDIDATE_ITEMS = 750;

    /** CPython {@code _Py_CalculateSuggestions} (Python/suggestions.c): closest name by weighted Levenshtein. */
    public static String suggest(List<String> dir, String name) {
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
            if (best == null || d < bestDistance) {
                best = item;
                bestDistance = d;
            }
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
        while (aStart < aEnd && bStart < bEnd && a0[aStart] == b0[bStart]) {
            aStart++;
            bStart++;
        }
        while (aStart < aEnd && bStart < bEnd && a0[aEnd - 1] == b0[bEnd - 1]) {
            aEnd--;
            bEnd--;
        }
        int aSize = aEnd - aStart, bSize = bEnd - bStart;
        if (aSize == 0 || bSize == 0) return (long) (aSize + bSize) * MOVE_COST;
        if (aSize > MAX_STRING_SIZE || bSize > MAX_STRING_SIZE) return maxCost + 1;
        byte[] a = java.util.Arrays.copyOfRange(a0, aStart, aEnd), b = java.util.Arrays.copyOfRange(b0, bStart, bEnd);
        if (b.length < a.length) {
            byte[] t = a;
            a = b;
            b = t;
        }
        if ((long) (b.length - a.length) * MOVE_COST > maxCost) return maxCost + 1;
        long[] buffer = new long[a.length];
        long tmp = MOVE_COST;
        for (int i = 0; i < a.length; i++) {
            buffer[i] = tmp;
            tmp += MOVE_COST;
        }
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
