package brokkr.conversation;

import java.util.List;

/**
 * What one cell's candidate may spend before its episode is stopped (an experiment's {@code budget.per_cell}):
 * the evaluation's recorder adds every call of the {@code agent} role as it is recorded, and a protocol
 * that runs a loop asks {@link #reached} after each of the candidate's steps and ends the episode with a
 * termination reason of its own. Operational like a cell's timeout: no part of a cell's identity. Only the
 * candidate's own calls count: the user simulator's and the judge's spend is the evaluation's.
 */
public interface SpendLimit {
    /** No limit: never reached. */
    SpendLimit NONE = new SpendLimit() {
        @Override
        public void add(List<ModelCall> calls, Usage usage) {}

        @Override
        public boolean reached() {
            return false;
        }

        @Override
        public String describe() {
            return "no cell budget";
        }
    };

    /** One recorded step of the candidate: its calls (a retried call has several) and their tokens. */
    void add(List<ModelCall> calls, Usage usage);

    /** Whether the candidate's spend reached the limit (tokens or priced dollars). */
    boolean reached();

    /** What was spent against which limit, in one line ({@code 1234 of 1000 tokens}). */
    String describe();
}
