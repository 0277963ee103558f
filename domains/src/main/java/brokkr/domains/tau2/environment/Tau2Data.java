package brokkr.domains.tau2.environment;

import brokkr.value.Json;
import brokkr.value.Value;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.dataformat.toml.TomlFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The upstream tau2-bench data directory (a checkout's root, holding {@code data/tau2/...}) and
 * digest-checked reads from it. Every file a port reads is pinned by the SHA-256 its transcription was
 * proven against; a different file is an error naming the file and both digests.
 *
 * <p>The directory is the system property {@code brokkr.tau2.data}, else the environment variable
 * {@code BROKKR_TAU2_DATA}, else {@code shared/upstream/tau2-bench} beside the project
 * ({@link brokkr.data.DataDirs}).
 */
public final class Tau2Data {
    private final Path root;

    public Tau2Data(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** Pinned digests of the domain-independent files (upstream MANIFEST.md). */
    public static final Map<String, String> USER_SIMULATOR_DIGESTS = Map.of(
            "data/tau2/user_simulator/simulation_guidelines.md",
            "740a29dfa64d7bc08eea3bf7493575b914a63f744acbaf7f199ee07eddaf72d3",
            "data/tau2/user_simulator/simulation_guidelines_tools.md",
            "cbf3d8a4d8642fd04e559862f1afef55d7dd4e6a7e727ca49e239023c599de0c");

    /** Resolves the data directory as documented on the class. */
    public static Tau2Data locate() {
        try {
            return new Tau2Data(brokkr.data.DataDirs.locate(
                    "tau2-bench data directory",
                    "brokkr.tau2.data",
                    "BROKKR_TAU2_DATA",
                    "upstream/tau2-bench",
                    "data/tau2"));
        } catch (brokkr.data.DataDirs.NotFound e) {
            throw new Tau2DataException(e.getMessage());
        }
    }

    /** Reads {@code relPath} and checks its SHA-256 against {@code pinnedSha256}. */
    public byte[] read(String relPath, String pinnedSha256) {
        Path file = root.resolve(relPath);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tau2 data file " + file, e);
        }
        String actual = sha256Hex(bytes);
        if (!actual.equals(pinnedSha256)) {
            throw new Tau2DataException(
                    "tau2 data file " + file + " has sha256 " + actual + ", expected (pinned) " + pinnedSha256);
        }
        return bytes;
    }

    public String readText(String relPath, String pinnedSha256) {
        return new String(read(relPath, pinnedSha256), StandardCharsets.UTF_8);
    }

    private static final TomlFactory TOML = new TomlFactory();

    /**
     * A TOML file ({@code load_file} of a {@code .toml}) as Values, tables in file order: integers are
     * ints, floats floats, strings (the date-times upstream's files quote included) strs.
     */
    public Value readToml(String relPath, String pinnedSha256) {
        byte[] bytes = read(relPath, pinnedSha256);
        try (JsonParser p = TOML.createParser(bytes)) {
            return Json.readValue(p, p.nextToken());
        } catch (IOException e) {
            throw new Tau2DataException("tau2 data file " + root.resolve(relPath) + " is not TOML: " + e.getMessage());
        }
    }

    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** A missing data directory or a file whose digest differs from the pinned one. */
    public static final class Tau2DataException extends RuntimeException {
        public Tau2DataException(String message) {
            super(message);
        }
    }
}
