package brokkr.domains.bfcl;

import brokkr.value.PyList;
import brokkr.value.Value;

/**
 * One task: its question (upstream's {@code question}, a list of turns of messages), the function
 * docs as the dataset gives them (what the checker reads), and the possible answers (null for the
 * relevance categories); {@code checkerDocs} is the docs indexed for the checker.
 */
public record BfclTask(
        String id,
        BfclCategory category,
        Value question,
        PyList functions,
        PyObj.Seq possibleAnswer,
        FunctionDoc.Docs checkerDocs) {
    public BfclTask(String id, BfclCategory category, Value question, PyList functions, PyObj.Seq possibleAnswer) {
        this(id, category, question, functions, possibleAnswer, FunctionDoc.of(functions));
    }

    /** Tasks are identified by id (the derived docs and parsed values compare by value anyway). */
    @Override
    public boolean equals(Object o) {
        return o instanceof BfclTask t && t.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }
}
