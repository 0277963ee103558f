package brokkr.world;

import brokkr.value.Json;
import brokkr.value.Value;
import java.nio.file.Path;

/** Loading worlds. A world is an immutable {@link Value}: forking one is passing the reference. */
public final class Worlds {
    private Worlds() {}

    /** Reads a JSON world file (a tau2 {@code db.json}) with {@link Json#read}, keeping int/float and key order. */
    public static Value load(Path file) {
        return Json.read(file);
    }
}
