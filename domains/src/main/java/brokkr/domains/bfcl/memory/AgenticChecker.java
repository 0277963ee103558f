package brokkr.domains.bfcl.memory;

import brokkr.python.PyStrings;
import java.util.ArrayList;
import java.util.List;

/**
 * gorilla {@code eval_checker/agentic_eval/agentic_checker.py}: a memory (or web-search) answer is right when one of
 * the possible answers, standardized, occurs in the standardized last non-call message between word boundaries
 * ({@code re.search(rf"\b{re.escape(answer)}\b", response)}).
 */
public final class AgenticChecker {
    private AgenticChecker() {}

    /** The verdict: {@code valid}, and when not, upstream's error message and type. */
    public record Verdict(boolean valid, String errorMessage, String errorType) {
        static final Verdict VALID = new Verdict(true, null, null);
    }

    /** {@code agentic_checker(model_response, possible_answer_list)}. */
    public static Verdict check(String modelResponse, List<String> possibleAnswers) {
        List<String> standardized = new ArrayList<>(possibleAnswers.size());
        for (String a : possibleAnswers) standardized.add(standardize(a));
        String response = standardize(modelResponse);
        for (String a : standardized) if (containsWord(response, a)) return Verdict.VALID;
        return new Verdict(
                false, "None of the expected answers were found in the model response.", "agentic:answer_not_found");
    }

    /**
     * {@code standardize_string}: {@code re.sub(r"[\,\.\/\-\_\*\^\(\)]", "", s).lower().replace("'", '"')}.
     */
    public static String standardize(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (",./-_*^()".indexOf(c) < 0) sb.append(c);
        }
        return PyStrings.lower(sb.toString()).replace('\'', '"');
    }

    /**
     * {@code re.search(rf"\b{re.escape(needle)}\b", haystack) is not None}: the escaped needle is literal, so a match
     * is an occurrence at {@code i} with a word boundary at {@code i} and at its end (for an empty needle, any
     * boundary of the haystack).
     */
    static boolean containsWord(String haystack, String needle) {
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            if (boundary(haystack, i) && boundary(haystack, i + needle.length())) return true;
            if (i >= haystack.length()) break;
        }
        return false;
    }

    /** sre's {@code \b} on a str pattern: exactly one side of {@code i} is a word character. */
    private static boolean boundary(String s, int i) {
        boolean before = i > 0 && isWord(s.codePointBefore(i));
        boolean after = i < s.length() && isWord(s.codePointAt(i));
        return before != after;
    }

    /**
     * sre's {@code SRE_UNI_IS_WORD}: {@code ch.isalnum() or ch == "_"}, where {@code isalnum} is a letter (category L*)
     * or a character with a numeric value (Numeric_Type Decimal, Digit or Numeric: Java's
     * {@code getNumericValue} is -1 only for characters without one, letters aside).
     */
    static boolean isWord(int cp) {
        return cp == '_' || Character.isLetter(cp) || Character.getNumericValue(cp) != -1;
    }
}
