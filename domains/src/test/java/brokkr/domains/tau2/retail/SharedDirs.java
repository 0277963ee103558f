package brokkr.domains.tau2.retail;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the read-only {@code shared/} tree: walk up from the working directory to a sibling {@code shared/upstream}. */
final class SharedDirs {
    private SharedDirs() {}

    static Path shared() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared");
            if (Files.isDirectory(s.resolve("upstream"))) return s;
        }
        throw new IllegalStateException("no shared/upstream above " + Path.of("").toAbsolutePath());
    }

    static Path tau2Data() { return shared().resolve("upstream/tau2-bench"); }

    static Path conformance(String file) { return shared().resolve("conformance/tau2/retail").resolve(file); }
}
