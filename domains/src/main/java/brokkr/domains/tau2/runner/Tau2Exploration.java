package brokkr.domains.tau2.runner;

import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.eval.Attempt;
import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A tau2-bench domain to explore: the task table and details read from the parsed tasks
 * ({@link TaskSpec}), forks over the episode environment's world values (a call yields the next DB
 * value, as in an episode), and a run read back from its attempt: upstream's checks from the grade in
 * the attempt's details, each marked as in the reward basis or a diagnostic. The domain's data loads
 * (digests verified) on first use.
 */
public final class Tau2Exploration implements Exploration {
    /** The scripted agents of {@code ./brokkr tau2 run}: gold replays the task's actions, stop ends at once. */
    static final List<String> CANDIDATES = List.of(Tau2Benchmark.GOLD, Tau2Benchmark.STOP);

    /**
     * What a tau2 domain's files hold besides its episodes: the split names, the policy, the domain's
     * own data files with their pinned digests (loading refused any other bytes) and the pristine world.
     */
    public record Catalogue(
            String description,
            Tau2Domain episodes,
            List<String> splits,
            String policy,
            Map<String, String> files,
            Worlds pristine) {
        public Catalogue {
            splits = List.copyOf(splits);
            files = Map.copyOf(files);
        }
    }

    private final String name;
    private final Supplier<Catalogue> load;
    private volatile Catalogue catalogue;

    /** @param name the benchmark's name ({@code tau2-retail}) */
    public Tau2Exploration(String name, Supplier<Catalogue> load) {
        this.name = name;
        this.load = load;
    }

    private Catalogue catalogue() {
        Catalogue c = catalogue;
        if (c == null) {
            synchronized (this) {
                if (catalogue == null) catalogue = load.get();
                c = catalogue;
            }
        }
        return c;
    }

    private EpisodeEnvironment<Worlds> environment() {
        return catalogue().episodes().environment();
    }

    private List<String> toolNames() {
        return environment().agentTools().stream().map(ToolSpec::name).toList();
    }

    private TaskSpec spec(String id) {
        TaskSpec t = catalogue().episodes().tasks().get(id);
        if (t == null) throw new IllegalArgumentException("no " + name + " task '" + id + "'");
        return t;
    }

