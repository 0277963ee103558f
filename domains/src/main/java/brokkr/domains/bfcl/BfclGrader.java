package brokkr.domains.bfcl;

import brokkr.domains.bfcl.PyObj.Dict;
import brokkr.domains.bfcl.PyObj.Seq;
import java.util.List;

/**
 * The per-answer verdict upstream's runner reports ({@code bfcl_eval/eval_checker/eval_runner.py}
 * {@code _evaluate_single_ast_entry} and {@code _evaluate_single_relevance_entry}), given the decoded
 * answer (what upstream's {@code decode_ast} returns; Brokkr's candidates produce it directly).
 */
public final class BfclGrader {
    private BfclGrader() {}

    /** A verdict: {@code errorType} and {@code errors} are null iff valid; {@code checker} is the raw checker result (AST categories that passed the format check). */
    public record Verdict(boolean valid, String errorType, List<PyObj> errors, AstChecker.Result checker) {}

    static final String WRONG_FORMAT =
            "Did not output in the specified format. Note: the model_result is wrapped in a string to ensure json serializability.";

    public static Verdict grade(BfclTask task, PyObj decoded, boolean underscoreToDot) {
        if (task.category().relevance()) return relevance(task.category(), decoded);
        return ast(
                task.checkerDocs(),
                task.possibleAnswer(),
                task.category().id(),
                task.category().language(),
                decoded,
                underscoreToDot);
    }

    /** _evaluate_single_ast_entry after decoding: the call-format check, then ast_checker. */
    private static Verdict ast(
            FunctionDoc.Docs docs,
            Seq possibleAnswer,
            String category,
            AstChecker.Language language,
            PyObj decoded,
            boolean underscoreToDot) {
        if (!isFunctionCallingFormat(decoded))
            return new Verdict(
                    false, "ast_decoder:decoder_wrong_output_format", List.of(PyObj.str(WRONG_FORMAT)), null);
        AstChecker.Result r =
                AstChecker.check(docs, (Seq) decoded, possibleAnswer, category, underscoreToDot, language);
        return r.valid() ? new Verdict(true, null, null, r) : new Verdict(false, r.errorType(), r.errors(), r);
    }

    /**
     * eval_runner.py _evaluate_single_relevance_entry with an identity decoder: a call is present iff
     * the answer is not "empty" (utils.py is_empty_output). The relevance message interpolates the
     * decode error, which is None when decoding succeeded.
     */
    static Verdict relevance(BfclCategory category, PyObj decoded) {
        boolean containsCall = !isEmptyOutput(decoded);
        if (category.id().contains("irrelevance")) {
            return containsCall
                    ? new Verdict(
                            false,
                            "irrelevance_error:decoder_success",
                            List.of(PyObj.str("Valid syntax. Successfully decode AST when it should not.")),
                            null)
                    : new Verdict(true, null, null, null);
        }
        return containsCall
                ? new Verdict(true, null, null, null)
                : new Verdict(
                        false,
                        "relevance_error:decoder_failed",
                        List.of(PyObj.str("Invalid syntax. Failed to decode AST when it should have. None")),
                        null);
    }

    /** utils.py is_function_calling_format_output: a list of one-key dicts whose value is a dict ([] included). */
    static boolean isFunctionCallingFormat(PyObj decoded) {
        if (!PyObj.isList(decoded)) return false;
        for (PyObj item : ((Seq) decoded).items()) {
            if (!(item instanceof Dict d) || d.size() != 1) return false;
            if (!(d.valueAt(0) instanceof Dict)) return false;
        }
        return true;
    }

    /** utils.py is_empty_output: not in call format, [], or [{}]. */
    static boolean isEmptyOutput(PyObj decoded) {
        if (!isFunctionCallingFormat(decoded)) return true;
        Seq s = (Seq) decoded;
        return s.size() == 0 || (s.size() == 1 && ((Dict) s.get(0)).size() == 0);
    }
}
