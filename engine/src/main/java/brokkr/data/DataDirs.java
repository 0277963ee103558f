package brokkr.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where upstream data lives: one rule for every benchmark. A directory named by a system property,
 * else by an environment variable, else {@code shared/<relative>} beside the project — found by looking
 * upwards from the Brokkr installation ({@code -Dbrokkr.home}, set by the launcher) and from the working
 * directory, so {@code ../shared} works from the repository root, from a module folder (tests) and
 * from anywhere the launcher is called.
 */
public final class DataDirs {
    private DataDirs() {}

    /** A data directory that was not found; the message says what was tried and how to set it. */
    public static final class NotFound extends RuntimeException {
        public NotFound(String message) {
            super(message);
        }
    }

    /**
     * @param what        what the directory holds, for the error message (e.g. "tau2-bench data")
     * @param property    the system property that names it
     * @param envVar      the environment variable that names it
     * @param underShared its path below {@code shared/}
     * @param marker      a path inside it that must exist for a candidate to count
     */
    public static Path locate(String what, String property, String envVar, String underShared, String marker) {
        return locate(what, property, envVar, underShared, marker, System.getenv());
    }

    static Path locate(
            String what, String property, String envVar, String underShared, String marker, Map<String, String> env) {
        String prop = System.getProperty(property);
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        String fromEnv = env.get(envVar);
        if (fromEnv != null && !fromEnv.isBlank()) return Path.of(fromEnv);
        Optional<Path> found = findUpwards(underShared, marker);
        if (found.isPresent()) return found.get();
        throw new NotFound(what + " not found: set -D" + property + "=DIR or " + envVar + "=DIR, or put it at shared/"
                + underShared + " beside the project (looked upwards from " + starts() + ")");
    }

    /** {@code shared/<underShared>} in the nearest ancestor of the installation or working directory that has one. */
    public static Optional<Path> findUpwards(String underShared, String marker) {
        for (Path start : starts()) {
            for (Path d = start; d != null; d = d.getParent()) {
                Path candidate = d.resolve("shared").resolve(underShared);
                if (Files.exists(marker == null ? candidate : candidate.resolve(marker)))
                    return Optional.of(candidate.normalize());
            }
        }
        return Optional.empty();
    }

    private static List<Path> starts() {
        Set<Path> starts = new LinkedHashSet<>();
        String home = System.getProperty("brokkr.home");
        if (home != null && !home.isBlank())
            starts.add(Path.of(home).toAbsolutePath().normalize());
        starts.add(Path.of("").toAbsolutePath());
        return new ArrayList<>(starts);
    }
}
