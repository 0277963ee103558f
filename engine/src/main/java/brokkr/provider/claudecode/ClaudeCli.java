package brokkr.provider.claudecode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The Claude Code CLI binary Brokkr runs, and its version. Found, first match wins:
 *
 * <ol>
 *   <li>the system property {@value #PROPERTY};</li>
 *   <li>the environment variable {@value #ENV};</li>
 *   <li>the project-local pinned install, {@value #PROJECT_LOCAL} under the project root (the first
 *       directory upwards from the working directory that holds {@code tools/claude-code/package.json};
 *       {@code tools/claude-code/install.sh} puts {@value #PINNED_VERSION} there).</li>
 * </ol>
 *
 * A candidate's {@code claude_cli: PATH} option names a binary explicitly and bypasses the lookup. The
 * {@code --version} text is read once per path (and file modification time) and is part of a
 * candidate's content id: a changed binary starts fresh cells.
 */
public final class ClaudeCli {
    public static final String PROPERTY = "brokkr.claude.cli";
    public static final String ENV = "BROKKR_CLAUDE_CLI";
    public static final String PROJECT_LOCAL = "tools/claude-code/node_modules/.bin/claude";
    /** The version tools/claude-code/package.json pins (and CI installs). */
    public static final String PINNED_VERSION = "2.1.328";

    private static final Map<String, String> VERSIONS = new ConcurrentHashMap<>();

    private final Path binary;

    private ClaudeCli(Path binary) {
        this.binary = binary;
    }

    /** The binary at {@code path} (not checked until used). */
    public static ClaudeCli at(Path path) {
        return new ClaudeCli(path.toAbsolutePath().normalize());
    }

    /** The binary found as the class comment says, or empty when none is there. */
    public static Optional<ClaudeCli> find() {
        return find(
                System.getProperty(PROPERTY), System.getenv(ENV), Path.of("").toAbsolutePath());
    }

    /** {@link #find()} with its inputs explicit (tests). */
    static Optional<ClaudeCli> find(String property, String env, Path workingDir) {
        for (String p : new String[] {property, env}) {
            if (p != null && !p.isBlank()) {
                Path path = Path.of(p.strip());
                return Files.isExecutable(path) ? Optional.of(at(path)) : Optional.empty();
            }
        }
        for (Path d = workingDir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("tools/claude-code/package.json"))) {
                Path b = d.resolve(PROJECT_LOCAL);
                return Files.isExecutable(b) ? Optional.of(at(b)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * The binary found, or an error saying how to install it: {@code tools/claude-code/install.sh}, or
     * the property / variable to set.
     */
    public static ClaudeCli require() {
        return find().orElseThrow(() -> new IllegalStateException("the Claude Code CLI is not installed: run "
                + "tools/claude-code/install.sh (npm install of @anthropic-ai/claude-code@" + PINNED_VERSION
                + " into tools/claude-code/), or set " + ENV + " (or -D" + PROPERTY + ") to a claude binary"));
    }

    public Path binary() {
        return binary;
    }

    /**
     * The first line of {@code claude --version} ({@code "2.1.328 (Claude Code)"}), read once per path and
     * modification time. The CLI is run with an empty environment but {@code PATH} and a throwaway
     * config directory, so reading the version touches no user state.
     */
    public String version() {
        String key;
        try {
            key = binary + "@" + Files.getLastModifiedTime(binary).toMillis() + ":" + Files.size(binary);
        } catch (IOException e) {
            throw new IllegalStateException("the Claude Code CLI " + binary + " cannot be read: " + e.getMessage());
        }
        return VERSIONS.computeIfAbsent(key, k -> readVersion());
    }

    private String readVersion() {
        Path config = null;
        try {
            config = Files.createTempDirectory("brokkr-claude-version");
            ProcessBuilder pb = new ProcessBuilder(List.of(binary.toString(), "--version"));
            pb.environment().clear();
            pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            pb.environment().put("HOME", config.toString());
            pb.environment().put("CLAUDE_CONFIG_DIR", config.toString());
            pb.redirectErrorStream(true);
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = pb.start();
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(binary + " --version did not finish in 60 s");
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0 || text.isEmpty())
                throw new IllegalStateException(binary + " --version failed (exit " + p.exitValue() + "): " + text);
            return text.lines().findFirst().orElseThrow();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary + " --version: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading " + binary + " --version");
        } finally {
            if (config != null) Isolation.deleteTree(config);
        }
    }

    @Override
    public String toString() {
        return "ClaudeCli[" + binary + "]";
    }
}
