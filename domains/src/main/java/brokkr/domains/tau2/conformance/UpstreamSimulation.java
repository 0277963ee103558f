package brokkr.domains.tau2.conformance;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;

/**
 * One simulation as upstream records it: a {@code SimulationRun} of a results file
 * ({@code src/tau2/data_model/simulation.py}, {@code Results.simulations[]}) or a line of a graded-trajectory
 * corpus ({@code shared/conformance/tau2/README.md}, "graded-seed11.jsonl.gz"). The fields are upstream's JSON,
 * unparsed; {@link UpstreamMessages} reads the messages.
 *
 * @param label       where it came from, for messages: {@code file:line} or {@code file#simulation}
 * @param domain      upstream's domain name
 * @param trial       0-based trial, null when the record has none (graded corpora)
 * @param seed        the trial seed, null when absent
 * @param rewardInfo  the recorded {@code RewardInfo.model_dump(mode="json")}, null when the run recorded none
 * @param judgeCalls  the recorded judge exchanges ({@code {request, answer: {content, ...}}}), or null when the
 *                    file keeps none (results files): the recorded verdicts in {@code rewardInfo} stand in
 * @param raw         the whole record
 */
public record UpstreamSimulation(
        String label,
        String domain,
        String taskId,
        Integer trial,
        Long seed,
        String termination,
        PyList messages,
        PyDict rewardInfo,
        List<PyDict> judgeCalls,
        PyDict raw) {
    public UpstreamSimulation {
        judgeCalls = judgeCalls == null ? null : List.copyOf(judgeCalls);
    }

    /** {@code SimulationRun.agent_cost}, 0 when null. */
    public double agentCost() {
        return number(raw.get("agent_cost"));
    }

    /** {@code SimulationRun.user_cost}, 0 when null. */
    public double userCost() {
        return number(raw.get("user_cost"));
    }

    /** The recorded reward, 0 when the run recorded no reward info. */
    public double reward() {
        return rewardInfo == null ? 0.0 : number(rewardInfo.get("reward"));
    }

    static double number(Value v) {
        if (v == null || v.isNone()) return 0.0;
        if (v instanceof PyInt i) return i.value().doubleValue();
        return ((PyFloat) v).value();
    }

    static String str(Value v) {
        return v == null || v.isNone() ? null : ((PyStr) v).value();
    }
}
