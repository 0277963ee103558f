package brokkr.domains.bfcl;

import brokkr.value.PyList;
import brokkr.value.Value;

/**
 * One task: its question (upstream's {@code question}, a list of turns of messages), the function
 * docs as the dataset gives them (what the checker reads), and the possible answers (null for the
 * relevance categories).
 */
public record BfclTask(String id, BfclCategory category, Value question, PyList functions, PyObj.Seq possibleAnswer) {}
