package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.ArrayVector;
import brokkr.python.PyArgumentBinding;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
import brokkr.python.PyTuple;
import brokkr.python.source.PyEval;
import brokkr.python.source.PyExpr;
import brokkr.python.source.PyParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pcollections.OrderedPMap;

/**
 * {@code multi_turn_utils.execute_multi_turn_func_call}: creates the involved instances that the world
 * does not hold yet, rewrites each call string to address them and evaluates it, rendering the result
 * as upstream does. A pure function of the world: {@code (world, calls) -> (world', results)}.
 */
@SuppressWarnings("unchecked")
public final class Executor {
    private Executor() {}

    /** The world after the calls and one result text per call. */
    public record Execution(World world, List<String> results) {}

    /** multi_turn_utils.execute_multi_turn_func_call: the names rejected before eval. */
    static final Set<String> FORBIDDEN = Set.of("kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run");

    /** {@code re.sub(r"\b([a-zA-Z_]\w*)\s*(?=\()", ...)} in _process_method_calls (Python's \w and \b are Unicode-aware). */
    private static final Pattern CALLED_NAME =
            Pattern.compile("\\b([a-zA-Z_]\\w*)\\s*(?=\\()", Pattern.UNICODE_CHARACTER_CLASS);

    /**
     * The instance variable upstream stores in the module globals:
     * {@code re.sub(r"[-./:]", "_", f"{model_name}{'_eval' if is_evaL_run else ''}_{test_entry_id}_{class_name}_instance")}.
     */
    public static String variable(String modelName, boolean evalRun, String taskId, String className) {
        String raw = modelName + (evalRun ? "_eval" : "") + "_" + taskId + "_" + className + "_instance";
        char[] chars = raw.toCharArray(); // the class [-./:] by hand: this runs on every state compared
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (c == '-' || c == '.' || c == '/' || c == ':') chars[i] = '_';
        }
        return new String(chars);
    }

    /**
     * The instance variables of {@code task}'s involved classes, in their order ({@link #variable} of each), worked out
     * once per (task, model, eval run).
     */
    public static List<String> variables(TaskSetup task, String modelName, boolean evalRun) {
        return Addressing.of(task, modelName, evalRun).variables;
    }

    /** Runs {@code calls} in order (one {@code execute_multi_turn_func_call}). */
    public static Execution execute(
            World world, TaskSetup task, String modelName, boolean evalRun, List<String> calls) {
        Addressing at = Addressing.of(task, modelName, evalRun);
        World w = world == World.EMPTY ? at.pristine() : world;
        for (int i = 0; i < at.variables.size(); i++) {
            String var = at.variables.get(i);
            if (w.instance(var) == null) w = at.make(w, i);
        }
        Session session = new Session(w);
        List<String> results = new ArrayList<>(calls.size());
        for (String call : calls) results.add(session.run(at.rewrite(call)));
        return new Execution(session.world, results);
    }

    /**
     * How one {@code execute_multi_turn_func_call} of a task and model addresses its instances: the variables, which
     * instance owns each method name, the rewritten call strings seen so far, and the world a pristine process has
     * once every instance is made. All are pure functions of (task, model, eval run), so they are worked out once per
     * process instead of once per call: the corpora replay a task's calls thousands of times, each record from a
     * pristine process.
     */
    private static final class Addressing {
        /** Entries kept per cache at most: a process replaying unbounded distinct inputs keeps bounded memory. */
        private static final int LIMIT = 50_000;

        private static final Map<Key, Addressing> CACHE = new ConcurrentHashMap<>();

        private record Key(TaskSetup task, String modelName, boolean evalRun) {
            // The configuration by identity: a task's initial_config is one object for the life of its data set
            // (MultiTurnData.Task.setup() makes a new TaskSetup around it on every call, so the setup's own identity
            // would never match again), and equality would compare the whole configuration on every call.
            @Override
            public boolean equals(Object o) {
                return o instanceof Key k
                        && k.task.initialConfig() == task.initialConfig()
                        && k.evalRun == evalRun
                        && k.task.longContext() == task.longContext()
                        && k.task.taskId().equals(task.taskId())
                        && k.modelName.equals(modelName)
                        && k.task.involvedClasses().equals(task.involvedClasses());
            }

            @Override
            public int hashCode() {
                return (System.identityHashCode(task.initialConfig()) * 31
                                        + task.taskId().hashCode())
                                * 31
                        + modelName.hashCode() * 2
                        + (evalRun ? 1 : 0);
            }
        }

        final TaskSetup task;
        final List<String> variables;
        final List<BackendClass> classes = new ArrayList<>();
        final Map<String, String> methodOwner = new HashMap<>();
        final Map<String, String> rewritten = new ConcurrentHashMap<>();
        private volatile World pristine;
        private final Made[] made;

        private Addressing(TaskSetup task, String modelName, boolean evalRun) {
            this.task = task;
            this.made = new Made[task.involvedClasses().size()];
            List<String> variables = new ArrayList<>();
            for (String className : task.involvedClasses()) {
                BackendClass cls = Backends.get(className);
                String var = variable(modelName, evalRun, task.taskId(), className);
                variables.add(var);
                classes.add(cls);
                for (String m : cls.methods().keySet()) methodOwner.put(m, var);
            }
            this.variables = List.copyOf(variables);
        }

        static Addressing of(TaskSetup task, String modelName, boolean evalRun) {
            Key key = new Key(task, modelName, evalRun);
            Addressing a = CACHE.get(key);
            if (a != null) return a;
            a = new Addressing(task, modelName, evalRun);
            if (CACHE.size() < LIMIT) CACHE.put(key, a);
            return a;
        }

        String rewrite(String call) {
            String r = rewritten.get(call);
            if (r != null) return r;
            r = Executor.rewrite(call, methodOwner);
            if (rewritten.size() < LIMIT) rewritten.put(call, r);
            return r;
        }

        /**
         * The {@code i}th class made into {@code w} (upstream's {@code class_()} and {@code _load_scenario}): a
         * loader is a pure function of the task's configuration and the globals, so the instance last made from the
         * same globals object is the same value (the checker makes the ground truth's instances after the model's,
         * usually on unchanged globals).
         */
        World make(World w, int i) {
            Made last = made[i];
            if (last != null && last.before == w.globals()) return w.with(variables.get(i), last.self, last.after);
            Object config = classes.get(i).stateless()
                    ? PyObjects.dict()
                    : task.initialConfig().getOrDefault(classes.get(i).name(), PyObjects.dict());
            Outcome out = classes.get(i).loader().load(config, task.longContext(), w.globals());
            made[i] = new Made(w.globals(), out.self(), out.globals());
            return w.with(variables.get(i), out.self(), out.globals());
        }

        private record Made(Globals before, Backend self, Globals after) {}

        /** {@link World#EMPTY} with every instance made (the same immutable world each time: a fork is a reference). */
        World pristine() {
            World w = pristine;
            if (w != null) return w;
            w = World.EMPTY;
            for (int i = 0; i < variables.size(); i++) w = make(w, i);
            pristine = w;
            return w;
        }
    }

    /** _process_method_calls: every identifier followed by optional whitespace and '(' (even inside strings). */
    static String rewrite(String call, Map<String, String> methodOwner) {
        return call.chars().allMatch(c -> c < 0x80)
                ? rewriteAscii(call, methodOwner)
                : rewriteByRegex(call, methodOwner);
    }

    static String rewriteByRegex(String call, Map<String, String> methodOwner) {
        Matcher m = CALLED_NAME.matcher(call);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String var = methodOwner.get(name);
            m.appendReplacement(sb, Matcher.quoteReplacement(var == null ? name : var + "." + name));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * {@link #CALLED_NAME}'s rewrite by hand for an ASCII string (where {@code \\w} is {@code [A-Za-z0-9_]} and
     * {@code \\s} is {@code [\\t\\n\\x0B\\f\\r ]}): a match starts a maximal run of word characters (the
     * {@code \\b}) with a letter or {@code _}, and the whole run is the name (a shorter one would be followed by a
     * word character, neither space nor {@code (}); the spaces before the {@code (} are part of the match, so the
     * replacement drops them.
     */
    static String rewriteAscii(String call, Map<String, String> methodOwner) {
        StringBuilder sb = null;
        int n = call.length(), copied = 0, i = 0;
        while (i < n) {
            if (!isWord(call.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && isWord(call.charAt(i))) i++;
            char first = call.charAt(start);
            if (first >= '0' && first <= '9') continue;
            int j = i;
            while (j < n && isSpace(call.charAt(j))) j++;
            if (j == n || call.charAt(j) != '(') continue;
            if (j == i && !methodOwner.containsKey(call.substring(start, i))) continue; // nothing to change
            // the match (name and the spaces before '(') becomes the name, addressed when an instance owns it
            String name = call.substring(start, i), var = methodOwner.get(name);
            if (sb == null) sb = new StringBuilder(n + 64);
            sb.append(call, copied, start);
            if (var != null) sb.append(var).append('.');
            sb.append(name);
            copied = j;
        }
        if (sb == null) return call;
        return sb.append(call, copied, n).toString();
    }

    private static boolean isWord(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    private static boolean isSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    /**
     * Forgets every memo of the multi-turn replay (parsed and rewritten call strings, pristine worlds, state hashes,
     * seeded random generators),
     * as a fresh process would have none: a benchmark calls it before each timed run, so a run does not profit from
     * the work of the run before it.
     */
    public static void forgetMemos() {
        PARSED.clear();
        CALLS.clear();
        Addressing.CACHE.clear();
        StateDump.forgetStateShas();
        PyObjects.forgetJsonTexts();
        PyRandom.forgetSeeds();
    }

    /**
     * Parsed call strings: a syntax tree is immutable and depends on the text alone, and the corpora evaluate the
     * same few thousand strings a hundred thousand times. A string that does not parse is parsed again each time
     * (its SyntaxError is the call's result).
     */
    private static final Map<String, Parsed> PARSED = new ConcurrentHashMap<>();

    /** A call string's tree and the names it mentions (the only globals its evaluation can look up). */
    record Parsed(PyExpr expr, String[] names) {}

    /** The fuzz corpus alone evaluates some 100,000 distinct strings; a tree is about a kilobyte. */
    private static final int PARSED_KEPT = 200_000;

    static PyExpr parsed(String call) {
        return parsedCall(call).expr();
    }

    private static Parsed parsedCall(String call) {
        Parsed p = PARSED.get(call);
        if (p != null) return p;
        PyExpr e = PyParser.parse(call, BfclData.PYTHON);
        Set<String> names = new LinkedHashSet<>();
        namesIn(e, names);
        p = new Parsed(e, names.toArray(new String[0]));
        if (PARSED.size() < PARSED_KEPT) PARSED.put(call, p);
        return p;
    }

    /** Every {@link PyExpr.Name} of {@code e}: what {@link PyEval} may look up in the globals. */
    private static void namesIn(PyExpr e, Set<String> out) {
        switch (e) {
            case null -> {}
            case PyExpr.Const c -> {}
            case PyExpr.Name n -> out.add(n.id());
            case PyExpr.Attr a -> namesIn(a.obj(), out);
            case PyExpr.Call c -> {
                namesIn(c.fn(), out);
                for (PyExpr.Arg a : c.args()) namesIn(a.value(), out);
            }
            case PyExpr.Subscript x -> {
                namesIn(x.obj(), out);
                namesIn(x.index(), out);
            }
            case PyExpr.Slice x -> {
                namesIn(x.lower(), out);
                namesIn(x.upper(), out);
                namesIn(x.step(), out);
            }
            case PyExpr.Tuple t -> t.items().forEach(i -> namesIn(i, out));
            case PyExpr.ListDisplay l -> l.items().forEach(i -> namesIn(i, out));
            case PyExpr.SetDisplay l -> l.items().forEach(i -> namesIn(i, out));
            case PyExpr.DictDisplay d -> {
                d.keys().forEach(k -> namesIn(k, out));
                d.values().forEach(v -> namesIn(v, out));
            }
            case PyExpr.Starred x -> namesIn(x.value(), out);
            case PyExpr.Unary u -> namesIn(u.operand(), out);
            case PyExpr.Binary b -> {
                namesIn(b.left(), out);
                namesIn(b.right(), out);
            }
            case PyExpr.BoolOp b -> b.values().forEach(v -> namesIn(v, out));
            case PyExpr.Compare c -> {
                namesIn(c.left(), out);
                c.rights().forEach(r -> namesIn(r, out));
            }
            case PyExpr.NamedExpr n -> namesIn(n.value(), out);
            case PyExpr.IfExp i -> {
                namesIn(i.test(), out);
                namesIn(i.body(), out);
                namesIn(i.orElse(), out);
            }
        }
    }

    /**
     * Evaluated call strings: the outcome of one call string is a function of the string, the globals and the
     * instances its names denote (nothing else is reachable from an evaluation: a name is looked up in the world or
     * the builtins, an instance's methods see that instance and the globals), and all three are immutable, compared
     * by identity. The corpora start every record from the same pristine instances and grade ten candidates per task
     * against the same ground truth, so the same call meets the same instance objects again and again; a hit hands
     * back the very objects the first evaluation made, so the next call (and the state hash) hits too.
     */
    private static final Map<CallKey, CallOutcome> CALLS = new ConcurrentHashMap<>();

    /** Entries kept at most (each holds the instances before and after); the map starts again when full. */
    private static final int CALLS_KEPT = 50_000;

    private record CallKey(String call, Globals globals, Backend[] instances) {
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof CallKey k) || k.globals != globals || !k.call.equals(call)) return false;
            for (int i = 0; i < instances.length; i++) if (k.instances[i] != instances[i]) return false;
            return true;
        }

        @Override
        public int hashCode() {
            int h = call.hashCode() * 31 + System.identityHashCode(globals);
            for (Backend b : instances) h = h * 31 + System.identityHashCode(b);
            return h;
        }
    }

    private static volatile boolean rememberCalls = true;

    /**
     * Whether evaluated call strings are remembered ({@link #CALLS}; on by default). A benchmark of what one
     * evaluation costs (the fork row of {@code bench multi-turn}, which runs one turn on the same world 1,000 times)
     * turns it off, or it would time the memo's look-up.
     */
    public static void rememberCalls(boolean on) {
        rememberCalls = on;
        if (!on) CALLS.clear();
    }

    /** The result text, and the globals and the instances of the key's names afterwards. */
    private record CallOutcome(String result, Globals globals, Backend[] instances) {}

    /** One eval's mutable view of the world (the calls of one string run in order against it). */
    static final class Session {
        World world;

        Session(World world) {
            this.world = world;
        }

        String run(String call) {
            String head = call;
            int paren = head.indexOf('(');
            if (paren >= 0) head = head.substring(0, paren);
            int dot = head.indexOf('.');
            if (dot >= 0) {
                int next = head.indexOf('.', dot + 1);
                head = head.substring(dot + 1, next < 0 ? head.length() : next); // head.split("\\.")[1]
            }
            if (FORBIDDEN.contains(head)) return "Error during execution: Function call " + head + " is not allowed.";
            Parsed p;
            try {
                p = parsedCall(call);
            } catch (PyException e) {
                return "Error during execution: " + e.str();
            } catch (StackOverflowError e) {
                return "Error during execution: maximum recursion depth exceeded";
            }
            if (!rememberCalls) return evaluate(p.expr());
            Backend[] before = new Backend[p.names().length];
            for (int i = 0; i < before.length; i++) before[i] = world.instance(p.names()[i]);
            CallKey key = new CallKey(call, world.globals(), before);
            CallOutcome known = CALLS.get(key);
            if (known != null) {
                World w = world;
                for (int i = 0; i < before.length; i++)
                    if (known.instances()[i] != before[i]) w = w.with(p.names()[i], known.instances()[i], w.globals());
                world = w.globals() == known.globals() ? w : w.withGlobals(known.globals());
                return known.result();
            }
            String result = evaluate(p.expr());
            Backend[] after = new Backend[before.length];
            for (int i = 0; i < after.length; i++) after[i] = world.instance(p.names()[i]);
            if (CALLS.size() >= CALLS_KEPT) CALLS.clear();
            CALLS.put(key, new CallOutcome(result, world.globals(), after));
            return result;
        }

        private String evaluate(PyExpr expr) {
            try {
                Object result =
                        PyEval.deep(new PyEval(this::global, BfclData.PYTHON, Executor::internedUpstream).eval(expr));
                return render(world.globals().resolve(result));
            } catch (PyException e) {
                return "Error during execution: " + e.str();
            } catch (StackOverflowError e) {
                return "Error during execution: maximum recursion depth exceeded";
            }
        }

        private Object global(String name) {
            Backend b = world.instance(name);
            if (b == null) return null;
            return new InstanceRef(this, name);
        }
    }

    /**
     * The executor's result text: {@code type(r) == str} as is, a dict {@code json.dumps(r)} falling back
     * to {@code str(r)} when that raises, anything else {@code str(r)}.
     */
    public static String render(Object result) {
        if (result instanceof String s) return s;
        if (result instanceof Map<?, ?>) {
            try {
                return PyObjects.jsonDumps(result);
            } catch (PyException e) {
                return PyObjects.str(result, BfclData.PYTHON);
            }
        }
        return PyObjects.str(result, BfclData.PYTHON);
    }

    /** A backend instance as a Python object in the eval namespace. */
    record InstanceRef(Session session, String variable) implements PyObjects.Custom, PyObjects.Attributes {
        Backend backend() {
            return session.world.instance(variable);
        }

        /**
         * The class name is the shortest '_'-separated tail of the variable before {@code _instance} that names a
         * class: the multi-turn class names hold no '_', the memory ones do ({@code MemoryAPI_rec_sum}).
         */
        BackendClass cls() {
            String base = variable.substring(0, variable.length() - "_instance".length());
            for (int i = base.lastIndexOf('_'); i >= 0; i = base.lastIndexOf('_', i - 1)) {
                var c = Backends.find(base.substring(i + 1));
                if (c.isPresent()) return c.get();
                if (i == 0) break;
            }
            return Backends.get(base.substring(base.lastIndexOf('_') + 1));
        }

        @Override
        public String pyTypeName() {
            return cls().name();
        }

        @Override
        public String pyRepr() {
            return "<" + cls().name() + " object>";
        }

        @Override
        public Object attribute(String name) {
            BackendClass cls = cls();
            Method m = cls.methods().get(name);
            if (m != null) return new BoundMethod(this, cls, m);
            Object state = backend().state(session.world.globals()).get(name);
            if (state != null) return state;
            throw PyException.attributeError("'" + cls.name() + "' object has no attribute '" + name + "'");
        }
    }

    /** {@code instance.method}: calling it binds the arguments and runs the body against the current world. */
    record BoundMethod(InstanceRef self, BackendClass cls, Method method) implements PyObjects.Callable {
        @Override
        public String pyTypeName() {
            return "method";
        }

        @Override
        public String pyRepr() {
            return "<bound method " + qualnameBare() + " of " + self.pyRepr() + ">";
        }

        String qualnameBare() {
            return cls.name() + "." + method.name();
        }

        @Override
        public String qualname() {
            return qualnameBare() + "()";
        }

        @Override
        public Object call(List<Object> args, Map<String, Object> kwargs) {
            Object[] bound = bind(qualnameBare(), method.params(), args, kwargs);
            Session s = self.session();
            Outcome out;
            try {
                out = method.body().call(s.world.instance(self.variable()), bound, s.world.globals());
            } catch (Raised r) {
                // upstream mutates in place: what the method changed before raising stays
                s.world = s.world.with(self.variable(), r.self(), r.globals());
                throw r;
            }
            s.world = s.world.with(self.variable(), out.self(), out.globals());
            return liveRefs(out.result(), s, self.variable());
        }
    }

    /** The result with each {@link Live} (also inside lists, tuples and dicts) bound to its instance. */
    private static Object liveRefs(Object v, Session s, String variable) {
        return switch (v) {
            case Live live -> new LiveRef(s, variable, live);
            case List<?> l -> {
                List<Object> out = null; // made at the first item that changes: most results hold no Live
                int i = 0;
                for (Object x : l) {
                    Object r = liveRefs(x, s, variable);
                    if (r != x && out == null) out = new ArrayList<>(l.subList(0, i));
                    if (out != null) out.add(r);
                    i++;
                }
                yield out == null ? v : ArrayVector.from(out);
            }
            case PyTuple t -> {
                Object r = liveRefs(t.items(), s, variable);
                yield r == t.items() ? v : new PyTuple((List<Object>) r);
            }
            case Map<?, ?> m -> {
                OrderedPMap<Object, Object> out = null;
                int i = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    Object r = liveRefs(e.getValue(), s, variable);
                    if (r != e.getValue() && out == null) out = Globals.prefix(m, i);
                    if (out != null) out = out.plus(e.getKey(), r);
                    i++;
                }
                yield out == null ? v : out;
            }
            default -> v;
        };
    }

    /** A {@link Live} result of the instance {@code variable}, looked up in the session's current world. */
    /**
     * The strings upstream's executor process has interned, as far as measured: CPython's own at startup and those
     * a CPython 3.11 process holds interned once it has imported upstream's executor (multi_turn_utils, with
     * inspect and what it loads) and backend modules (gen_interned_bfcl_names.py: the identifiers and identifier-like
     * string constants of every loaded module, each probed). Not modelled: an identifier-like constant of an earlier
     * call that a backend keeps in its state stays interned in upstream's process (MultiTurnFuzz avoids it). They decide only
     * whether a set display's frozenset constant is built once more ({@link brokkr.python.PySetOrder#display});
     * identifiers of other modules upstream's process loads are not known here.
     */
    static boolean internedUpstream(String s) {
        return brokkr.python.PySetOrder.internedAtStartup(s) || BackendInterned.NAMES.contains(s);
    }

    private static final class BackendInterned {
        static final Set<String> NAMES = read();

        private static Set<String> read() {
            try (var in = Executor.class.getResourceAsStream("interned-by-backends-3.11.txt")) {
                if (in == null) throw new IllegalStateException("missing resource interned-by-backends-3.11.txt");
                String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
                return Set.copyOf(text.lines().filter(l -> !l.isEmpty()).toList());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    record LiveRef(Session session, String variable, Live live) implements PyObjects.Custom, PyEval.Deferred {
        @Override
        public Object current() {
            return live.in(session.world.instance(variable));
        }

        @Override
        public String pyTypeName() {
            return PyObjects.typeName(current());
        }

        @Override
        public String pyRepr() {
            return PyObjects.repr(current());
        }
    }

    /**
     * The arguments of a call of a backend method bound to its parameters after {@code self}, with their
     * defaults: CPython's binding ({@link PyArgumentBinding}) under BFCL's release.
     */
    private static final List<String> SELF = List.of("self");

    static Object[] bind(String qualname, List<Method.Param> params, List<Object> args, Map<String, Object> kwargs) {
        List<String> names = new java.util.AbstractList<>() { // a view: binding runs on every call
                    @Override
                    public String get(int i) {
                        return params.get(i).name();
                    }

                    @Override
                    public int size() {
                        return params.size();
                    }
                };
        List<Object> values = PyArgumentBinding.bind(
                qualname, SELF, names, i -> params.get(i).isRequired(), args, kwargs, BfclData.PYTHON);
        Object[] out = new Object[params.size()];
        for (int i = 0; i < out.length; i++)
            out[i] = values.get(i) != null ? values.get(i) : params.get(i).dflt();
        return out;
    }
}
