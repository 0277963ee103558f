package brokkr.run;

import brokkr.eval.Attempt;
import brokkr.telemetry.GenAiTrace;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

/**
 * What a cell's {@code invoke_agent} span says of it: the content ids that identify the cell in the
 * experiment store (environment and agent, as {@code ExperimentStore.CellKey} keys it), its candidate
 * label, benchmark, task and trial; and at its end the attempt's status and reward.
 */
public final class CellTrace {
    private CellTrace() {}

    public static final AttributeKey<String> ENVIRONMENT_ID = AttributeKey.stringKey("brokkr.cell.environment_id");
    public static final AttributeKey<String> AGENT_ID = AttributeKey.stringKey("brokkr.cell.agent_id");
    public static final AttributeKey<String> CANDIDATE = AttributeKey.stringKey("brokkr.candidate");
    public static final AttributeKey<String> BENCHMARK = AttributeKey.stringKey("brokkr.benchmark");
    public static final AttributeKey<String> TASK = AttributeKey.stringKey("brokkr.task.id");
    public static final AttributeKey<Long> TRIAL = AttributeKey.longKey("brokkr.trial");
    public static final AttributeKey<String> BRANCH = AttributeKey.stringKey("brokkr.branch");
    public static final AttributeKey<String> STATUS = AttributeKey.stringKey("brokkr.attempt.status");
    public static final AttributeKey<Double> REWARD = AttributeKey.doubleKey("brokkr.attempt.reward");

    static Attributes attributes(Plan.Unit u, int trial) {
        String agentId = u.cell().agent().id();
        AttributesBuilder b = Attributes.builder()
                .put(ENVIRONMENT_ID, u.cell().env().id())
                .put(AGENT_ID, agentId)
                .put(GenAiTrace.AGENT_ID, agentId)
                .put(CANDIDATE, u.candidate())
                .put(BENCHMARK, u.cell().env().benchmark())
                .put(TASK, u.cell().env().taskId())
                .put(TRIAL, (long) trial);
        String model = u.cell().agent().model();
        if (model != null) b.put(GenAiTrace.REQUEST_MODEL, model);
        if (u.branch() != null) b.put(BRANCH, u.name());
        return b.build();
    }

    static Attributes outcome(Attempt a) {
        AttributesBuilder b = Attributes.builder().put(STATUS, a.status().wire());
        if (a.completed()) b.put(REWARD, a.reward());
        // An infrastructure failure is the run's error, not the candidate's: the span says so.
        else b.put(GenAiTrace.ERROR_TYPE, a.status().wire());
        return b.build();
    }
}
