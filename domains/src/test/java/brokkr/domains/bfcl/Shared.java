package brokkr.domains.bfcl;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the read-only {@code shared/} tree: walk up from the working directory to a sibling {@code shared/upstream}. */
final class Shared {
    private Shared() {}

    static Path shared() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared");
            if (Files.isDirectory(s.resolve("upstream"))) return s;
        }
        throw new IllegalStateException(
                "no shared/upstream above " + Path.of("").toAbsolutePath());
    }

    static Path conformance(String file) {
        return shared().resolve("conformance/bfcl").resolve(file);
    }

    private static BfclData data;

    static synchronized BfclData data() {
        if (data == null) data = BfclData.load();
        return data;
    }
}
