package brokkr.magics;

import brokkr.agent.ToolResult;
import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.python.PyJson;
import brokkr.tau2.Tau2Environment;
import brokkr.tau2.Tau2Hash;
import brokkr.tau2.Tau2Toolkit;
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

        public String hash() { return Tau2Hash.hash(state); }
    }

    @Override public List<String> candidates() { return List.of(); }

    @Override public RunView run(String candidate, String taskId) {
        throw new MagicUsageException("tau2-retail episodes need the tau2 episode engine, which this build does not have yet;"
                + " %run works on the loop and parallel domains");
    }
}
