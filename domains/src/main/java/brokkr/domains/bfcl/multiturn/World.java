package brokkr.domains.bfcl.multiturn;

import java.util.Map;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * The multi-turn world: what upstream keeps in the module globals of {@code multi_turn_utils} (every
 * backend instance under its variable name, e.g. {@code gpt_4_1_2025_04_14_FC_eval_multi_turn_base_0_GorillaFileSystem_instance})
 * plus the process-global cells the backends share ({@link Globals}). Immutable: forking is keeping a
 * reference (O(1)); the model's and the ground truth's instances of one checker run live in one world,
 * as they live in one process upstream.
 */
public record World(PMap<String, Backend> instances, Globals globals) {
    /** A pristine process: no instances, import-time globals. */
    public static final World EMPTY = new World(HashTreePMap.empty(), Globals.EMPTY);

    public Backend instance(String variable) {
        return instances.get(variable);
    }

    public World with(String variable, Backend instance, Globals newGlobals) {
        return new World(instances.plus(variable, instance), newGlobals);
    }

    public World withGlobals(Globals newGlobals) {
        return new World(instances, newGlobals);
    }

    public Map<String, Backend> asMap() {
        return instances;
    }

    /** What the checker compares of an instance ({@link Backend#state}), process-global references resolved. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> state(String variable) {
        Backend b = instances.get(variable);
        if (b == null) throw new IllegalArgumentException("no instance " + variable);
        return (Map<String, Object>) globals.resolve(b.state(globals));
    }
}
