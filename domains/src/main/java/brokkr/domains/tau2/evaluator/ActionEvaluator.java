package brokkr.domains.tau2.evaluator;

import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Upstream {@code ActionEvaluator} ({@code src/tau2/evaluator/evaluator_action.py}). */
public final class ActionEvaluator {
    private ActionEvaluator() {}

    /**
     * Upstream {@code ActionEvaluator.extract_tool_calls}: every tool call of every agent and user
     * message, in trajectory order. The requestor is not compared later, so a user's call can satisfy an
     * agent's gold action (upstream behaviour).
     */
    public static List<ToolCall> predictedToolCalls(List<Tau2Message> trajectory) {
        List<ToolCall> calls = new ArrayList<>();
        for (Tau2Message m : trajectory) if (m instanceof Tau2Message.Participant p) calls.addAll(p.toolCalls());
        return calls;
    }

    /** Upstream {@code _check_actions}: one check per gold action, in gold order. */
    public static List<ActionCheck> check(List<Tau2Message> trajectory, List<GoldAction> gold) {
        if (gold.isEmpty()) return List.of();
        List<ToolCall> predicted = predictedToolCalls(trajectory);
        List<ActionCheck> out = new ArrayList<>(gold.size());
        for (GoldAction g : gold) {
            boolean found = false;
            for (ToolCall tc : predicted)
                if (matches(g, tc)) {
                    found = true;
                    break;
                }
            out.add(new ActionCheck(g, found));
        }
        return out;
    }

    /**
     * Upstream {@code Action.compare_with_tool_call}: same name, then Python {@code ==} of the two
     * argument dicts restricted to {@code compare_args}. With {@code compare_args=None} the keys are the
     * PREDICTED call's keys, so a call that omits some gold arguments can still match (quirk kept).
     */
    public static boolean matches(GoldAction gold, ToolCall call) {
        if (!gold.name().equals(call.name())) return false;
        PyDict predicted = call.arguments();
        Collection<String> keys = gold.compareArgs() == null ? predicted.keys() : gold.compareArgs();
        if (keys.isEmpty()) return true;
        return brokkr.python.PyOps.eq(restrict(predicted, keys), restrict(gold.arguments(), keys));
    }

    private static PyDict restrict(PyDict d, Collection<String> keys) {
        PyDict.Builder b = PyDict.builder();
        for (var e : d.entries()) if (keys.contains(e.getKey())) b.put(e.getKey(), (Value) e.getValue());
        return b.build();
    }
}
