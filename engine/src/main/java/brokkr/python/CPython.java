package brokkr.python;

/**
 * The CPython release whose behaviour a rule reproduces, where releases differ: a profile passed to
 * the rules that depend on it, so no domain hides a version. BFCL's upstream runs CPython 3.11
 * (its corpora were recorded with 3.11.7), tau2-bench's 3.13 (its oracle corpora).
 *
 * <p>The differences between the two that brokkr reproduces, each read through this profile:
 * <ul>
 *   <li>the Unicode database ({@code unicodedata.unidata_version} 14.0.0 in 3.11, 15.1.0 in 3.13):
 *       {@code str.isprintable}, hence which characters {@code repr(str)} escapes
 *       ({@link PyRepr#reprStr(String, StringBuilder, CPython)}, {@link PyObjects#repr(Object, CPython)})
 *       and whether the tokenizer reports "invalid character" or "invalid non-printable character"
 *       ({@code brokkr.python.source.PyParser}); {@link #isPrintable}.</li>
 *   <li>slice objects are hashable since 3.12 (gh-101264): {@code d[1:2]} on a dict is 3.11's
 *       {@code TypeError: unhashable type: 'slice'} and 3.13's {@code KeyError: slice(1, 2, None)}
 *       ({@code brokkr.python.source.PyEval}); {@link #slicesHashable}.</li>
 *   <li>an unexpected keyword argument: 3.13 appends {@code ". Did you mean 'x'?"} (gh-107944)
 *       ({@link PyArgumentBinding}, for BFCL's backend methods and tau2's tools alike); {@link #suggestsKeywords}.</li>
 * </ul>
 *
 * <p>Known differences that are <em>not</em> profile values, because the rule is reached under one
 * release only, or only one release's behaviour is transcribed: json.loads trailing commas (3.13's "Illegal trailing comma", gh-113149), the
 * {@code json.dumps(allow_nan=False)} text and json.loads' recursion depth ({@link PyJsonLoads},
 * {@link PyJson}: tau2, 3.13); list.sort's count_run (3.13 also takes equal items into a descending
 * run: which pairs are compared, so which TypeError a mixed list raises; {@link PyBuiltins#listSort}
 * follows 3.11 for both object models, 3.13's is not transcribed; a consistent order sorts alike); hashing and set order ({@link PyHash}, {@link PySetOrder}:
 * BFCL, 3.11; 3.12 made {@code hash(None)} a constant, which would order sets holding None); and the
 * syntax error texts of {@code brokkr.python.source.PyParser}, transcribed from 3.11's pegen (3.12
 * reworked f-strings and some invalid_* rules). Where one of them becomes reachable under the other
 * release, it becomes a value here.
 */
public enum CPython {
    /** CPython 3.11 (BFCL's upstream): Unicode 14.0.0. */
    V3_11,
    /** CPython 3.13 (tau2-bench's upstream): Unicode 15.1.0. */
    V3_13;

    /**
     * {@code Py_UNICODE_ISPRINTABLE}: false for the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (except
     * U+0020), per this release's Unicode database ({@link UnicodePrintable}, generated from ICU's 15.1
     * data: 3.11's 14.0 differs exactly in the code points 15.0 and 15.1 assigned, unassigned before). The
     * JDK's {@link Character#getType} follows the JDK's own, newer, Unicode version.
     */
    public boolean isPrintable(int cp) {
        if (cp < 0x7f) return cp >= 0x20;
        if (!inRanges(UnicodePrintable.START, UnicodePrintable.END, cp)) return false;
        return this != V3_11 || !inRanges(UnicodePrintable.SINCE_15_START, UnicodePrintable.SINCE_15_END, cp);
    }

    /** Whether an unexpected keyword argument's TypeError suggests a close parameter name (3.13+, gh-107944). */
    public boolean suggestsKeywords() {
        return this != V3_11;
    }

    /** Whether {@code hash(slice(...))} succeeds (3.12+, gh-101264), so a slice can be looked up as a dict key. */
    public boolean slicesHashable() {
        return this != V3_11;
    }

    /** Whether {@code start[i] <= cp < end[i]} for some i (sorted, disjoint ranges). */
    private static boolean inRanges(int[] start, int[] end, int cp) {
        int lo = 0, hi = start.length - 1;
        if (hi < 0 || cp < start[0]) return false;
        // the last range whose start is <= cp
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (start[mid] <= cp) lo = mid;
            else hi = mid - 1;
        }
        return cp < end[lo];
    }
}
