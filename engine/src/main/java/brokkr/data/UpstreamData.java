package brokkr.data;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where a benchmark family's upstream data comes from and what Brokkr pins of it, for
 * {@code ./brokkr data fetch}: the git repository and commit the transcription was proven against,
 * the folder of that repository that is Brokkr's data directory ({@code ""}: the checkout's root),
 * how to point Brokkr at it (environment variable, system property), and every file it reads with its
 * pinned sha256, by path under that folder.
 *
 * @param name the source's name on the command line ({@code tau2-bench}, {@code gorilla}), also the folder it is fetched into
 */
public record UpstreamData(
        String name,
        String url,
        String commit,
        String dataRoot,
        String envVar,
        String property,
        Map<String, Pin> pins) {
    /**
     * One pinned file. A {@code note} marks a pin that is not upstream's own file at the commit (a
     * reconstruction, a substitute from another commit) and says so: a fetched copy is expected to
     * differ from it, and the Brokkr code that reads the file will refuse the fetched one.
     */
    public record Pin(String sha256, String note) {
        public Pin {
            Objects.requireNonNull(sha256, "sha256");
            if (!sha256.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("not a sha256: " + sha256);
        }

        public static Pin of(String sha256) {
            return new Pin(sha256, null);
        }
    }

    public UpstreamData {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(commit, "commit");
        dataRoot = dataRoot == null ? "" : dataRoot;
        if (dataRoot.startsWith("/") || dataRoot.endsWith("/"))
            throw new IllegalArgumentException(
                    "dataRoot is a relative folder without slashes at its ends: " + dataRoot);
        pins = Collections.unmodifiableMap(new TreeMap<>(pins));
        for (String p : pins.keySet()) {
            if (p.startsWith("/") || p.contains("..") || p.contains("\\"))
                throw new IllegalArgumentException("not a relative path inside the data folder: " + p);
        }
    }

    /** A pin's path in the repository. */
    public String repositoryPath(String pinned) {
        return dataRoot.isEmpty() ? pinned : dataRoot + "/" + pinned;
    }

    /** Pinned files (sha256 by path) as pins without notes. */
    public static Map<String, Pin> pins(Map<String, String> digests) {
        Map<String, Pin> out = new TreeMap<>();
        digests.forEach((p, sha) -> out.put(p, Pin.of(sha)));
        return out;
    }
}
