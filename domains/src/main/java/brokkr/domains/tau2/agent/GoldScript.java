package brokkr.domains.tau2.agent;

import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's gold actions cut into the order the scripted agent and user take turns in: each assistant
 * action on its own, each maximal run of user actions as one block that the agent hands to the user.
 */
public record GoldScript(List<Segment> segments) {

    public sealed interface Segment permits AgentStep, UserBlock {}

    public record AgentStep(int index, GoldAction action) implements Segment {}
    /** User actions {@code first .. first+actions.size()-1} (0-based among the task's user actions). */
    public record UserBlock(int first, List<GoldAction> actions) implements Segment {}

    public static GoldScript of(List<GoldAction> gold) {
        List<Segment> out = new ArrayList<>();
        List<GoldAction> run = new ArrayList<>();
        int userIndex = 0, runStart = 0;
        for (int i = 0; i < gold.size(); i++) {
            GoldAction a = gold.get(i);
            if (a.requestor() == Requestor.USER) {
                if (run.isEmpty()) runStart = userIndex;
                run.add(a);
                userIndex++;
            } else {
                if (!run.isEmpty()) {
                    out.add(new UserBlock(runStart, List.copyOf(run)));
                    run.clear();
                }
                out.add(new AgentStep(i, a));
            }
        }
        if (!run.isEmpty()) out.add(new UserBlock(runStart, List.copyOf(run)));
        return new GoldScript(List.copyOf(out));
    }

    public List<GoldAction> userActions() {
        List<GoldAction> u = new ArrayList<>();
        for (Segment s : segments) if (s instanceof UserBlock b) u.addAll(b.actions());
        return u;
    }
}
