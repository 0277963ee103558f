package brokkr.domains.bfcl.multiturn;

import java.util.Map;

/**
 * One instance of an upstream backend class ({@code GorillaFileSystem}, {@code TradingBot}, ...) as an
 * immutable value: a call never changes it but returns a new instance ({@link Outcome}), so holding a
 * reference is a fork. Its class is described by a {@link BackendClass}.
 */
public interface Backend {
    /**
     * What {@code multi_turn_checker.state_checker} compares: every attribute in {@code vars(instance)}
     * not starting with {@code _}, in {@code vars()} order (the order attributes were first assigned), as
     * Python objects of {@code brokkr.python.PyObjects}' model or {@link StateNode}s. The conformance
     * corpora hash exactly this ({@link StateDump}). {@code globals} resolves attributes that hold
     * process-global objects by reference.
     */
    Map<String, Object> state(Globals globals);
}
