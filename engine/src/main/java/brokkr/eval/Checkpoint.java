package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;

/**
 * A live episode held at its {@link #at()}-th customer message ({@link Branches#checkpoint}): the cell it
 * was run as, the setup's evidence and the held state. Nothing was graded; branches continue it, each
 * an ordinary attempt. A checkpoint is a value: branching never changes it.
 *
 * @param id content address over the environment, the candidate, the repetition, the cut and the held log
 */
public record Checkpoint(String id, Evaluation.Cell cell, int at, PyDict setup, Branching.Held held) {
    public EnvironmentDef env() { return cell.env(); }
    public AgentDef agent() { return cell.agent(); }
    public String taskId() { return cell.env().taskId(); }

    /** The world every branch starts from. */
    public Value world() { return held.world(); }

    /** The log up to and including the held message. */
    public Value transcript() { return held.transcript(); }

    /** What a branch's attempt carries in its setup evidence: {@code {checkpoint, at}}. */
    public PyDict branchEvidence() { return PyDict.of("checkpoint", id, "at", at); }

    static String idOf(Evaluation.Cell cell, int at, Value transcript) {
        return ContentHash.of(PyDict.of("environment", cell.env().id(), "agent", cell.agent().id(), "repetition", cell.repetition(),
                "at", at, "transcript", transcript));
    }
}
