package brokkr.magics;

import brokkr.agent.ToolResult;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Episode;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.orchestrator.EpisodeResult;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.python.PyJson;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.world.WorldHash;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.tool.ToolDef;
import brokkr.value.PyDict;
import brokkr.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * tau2-bench retail as a {@link Bench}. Loading the domain verifies the four data files against their
 * pinned digests ({@link RetailDomain#DIGESTS}; a mismatch refuses to load), so a loaded summary reports
 * them verified. A fork is an environment over the DB value; a call yields a new DB value.
 */
final class RetailBench implements Bench {
    private final RetailDomain domain;
    private final Map<String, List<String>> splitsOf = new LinkedHashMap<>();

    RetailBench(RetailDomain domain) {
        this.domain = domain;
        for (String split : domain.splits().keys()) {
            for (String id : domain.split(split)) splitsOf.computeIfAbsent(id, k -> new ArrayList<>()).add(split);
        }
    }

    @Override public String name() { return "tau2-retail"; }

    private List<String> toolNames() { return domain.toolkit().defs().stream().map(ToolDef::name).toList(); }

    @Override public DomainSummary summary() {
        Map<String, Integer> perSplit = new LinkedHashMap<>();
        for (String s : domain.splits().keys()) perSplit.put(s, domain.split(s).size());
        List<DomainSummary.DataFile> files = RetailDomain.DIGESTS.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> new DomainSummary.DataFile(e.getKey(), e.getValue(), true)).toList();
        return new DomainSummary(name(), "tau2-bench retail customer service", domain.tasks().size(), perSplit, toolNames(),
                domain.policy().length(), files);
    }

    @Override public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (Value v : domain.tasks()) {
            PyDict t = v.asDict();
            String id = t.get("id").asStr();
            out.add(new TaskRow(id, splitsOf.getOrDefault(id, List.of()), reason(t), rewardBasis(t), actions(t).size()));
        }
        return out;
    }

    private static String str(Value v) { return v == null || v.isNone() ? null : v instanceof brokkr.value.PyStr s ? s.value() : PyJson.dumps(v); }

    private static PyDict instructions(PyDict task) {
        Value i = task.get("user_scenario").asDict().get("instructions");
        return i instanceof PyDict d ? d : PyDict.empty();
    }

    private static String reason(PyDict task) {
        String r = str(instructions(task).get("reason_for_call"));
        return r == null ? "" : r;
    }

    private static PyDict criteria(PyDict task) {
        Value c = task.get("evaluation_criteria");
        return c instanceof PyDict d ? d : PyDict.empty();
    }

    private static String rewardBasis(PyDict task) {
        Value b = criteria(task).get("reward_basis");
        if (b == null || b.isNone()) return "";
        List<String> parts = new ArrayList<>();
        for (Value x : b.asList()) parts.add(x.asStr());
        return String.join(", ", parts);
    }

    private static List<Value> actions(PyDict task) {
        Value a = criteria(task).get("actions");
        return a == null || a.isNone() ? List.of() : a.asList().items();
    }

    private PyDict find(String id) {
        try {
            return domain.task(id);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException("no tau2-retail task '" + id + "' (%tasks lists them)");
        }
    }

    @Override public TaskView task(String id) {
        PyDict t = find(id);
        PyDict ins = instructions(t);
        StringBuilder scenario = new StringBuilder();
        for (String k : List.of("reason_for_call", "known_info", "unknown_info", "task_instructions")) {
            String s = str(ins.get(k));
            if (s != null) scenario.append(scenario.isEmpty() ? "" : "\n").append(k.replace('_', ' ')).append(": ").append(s);
        }
        List<String> gold = new ArrayList<>();
        for (Value a : actions(t)) gold.add(a.asDict().get("name").asStr() + "(" + PyJson.dumps(a.asDict().get("arguments")) + ")");
        return new TaskView(name(), id, scenario.toString(), rewardBasis(t), gold, domain.environment(id).dbHash());
    }

    @Override public ToolWorld fork(String taskId) {
        Tau2Environment env = taskId == null ? domain.environment() : domain.environment(find(taskId).get("id").asStr());
        return new Tau2World(domain.toolkit(), env.db(), toolNames());
    }

    /** A retail DB value with the agent's tools; {@code get_response} on a throwaway environment per call. */
    record Tau2World(Tau2Toolkit kit, Value state, List<String> tools) implements ToolWorld {
        @Override public Step call(String tool, PyDict args) {
            Tau2Environment env = Tau2Environment.agentOnly(kit, state);
            Tau2Environment.ToolMessage m = env.getResponse(tool, args, "assistant");
            return new Step(new ToolResult(m.content(), m.error()), new Tau2World(kit, env.db(), tools));
        }

        public String hash() { return WorldHash.sha256(state, true); }
    }

    /** The scripted agents of {@code ./brokkr tau2 run}: gold replays the task's actions, stop ends at once. */
    static final List<String> CANDIDATES = List.of("gold", "stop");

    @Override public List<String> candidates() { return CANDIDATES; }

    private volatile Tau2Domain episodes;

    private Tau2Domain episodes() {
        Tau2Domain e = episodes;
        if (e == null) episodes = e = Tau2Domain.retail(domain);
        return e;
    }

    /**
     * One tau2 episode with a scripted user (opens with the task's request) and a scripted NL judge told
     * the verdict, as {@code ./brokkr tau2 run --agent gold|stop}: the grade's checks are upstream's
     * (DB, actions, communicate, NL assertions), those outside the reward basis marked as diagnostics.
     */
    @Override public RunView run(String candidate, String taskId) {
        if (!CANDIDATES.contains(candidate)) {
            throw new MagicUsageException("unknown tau2-retail candidate '" + candidate + "' (one of " + String.join(", ", CANDIDATES) + ")");
        }
        Tau2Domain ep = episodes();
        TaskSpec t;
        try {
            t = ep.task(taskId);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException("no tau2-retail task '" + taskId + "' (%tasks lists them)");
        }
        boolean gold = candidate.equals("gold");
        AgentSide agent = new AgentSide(candidate, gold ? new GoldReplayAgent(t) : new StopAtOnceAgent(), ep.agentSystemPrompt(),
                ep.environment().agentTools(), true);
        UserSide user = new UserSide("scripted-user", new ScriptedUser(t), ep.userSystemPrompt().apply(t), ep.environment().userTools(t));
        EpisodeResult r = Episode.run(ep.environment(), t, agent, user,
                gold ? ScriptedVerdictJudge.goldVerdict() : ScriptedVerdictJudge.allUnmet(), EpisodeOptions.DEFAULT);
        List<RunView.Line> lines = new ArrayList<>();
        for (Tau2Message m : r.transcript()) {
            switch (m) {
                case Tau2Message.Participant p -> lines.add(new RunView.Line(p.role(), RunView.withCalls(p.content(), p.toolCalls())));
                case Tau2Message.ToolResult tr -> lines.add(new RunView.Line(tr.error() ? "tool (error)" : "tool", tr.content()));
            }
        }
        List<RunView.Check> checks = new ArrayList<>();
        if (r.grade() != null) {
            List<String> basis = r.grade().basis() == null ? List.of() : r.grade().basis().stream().map(Enum::name).toList();
            r.grade().checks().forEach((name, ok) -> {
                String component = name.contains(":") ? name.substring(0, name.indexOf(':')) : name;
                checks.add(new RunView.Check(name, ok, basis.contains(component) ? "in the reward basis" : "diagnostic (not in the reward basis)"));
            });
        }
        String line = String.format(java.util.Locale.ROOT, "reward %.1f, %s, %d steps, %d tool errors%s", r.reward(),
                r.termination().value(), r.steps(), r.toolErrors(), r.gradingFailure() != null ? ", grading failed: " + r.gradingFailure() : "");
        return new RunView(name(), candidate, taskId, lines, r.termination().value(), checks, r.reward(), line, r);
    }
}
