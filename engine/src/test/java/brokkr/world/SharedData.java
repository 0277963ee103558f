package brokkr.world;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the read-only shared data: the {@code shared} directory beside the project root. */
final class SharedData {
    private SharedData() {}

    static Path tau2Db(String domain) {
        Path rel = Path.of("shared", "upstream", "tau2-bench", "data", "tau2", "domains", domain, "db.json");
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve(rel);
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no " + rel + " beside the project root (looked upwards from "
                + Path.of("").toAbsolutePath() + ")");
    }
}
