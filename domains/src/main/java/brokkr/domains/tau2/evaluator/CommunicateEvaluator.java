package brokkr.domains.tau2.evaluator;

import brokkr.domains.tau2.evaluator.Checks.CommunicateCheck;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.eval.NextAction;
import java.util.ArrayList;
import java.util.List;

/** Upstream {@code CommunicateEvaluator} ({@code src/tau2/evaluator/evaluator_communicate.py}). */
public final class CommunicateEvaluator {
    private CommunicateEvaluator() {}

    /**
     * Upstream {@code evaluate_communicate_info}: an info string is met when, lower-cased, it is a
     * substring of some agent text message lower-cased with its commas removed. Commas are removed from
     * the message only, so an info string containing a comma can never be met (upstream quirk).
     */
    public static List<CommunicateCheck> check(List<Tau2Message> trajectory, List<String> infos) {
        List<CommunicateCheck> out = new ArrayList<>(infos.size());
        for (String info : infos) {
            String foundIn = null;
            for (Tau2Message m : trajectory) {
                if (!(m instanceof Tau2Message.Agent a) || !a.hasText()) continue;
                if (NextAction.says(a.content(), info)) {
                    foundIn = a.content();
                    break;
                }
            }
            out.add(
                    foundIn != null
                            ? new CommunicateCheck(
                                    info,
                                    true,
                                    "Information '" + info + "' communicated in the message:\n '" + foundIn + "'")
                            : new CommunicateCheck(info, false, "Information '" + info + "' not communicated."));
        }
        return out;
    }
}
