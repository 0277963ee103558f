package brokkr.domains.tau2.orchestrator;

import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny tau2-like domain for protocol tests. The world is {@code {"agent": {...}, "user": {...}}};
 * agent tools {@code set(key, value)} (writes), {@code get(key)} (reads; KeyError when absent) and
 * {@code fail()} (always raises); user tool {@code press(button)} (writes the user DB). The hash is the
 * sorted JSON itself, so tests can read it. The world is held as a tau2 benchmark's fork holds a DB
 * ({@link Worlds#db()}), so {@link FakeBenchmark} runs it on the production path.
 */
final class FakeEnvironment implements EpisodeEnvironment<Worlds> {
    static final PyDict PARAMS = PyDict.of("type", "object", "properties", PyDict.empty());

    @Override
    public List<ToolSpec> agentTools() {
        return List.of(
                new ToolSpec("set", "Set a key.", PARAMS),
                new ToolSpec("get", "Get a key.", PARAMS),
                new ToolSpec("fail", "Fails.", PARAMS));
    }

    @Override
    public List<ToolSpec> userTools(TaskSpec task) {
        return List.of(new ToolSpec("press", "Press a button.", PARAMS));
    }

    @Override
    public Worlds initialWorld(TaskSpec task) {
        return new Worlds(initial(), null);
    }

    private static PyDict initial() {
        return PyDict.of("agent", PyDict.of("a", 1), "user", PyDict.empty());
    }

    @Override
    public Response<Worlds> respond(Worlds world, Requestor requestor, String name, PyDict args) {
        Step s = call(world.db().asDict(), requestor, name, args);
        return new Response<>(
                new Worlds(s.world, null), s.error == null ? s.content : "Error: " + s.error, s.error != null);
    }

    private record Step(PyDict world, String content, String error) {}

    private static Step call(PyDict w, Requestor requestor, String name, PyDict args) {
        if (requestor == Requestor.USER) {
            if (!name.equals("press")) return new Step(w, null, "Tool '" + name + "' not found.");
            PyDict user = w.get("user").asDict();
            return new Step(w.with("user", user.with(args.get("button").asStr(), new PyStr("pressed"))), "ok", null);
        }
        PyDict agent = w.get("agent").asDict();
        boolean keyed = name.equals("set") || name.equals("get");
        if (keyed && !args.containsKey("key"))
            return new Step(w, null, "FakeTools." + name + "() missing 1 required positional argument: 'key'");
        return switch (name) {
            case "set" -> new Step(w.with("agent", agent.with(args.get("key").asStr(), args.get("value"))), "ok", null);
            case "get" -> {
                Value v = agent.get(args.get("key").asStr());
                yield v == null
                        ? new Step(w, null, "'" + args.get("key").asStr() + "'")
                        : new Step(w, PyJson.dumps(v), null);
            }
            case "fail" -> new Step(w, null, "always fails");
            default -> new Step(w, null, "Tool '" + name + "' not found.");
        };
    }

    @Override
    public GoldReplay<Worlds> goldReplay(TaskSpec task) {
        PyDict w = initial();
        List<String> errors = new ArrayList<>();
        for (GoldAction a : task.criteria().actionsOrEmpty()) {
            Step s = call(w, a.requestor(), a.name(), a.arguments());
            w = s.world;
            if (s.error != null) errors.add(a.name() + ": " + s.error);
        }
        return new GoldReplay<>(new Worlds(w, null), errors);
    }

    @Override
    public String dbHash(Worlds w) {
        return PyJson.dumps(w.db().asDict().get("agent"), PyJson.DumpOptions.SORTED);
    }

    @Override
    public String userDbHash(Worlds w) {
        return PyJson.dumps(w.db().asDict().get("user"), PyJson.DumpOptions.SORTED);
    }
}
