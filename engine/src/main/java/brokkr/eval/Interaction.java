package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;

/**
 * A protocol's portable result: the transcript (every message and tool call, as JSON data), any other
 * output the evaluator needs (e.g. tau2's communicated facts) and why the interaction ended.
 */
public record Interaction(Value transcript, PyDict output, String termination) {
    public Interaction {
        output = output == null ? PyDict.empty() : output;
        termination = termination == null ? "" : termination;
    }
}
