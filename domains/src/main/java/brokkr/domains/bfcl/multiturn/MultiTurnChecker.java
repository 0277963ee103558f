package brokkr.domains.bfcl.multiturn;

import brokkr.python.ArrayVector;
import brokkr.python.PyObjects;
import brokkr.python.PyTuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Upstream's multi-turn grading: {@code eval_runner._evaluate_single_multi_turn_entry} (not a list:
 * {@code inference_error}; a different number of turns: {@code force_terminated}; steps whose decoded list is
 * empty, {@code []} or {@code [""]}, dropped) and {@code multi_turn_checker.multi_turn_checker}: per turn, the
 * model's steps run on the model's instances ({@code is_evaL_run=True}, the model's name), then the ground truth's
 * turn on the ground truth's ({@code model_name + "_ground_truth"}), both in one world as in one upstream process;
 * a non-empty ground-truth turn needs model steps ({@code empty_turn_model_response}); an empty one is not checked;
 * else {@code state_checker} (every public attribute of every ground-truth instance {@code !=} the model's, first
 * mismatching class in {@code involved_classes} order) and {@code response_checker} (the turn's ground-truth
 * results a sub-multiset of the model's results of all turns so far). {@code method_invoke_order_checker} is
 * commented out upstream and not applied.
 */
public final class MultiTurnChecker {
    private MultiTurnChecker() {}

    /**
     * Upstream's verdict: {@code errorType} null iff valid; {@code errorMessage} a str, or a one-element list for
     * inference_error / force_terminated (as upstream); {@code details} everything else upstream puts in
     * {@code error} ({@code details}, {@code execution_result}), as Python objects; the world after grading.
     */
    public record Verdict(
            boolean valid, String errorType, Object errorMessage, Map<Object, Object> details, World world) {
        static Verdict ok(World w) {
            return new Verdict(true, null, null, PyObjects.dict(), w);
        }
    }

    /** Grades {@code candidate} (turns, steps, decoded call strings; anything but a list: an inference error). */
    public static Verdict check(MultiTurnData.Task task, Object candidate, String modelName) {
        if (!(candidate instanceof List<?> turns)) {
            return new Verdict(
                    false,
                    "multi_turn:inference_error",
                    PyObjects.list("Error during inference phase. Model did not output a list of model responses."),
                    PyObjects.dict(),
                    World.EMPTY);
        }
        List<List<String>> gt = task.groundTruth();
        if (turns.size() != gt.size()) {
            return new Verdict(
                    false,
                    "multi_turn:force_terminated",
                    PyObjects.list("Model was force-terminated during inference phase. "
                            + "The length of the model result turns (" + turns.size()
                            + ") does not match the length of the ground truth turns ("
                            + gt.size() + ")."),
                    PyObjects.dict(),
                    World.EMPTY);
        }
        List<List<List<String>>> decoded = new ArrayList<>();
        for (Object turn : turns) {
            List<List<String>> steps = new ArrayList<>();
            for (Object step : (List<?>) turn) {
                List<String> calls = new ArrayList<>();
                for (Object c : (List<?>) step) calls.add((String) c);
                if (calls.isEmpty() || (calls.size() == 1 && calls.getFirst().isEmpty())) continue;
                steps.add(calls);
            }
            decoded.add(steps);
        }
        return checkDecoded(task, decoded, modelName);
    }

    /** {@code multi_turn_checker} on already decoded turns (empty steps dropped). */
    public static Verdict checkDecoded(MultiTurnData.Task task, List<List<List<String>>> turns, String modelName) {
        TaskSetup setup = task.setup();
        World world = World.EMPTY;
        String gtName = modelName + "_ground_truth";
        List<Object> executionResults = new ArrayList<>();
        List<Object> allModelResults = new ArrayList<>();
        for (int t = 0; t < task.groundTruth().size(); t++) {
            List<String> gtTurn = task.groundTruth().get(t);
            List<List<String>> steps = turns.get(t);
            List<Object> uncombined = new ArrayList<>();
            List<Object> turnModelResults = new ArrayList<>();
            for (List<String> step : steps) {
                Executor.Execution e = Executor.execute(world, setup, modelName, true, step);
                world = e.world();
                uncombined.add(ArrayVector.from(e.results()));
                turnModelResults.addAll(e.results());
            }
            Executor.Execution g = Executor.execute(world, setup, gtName, true, gtTurn);
            world = g.world();
            allModelResults.addAll(turnModelResults);
            executionResults.add(PyObjects.dict(
                    "model", ArrayVector.from(uncombined), "ground_truth", ArrayVector.from(g.results())));
            if (!gtTurn.isEmpty() && steps.isEmpty()) {
                return new Verdict(
                        false,
                        "multi_turn:empty_turn_model_response",
                        "Model response list is empty for turn " + t,
                        PyObjects.dict(
                                "details", PyObjects.dict("execution_result", ArrayVector.from(executionResults))),
                        world);
            }
            if (gtTurn.isEmpty()) continue;
            Verdict state = stateCheck(task, setup, world, modelName, gtName, executionResults);
            if (state != null) return state;
            List<Object> missing = missing(g.results(), allModelResults);
            if (!missing.isEmpty()) {
                return new Verdict(
                        false,
                        "multi_turn:execution_response_mismatch",
                        "Model response execution results so far does not "
                                + "contain all the ground truth response execution results for turn " + t + ".",
                        PyObjects.dict(
                                "details",
                                PyObjects.dict(
                                        "missing_items",
                                        ArrayVector.from(missing),
                                        "model_response (including all previous turns)",
                                        ArrayVector.from(allModelResults),
                                        "ground_truth_response (only the current turn)",
                                        ArrayVector.from(g.results()))),
                        world);
            }
        }
        return Verdict.ok(world);
    }

    private static Verdict stateCheck(
            MultiTurnData.Task task,
            TaskSetup setup,
            World world,
            String modelName,
            String gtName,
            List<Object> executionResults) {
        Globals globals = world.globals();
        for (String cls : task.involvedClasses()) {
            Backend model = world.instance(Executor.variable(modelName, true, setup.taskId(), cls));
            Backend truth = world.instance(Executor.variable(gtName, true, setup.taskId(), cls));
            Map<String, Object> ms = model.state(globals), gs = truth.state(globals);
            OrderedPMap<Object, Object> differences = OrderedPMap.empty();
            for (Map.Entry<String, Object> e : gs.entrySet()) {
                Object m = ms.get(e.getKey());
                if (!pyEq(globals.resolve(m), globals.resolve(e.getValue()))) {
                    differences =
                            differences.plus(e.getKey(), PyObjects.dict("model", m, "ground_truth", e.getValue()));
                }
            }
            if (!differences.isEmpty()) {
                return new Verdict(
                        false,
                        "multi_turn:instance_state_mismatch",
                        "Model instance for " + cls + " does not match the state with ground truth instance.",
                        PyObjects.dict(
                                "details",
                                PyObjects.dict(
                                        "differences",
                                        differences,
                                        "model_instance_state",
                                        ordered(ms),
                                        "ground_truth_instance_state",
                                        ordered(gs)),
                                "execution_result",
                                ArrayVector.from(executionResults)),
                        world);
            }
        }
        return null;
    }

    private static OrderedPMap<Object, Object> ordered(Map<String, Object> state) {
        OrderedPMap<Object, Object> out = OrderedPMap.empty();
        for (Map.Entry<String, Object> e : state.entrySet()) out = out.plus(e.getKey(), e.getValue());
        return out;
    }

    /** {@code _is_subsequence_unordered(ground_truth, model)}: the ground-truth results not matched one to one. */
    static List<Object> missing(List<String> groundTruth, List<Object> model) {
        List<Object> pool = new ArrayList<>(model);
        List<Object> missing = new ArrayList<>();
        for (String item : groundTruth) if (!pool.remove(item)) missing.add(item);
        return missing;
    }

    /**
     * Python's {@code ==} on state values: containers element by element, numbers by value, backend objects
     * ({@link StateNode}: gorilla's File/Directory, whose {@code __eq__} compares what they render) by rendering.
     */
    static boolean pyEq(Object a, Object b) {
        // The same object on both sides (the model's and the ground truth's instances often share their values: a
        // call the executor has seen on the same instance hands back the same objects) is equal unless a NaN inside
        // makes Python's == false (this model has no float identity, so a NaN never equals itself here).
        if (a == b && !holdsNaN(a)) return true;
        if (a instanceof StateNode || b instanceof StateNode) {
            return a instanceof StateNode
                    && b instanceof StateNode
                    && StateDump.canonicalText(a).equals(StateDump.canonicalText(b));
        }
        if (a instanceof Map<?, ?> m) {
            if (!(b instanceof Map<?, ?> n) || m.size() != n.size()) return false;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!n.containsKey(e.getKey()) || !pyEq(e.getValue(), n.get(e.getKey()))) return false;
            }
            return true;
        }
        if (a instanceof List<?> l) return b instanceof List<?> k && seqEq(l, k);
        if (a instanceof PyTuple t) return b instanceof PyTuple u && seqEq(t.items(), u.items());
        return PyObjects.eq(a, b);
    }

    /** Whether a NaN float is anywhere inside {@code o} (remembered per persistent container, by identity). */
    private static boolean holdsNaN(Object o) {
        return switch (o) {
            case Double d -> d.isNaN();
            case List<?> l -> {
                Boolean known = knownNaN(l);
                if (known != null) yield known;
                boolean any = false;
                for (Object x : l)
                    if (holdsNaN(x)) {
                        any = true;
                        break;
                    }
                yield rememberNaN(l, any);
            }
            case PyTuple t -> holdsNaN(t.items());
            case Map<?, ?> m -> {
                Boolean known = knownNaN(m);
                if (known != null) yield known;
                boolean any = false;
                for (Map.Entry<?, ?> e : m.entrySet())
                    if (holdsNaN(e.getKey()) || holdsNaN(e.getValue())) {
                        any = true;
                        break;
                    }
                yield rememberNaN(m, any);
            }
            case brokkr.python.PySet s -> {
                boolean any = false;
                for (Object x : s.members()) any |= holdsNaN(x);
                yield any;
            }
            case StateNode n -> true; // compared by their texts, as before
            default -> false;
        };
    }

    private record NaNFlag(Object container, boolean holds) {}

    /** Direct-mapped on the container's identity; only persistent containers are remembered. */
    private static final NaNFlag[] NAN_FLAGS = new NaNFlag[1 << 12];

    private static Boolean knownNaN(Object container) {
        if (!brokkr.python.TextMemo.remembers(container)) return null;
        NaNFlag f = NAN_FLAGS[System.identityHashCode(container) & (NAN_FLAGS.length - 1)];
        return f != null && f.container == container ? f.holds : null;
    }

    private static boolean rememberNaN(Object container, boolean holds) {
        if (brokkr.python.TextMemo.remembers(container))
            NAN_FLAGS[System.identityHashCode(container) & (NAN_FLAGS.length - 1)] = new NaNFlag(container, holds);
        return holds;
    }

    private static boolean seqEq(List<?> a, List<?> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (!pyEq(a.get(i), b.get(i))) return false;
        return true;
    }
}
