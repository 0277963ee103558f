package brokkr.domains.tau2.evaluator;

import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.Tau2Message;
import java.util.ArrayList;
import java.util.List;

/**
 * A judge that calls no model: it is TOLD the verdict and returns it for every assertion. It exists to
 * test the episode path end to end without a model, and is never a measurement: its name, recorded with
 * every grade, says so ({@code scripted-gold-verdict} when told the gold verdict "met", for gold-replay
 * trajectories; {@code scripted-all-unmet} when told "not met", e.g. for an agent that says nothing).
 */
public record ScriptedVerdictJudge(String name, boolean verdict) implements NlJudge {

    /** For gold-replay trajectories: the gold verdict is that every assertion is met. */
    public static ScriptedVerdictJudge goldVerdict() {
        return new ScriptedVerdictJudge("scripted-gold-verdict", true);
    }

    /** For trajectories in which the agent does nothing: every assertion is unmet. */
    public static ScriptedVerdictJudge allUnmet() {
        return new ScriptedVerdictJudge("scripted-all-unmet", false);
    }

    @Override
    public Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) {
        List<NlAssertionCheck> checks = new ArrayList<>();
        for (String a : nlAssertions)
            checks.add(new NlAssertionCheck(
                    a, verdict, "scripted judge (" + name + "): told the verdict, no model was asked"));
        return new Verdict(checks, List.of());
    }
}
