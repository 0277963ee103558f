package brokkr.eval;

import brokkr.conversation.Usage;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;

/**
 * A live episode held at its {@link #at()}-th cut ({@link Branches#checkpoint}; counted in the benchmark's
 * {@link Branching#cutUnit()}: tau2's customer messages, the wiki's tool calls): the cell it
 * was run as, the setup's evidence and the held state. Nothing was graded; branches continue it, each
 * an ordinary attempt. A checkpoint is a value: branching never changes it.
 *
 * @param id content address over the environment, the candidate, the repetition, the cut and the held log
 * @param calls the model calls made up to the checkpoint (every branch's evidence repeats them, role-prefixed
 *              {@value #CALL_ROLE_PREFIX}, so a stored branch is traceable to the requests that led to it)
 * @param usage tokens of those calls by role
 */
public record Checkpoint(
        String id,
        Evaluation.Cell cell,
        int at,
        PyDict setup,
        Branching.Held held,
        List<Evidence.RecordedCall> calls,
        Map<String, Usage> usage) {
    /** How a branch's evidence names the roles of the checkpoint's own calls ({@code checkpoint:agent}, {@code checkpoint:user}). */
    public static final String CALL_ROLE_PREFIX = "checkpoint:";

    public Checkpoint {
        calls = List.copyOf(calls);
        usage = Map.copyOf(usage);
    }

    public EnvironmentDef env() {
        return cell.env();
    }

    public AgentDef agent() {
        return cell.agent();
    }

    public String taskId() {
        return cell.env().taskId();
    }

    /** The world every branch starts from. */
    public Value world() {
        return held.world();
    }

    /** The log up to and including the held message. */
    public Value transcript() {
        return held.transcript();
    }

    /** What {@link #at()} counts: the benchmark's {@link Branching#cutUnit()}. */
    public String cutUnit() {
        return Branches.branching(cell.provider()).cutUnit();
    }

    /**
     * What a branch's attempt carries in its setup evidence (and its environment as option {@value Branches#BRANCH}):
     * {@code {checkpoint, at}}, with {@code unit} when the cut is not a customer message (the only unit before cuts
     * had units, so the branches of tau2 keep their content ids).
     */
    public PyDict branchEvidence() {
        PyDict d = PyDict.of("checkpoint", id, "at", at);
        String unit = cutUnit();
        return unit.equals(Branching.CUSTOMER_MESSAGE) ? d : d.with("unit", Value.str(unit));
    }

    static String idOf(Evaluation.Cell cell, int at, Value transcript) {
        return ContentHash.of(PyDict.of(
                "environment",
                cell.env().id(),
                "agent",
                cell.agent().id(),
                "repetition",
                cell.repetition(),
                "at",
                at,
                "transcript",
                transcript));
    }
}
