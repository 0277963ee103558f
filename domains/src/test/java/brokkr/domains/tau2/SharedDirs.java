package brokkr.domains.tau2;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the read-only {@code shared/} tree: walk up from the working directory to a sibling {@code shared/upstream}. */
public final class SharedDirs {
    private SharedDirs() {}

    public static Path shared() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared");
            if (Files.isDirectory(s.resolve("upstream"))) return s;
        }
        throw new IllegalStateException(
                "no shared/upstream above " + Path.of("").toAbsolutePath());
    }

    public static Path tau2Data() {
        return shared().resolve("upstream/tau2-bench");
    }

    /** A file of a tau2 domain's conformance corpora ({@code shared/conformance/tau2/<domain>/}). */
    public static Path conformance(String domain, String file) {
        return shared().resolve("conformance/tau2").resolve(domain).resolve(file);
    }
}
