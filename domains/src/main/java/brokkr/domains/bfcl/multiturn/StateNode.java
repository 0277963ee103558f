package brokkr.domains.bfcl.multiturn;

import brokkr.value.Value;

/**
 * A backend object inside a {@link Backend#state} that is not a built-in Python value (gorilla's
 * {@code File} / {@code Directory}): it renders itself in the canonical state dump
 * (e.g. {@code {"$file": {"content": ..., "name": ...}}}) from what its {@code __eq__} compares,
 * and the state check compares those renderings.
 */
public interface StateNode {
    /** The canonical rendering {@code R(x)} of the conformance README, as a JSON-like value. */
    Value render();

    /** Appends the canonical text of {@link #render} ({@link StateDump#writeCanonical}); a node may write it faster. */
    default void writeCanonical(StringBuilder sb) {
        sb.append(StateDump.canonical(render()));
    }
}
