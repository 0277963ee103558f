package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.TaskSetup;
import brokkr.domains.bfcl.multiturn.World;
import brokkr.python.PyObjects;
import java.util.List;
import java.util.Map;

/**
 * One memory category's chain as upstream's inference runs it ({@code _llm_response_generation} with
 * {@code populate_initial_settings_for_memory_test_cases}): entries in order, each with its own instance (the
 * executor's cache is by test id) made from {@code initial_config = {MemoryAPI_<b>: {model_result_dir, scenario,
 * test_id, test_category}}}, so a non-first entry loads what the entry before it flushed; a prerequisite entry is
 * flushed at its end. An immutable value: every step returns a new run, so keeping one is a fork (the same world,
 * snapshot files included).
 *
 * @param backend {@code MemoryAPI_kv}, {@code MemoryAPI_vector} or {@code MemoryAPI_rec_sum}
 * @param testId the entry being run (null before the first)
 */
public record MemoryRun(String backend, String scenario, String model, World world, String testId) {
    /** The run before any entry, on an empty result directory. */
    public static MemoryRun start(String backend, String scenario, String model) {
        if (!backend.startsWith("MemoryAPI_")) throw new IllegalArgumentException("not a memory backend: " + backend);
        return new MemoryRun(backend, scenario, model, World.EMPTY, null);
    }

    /** The test category, {@code memory_<backend type>}. */
    public String category() {
        return "memory_" + backend.substring("MemoryAPI_".length());
    }

    /** {@code extract_test_category_from_id(test_id)}: the id up to its last '_'. */
    static String categoryOf(String testId) {
        String id = testId.contains(":") ? testId.substring(0, testId.indexOf(':')) : testId;
        int us = id.lastIndexOf('_');
        return us < 0 ? id : id.substring(0, us);
    }

    /** The setup of entry {@code id}: its initial_config as upstream populates it (the result directory is the world's root). */
    public TaskSetup setup(String id) {
        Map<Object, Object> inner = PyObjects.dict(
                "model_result_dir", "", "scenario", scenario, "test_id", id, "test_category", categoryOf(id));
        return new TaskSetup(id, List.of(backend), PyObjects.dict(backend, inner), false);
    }

    /** Entry {@code id} begins: its instance is made ({@code execute_multi_turn_func_call([], ...)}). */
    public MemoryRun enter(String id) {
        World w = Executor.execute(world, setup(id), model, false, List.of()).world();
        return new MemoryRun(backend, scenario, model, w, id);
    }

    private String variable() {
        if (testId == null) throw new IllegalStateException("no entry entered");
        return Executor.variable(model, false, testId, backend);
    }

    /** The current entry's instance. */
    public MemoryBackend instance() {
        return (MemoryBackend) world.instance(variable());
    }

    /** One {@code execute_multi_turn_func_call(calls, ...)} of the current entry (the run is not changed: {@link #with}). */
    public Executor.Execution execute(List<String> calls) {
        if (testId == null) throw new IllegalStateException("no entry entered");
        return Executor.execute(world, setup(testId), model, false, calls);
    }

    public MemoryRun with(World w) {
        return new MemoryRun(backend, scenario, model, w, testId);
    }

    /** {@code _flush_memory_to_local_file()} of the current entry's instance. */
    public MemoryRun flush() {
        return with(world.withGlobals(instance().flush(world.globals())));
    }

    /** The snapshot files written so far, by path relative to the result directory. */
    public Map<String, String> files() {
        return MemorySnapshots.files(world.globals());
    }

    /** The current entry's first system message ({@link MemoryPrompts#systemMessage}); {@code question}: not a prerequisite. */
    public String systemMessage(boolean question) {
        return MemoryPrompts.systemMessage(category(), scenario, instance().contextDump(), question);
    }
}