    @Override
    public Summary summary() {
        Catalogue c = catalogue();
        Map<String, Integer> perSplit = new LinkedHashMap<>();
        for (String s : c.splits()) perSplit.put(s, c.episodes().split(s).size());
        List<DataFile> files = c.files().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> new DataFile(e.getKey(), e.getValue(), true))
                .toList();
        return new Summary(
                c.description(),
                c.episodes().tasks().size(),
                perSplit,
                toolNames(),
                c.policy().length(),
                files);
    }

    @Override
    public List<TaskRow> tasks() {
        Catalogue c = catalogue();
        Map<String, List<String>> splitsOf = new LinkedHashMap<>();
        for (String s : c.splits()) {
            for (TaskSpec t : c.episodes().split(s))
                splitsOf.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(s);
        }
        List<TaskRow> out = new ArrayList<>();
        for (TaskSpec t : c.episodes().tasks().values()) {
            String reason = text(instructions(t).get("reason_for_call"));
            out.add(new TaskRow(
                    t.id(),
                    splitsOf.getOrDefault(t.id(), List.of()),
                    reason == null ? "" : reason,
                    rewardBasis(t),
                    gold(t).size()));
        }
        return out;
    }

    @Override
    public TaskDetail task(String id) {
        TaskSpec t = spec(id);
        PyDict ins = instructions(t);
        StringBuilder scenario = new StringBuilder();
        for (String k : List.of("reason_for_call", "known_info", "unknown_info", "task_instructions")) {
            String s = text(ins.get(k));
            if (s != null)
                scenario.append(scenario.isEmpty() ? "" : "\n")
                        .append(k.replace('_', ' '))
                        .append(": ")
                        .append(s);
        }
        List<String> gold = gold(t).stream()
                .map(a -> a.name() + "(" + PyJson.dumps(a.arguments()) + ")")
                .toList();
        EpisodeEnvironment<Worlds> env = environment();
        return new TaskDetail(id, scenario.toString(), rewardBasis(t), gold, env.dbHash(env.initialWorld(t)));
    }

    @Override
    public ToolWorld fork(String taskId) {
        EpisodeEnvironment<Worlds> env = environment();
        Worlds w = taskId == null ? catalogue().pristine() : env.initialWorld(spec(taskId));
        return new Fork(env, w, toolNames());
    }

    /** A world of the episode environment with the agent's tools; each call answers as in an episode and yields the next world. */
    private record Fork(EpisodeEnvironment<Worlds> env, Worlds worlds, List<String> tools) implements ToolWorld {
        @Override
        public Value state() {
            return Tau2Fork.encode(worlds);
        }

        /** The agent's tools exactly as an episode gives them to the agent. */
        @Override
        public List<ToolSpec> toolSpecs() {
            return env.agentTools();
        }

        @Override
        public Step call(String tool, PyDict args) {
            EpisodeEnvironment.Response<Worlds> r = env.respond(worlds, Requestor.ASSISTANT, tool, args);
            return new Step(new ToolResult(r.content(), r.error()), new Fork(env, r.world(), tools));
        }
    }

    @Override
    public List<String> candidates() {
        return CANDIDATES;
    }

    /** A model candidate needs a model customer and a model judge (see {@link Tau2Benchmark}). */
    @Override
    public List<ModelRole> modelRoles() {
        return List.of(
                new ModelRole("user", "the customer (user simulator)"),
                new ModelRole("judge", "the judge of the NL assertions"));
    }

    /**
     * The result line of {@code ./brokkr tau2 run} and upstream's checks of the grade (DB, actions,
     * communicate, NL assertions): first those of the reward basis, then the diagnostics (components
     * outside it). Every basis component is listed: one the task gives no checks (a task without NL
     * assertions whose basis names NL_ASSERTION) gets a line with its score, which upstream counts too.
     */
    @Override
    public RunReport report(Attempt a) {
        PyDict output = a.evidence().output();
        String line = String.format(
                Locale.ROOT,
                "reward %.1f, %s, %d steps, %d tool errors",
                a.reward(),
                a.evidence().termination(),
                ((PyInt) output.get("steps")).longValue(),
                ((PyInt) output.get("tool_errors")).longValue());
        List<CheckLine> inBasis = new ArrayList<>(), diagnostics = new ArrayList<>();
        if (a.evidence().details().get("grade") instanceof PyDict grade) {
            List<String> basis = new ArrayList<>();
            if (grade.get("reward_basis") instanceof PyList b) for (Value v : b) basis.add(v.asStr());
            List<String> checked = new ArrayList<>();
            for (var e : grade.get("checks").asDict().entries()) {
                String check = e.getKey();
                String component = check.contains(":") ? check.substring(0, check.indexOf(':')) : check;
                boolean passed = e.getValue() == PyBool.TRUE;
                if (basis.contains(component)) {
                    inBasis.add(new CheckLine(check, passed, "in the reward basis"));
                    checked.add(component);
                } else {
                    diagnostics.add(new CheckLine(check, passed, "diagnostic (not in the reward basis)"));
                }
            }
            PyDict breakdown = grade.get("reward_breakdown") instanceof PyDict d ? d : PyDict.empty();
            for (String component : basis) {
                if (checked.contains(component)) continue;
                if (!(breakdown.get(component) instanceof PyFloat score)) {
                    inBasis.add(new CheckLine(component, false, "in the reward basis: not scored"));
                } else {
                    double r = score.value();
                    inBasis.add(new CheckLine(
                            component,
                            r >= 1 - 1e-6,
                            String.format(
                                    Locale.ROOT,
                                    "in the reward basis: no %s in this task, scored %.1f",
                                    uncheckedNoun(component),
                                    r)));
                }
            }
        }
        List<CheckLine> checks = new ArrayList<>(inBasis);
        checks.addAll(diagnostics);
        return new RunReport(line, checks);
    }

    /** What a reward component's checks are called, for a task that has none of them. */
    private static String uncheckedNoun(String component) {
        return switch (component) {
            case "DB" -> "database check";
            case "ENV_ASSERTION" -> "env assertions";
            case "ACTION" -> "gold actions";
            case "COMMUNICATE" -> "communicate info";
            case "NL_ASSERTION" -> "NL assertions";
            default -> component + " checks";
        };
    }

    private static PyDict instructions(TaskSpec t) {
        Value scenario = t.raw().get("user_scenario");
        Value i = scenario instanceof PyDict s ? s.get("instructions") : null;
        return i instanceof PyDict d ? d : PyDict.empty();
    }

    private static List<GoldAction> gold(TaskSpec t) {
        return t.criteria() == null ? List.of() : t.criteria().actionsOrEmpty();
    }

    private static String rewardBasis(TaskSpec t) {
        if (t.criteria() == null) return "";
        return String.join(
                ", ", t.criteria().rewardBasis().stream().map(RewardType::name).toList());
    }

    /** A scenario field as text: a string as is, anything else (a list of facts) as its JSON. */
    private static String text(Value v) {
        return v == null || v.isNone() ? null : v instanceof PyStr s ? s.value() : PyJson.dumps(v);
    }
}
