package brokkr.tool;

import brokkr.value.Value;

/**
 * The world a tool call works on. A tool reads and replaces the (immutable) world value here; when
 * the call then fails, the host keeps the value as it was at the failure, which is how transcribed
 * Python code that mutates in place and raises halfway keeps its partial writes.
 */
public final class WorldCell {
    private Value world;

    public WorldCell(Value world) {
        this.world = world;
    }

    public Value get() {
        return world;
    }

    public void set(Value world) {
        this.world = world;
    }
}
