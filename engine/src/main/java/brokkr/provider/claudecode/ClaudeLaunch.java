package brokkr.provider.claudecode;

import brokkr.provider.EnvironmentKeys;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One start of the Claude Code CLI, isolated from the user's own Claude Code:
 *
 * <ul>
 *   <li>its own {@code CLAUDE_CONFIG_DIR} ({@link #configDir}: under the experiment directory for runs, a
 *       temporary directory in tests), and {@code HOME} pointed there too, so {@code ~/.claude} and
 *       {@code ~/.claude.json} are never read or written; no account profile is stored there, so the CLI
 *       has no e-mail to inject into the prompt;</li>
 *   <li>an environment holding only {@code PATH}, the credential ({@code CLAUDE_CODE_OAUTH_TOKEN} as
 *       {@code claude setup-token} gives, else {@code ANTHROPIC_API_KEY}), {@code ANTHROPIC_BASE_URL} when
 *       set, and switches that stop the CLI's own background traffic (auto-update, telemetry, error
 *       reports) and its thinking budget (a plain model call);</li>
 *   <li>a neutral working directory ({@link #NEUTRAL_WORK_DIR}, empty, the same for every start, git
 *       discovery stopped above it): the CLI tells the model its working directory, and one under the
 *       experiment directory would show the model the user's paths (a user name, a project), differing
 *       between machines;</li>
 *   <li>{@code -p --output-format stream-json --verbose}, no built-in tools ({@code --tools ""}), no
 *       session saved, the system prompt from a file ({@code --system-prompt-file}: an argument would be
 *       capped at 128 KiB by Linux).</li>
 * </ul>
 *
 * Options for an agent session ({@code harness: claude-code}): {@link Builder#mcpConfig} (adds
 * {@code --mcp-config FILE --strict-mcp-config}), {@link Builder#streamInput} ({@code --input-format
 * stream-json}), {@link Builder#maxTurns}, {@link Builder#allowedTools}, {@link Builder#extraArgs}.
 * The credential travels in the environment only: {@link #argv()} holds none, and {@link #recorded}
 * is redacted besides.
 */
public final class ClaudeLaunch {
    /** The environment variables a credential may come from, in order of preference. */
    public static final List<String> CREDENTIAL_VARIABLES = List.of("CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_API_KEY");

    /** Set in every start: no auto-update, telemetry or error reports, no thinking budget. */
    static final Map<String, String> QUIET = Map.of(
            "DISABLE_AUTOUPDATER", "1",
            "DISABLE_TELEMETRY", "1",
            "DISABLE_ERROR_REPORTING", "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1",
            "MAX_THINKING_TOKENS", "0");

    /**
     * The working directory of every start: {@code brokkr-claude-code/work} in the temporary directory,
     * which holds nothing (the CLI runs with no tools and saves no session, so it writes nothing there).
     */
    public static final Path NEUTRAL_WORK_DIR = Path.of(
                    System.getProperty("java.io.tmpdir"), "brokkr-claude-code", "work")
            .toAbsolutePath();

    private final ClaudeCli cli;
    private final Path configDir;
    private final Path workDir;
    private final Path systemPromptFile;
    private final Path mcpConfigFile;
    private final List<String> argv;
    private final Map<String, String> environment;
    private final EnvironmentKeys secrets;

    private ClaudeLaunch(Builder b) {
        this.cli = Objects.requireNonNull(b.cli, "cli");
        this.configDir = Objects.requireNonNull(b.configDir, "configDir").toAbsolutePath();
        this.workDir = NEUTRAL_WORK_DIR;
        // Content-addressed: concurrent starts sharing a config directory never overwrite each other's files.
        this.systemPromptFile =
                b.systemPrompt == null ? null : configDir.resolve("system-prompt-" + digest(b.systemPrompt) + ".txt");
        this.mcpConfigFile =
                b.mcpConfig == null ? null : configDir.resolve("mcp-" + digest(PyJson.dumps(b.mcpConfig)) + ".json");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", b.env.getOrDefault("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
        env.put("HOME", configDir.toString());
        env.put("CLAUDE_CONFIG_DIR", configDir.toString());
        env.put("GIT_CEILING_DIRECTORIES", configDir + ":" + workDir.getParent());
        String credential = null;
        for (String v : CREDENTIAL_VARIABLES) {
            String value = b.env.get(v);
            if (value != null && !value.isBlank()) {
                env.put(v, value.strip());
                credential = v;
                break;
            }
        }
        String base = b.env.get("ANTHROPIC_BASE_URL");
        if (credential == null && (base == null || base.isBlank()))
            throw new IllegalArgumentException("neither CLAUDE_CODE_OAUTH_TOKEN (from `claude setup-token`) nor "
                    + "ANTHROPIC_API_KEY is set: the Claude Code CLI has no credential");
        if (base != null && !base.isBlank()) env.put("ANTHROPIC_BASE_URL", base.strip());
        env.putAll(QUIET);
        env.putAll(b.extraEnv);
        this.environment = Map.copyOf(env);
        this.secrets = EnvironmentKeys.of(environment);

        List<String> a = new ArrayList<>();
        a.add(cli.binary().toString());
        a.add("-p");
        a.addAll(List.of("--output-format", "stream-json", "--verbose"));
        if (b.streamInput) a.addAll(List.of("--input-format", "stream-json"));
        a.addAll(List.of("--tools", String.join(",", b.builtinTools)));
        a.add("--no-session-persistence");
        if (b.model != null) a.addAll(List.of("--model", b.model));
        if (b.systemPrompt != null) a.addAll(List.of("--system-prompt-file", systemPromptFile.toString()));
        if (b.maxTurns != null) a.addAll(List.of("--max-turns", String.valueOf(b.maxTurns)));
        if (b.mcpConfig != null) a.addAll(List.of("--mcp-config", mcpConfigFile.toString(), "--strict-mcp-config"));
        if (!b.allowedTools.isEmpty()) a.addAll(List.of("--allowedTools", String.join(",", b.allowedTools)));
        a.addAll(b.extraArgs);
        this.argv = List.copyOf(a);
        this.systemPrompt = b.systemPrompt;
        this.mcpConfig = b.mcpConfig;
    }

    private final String systemPrompt;
    private final PyDict mcpConfig;

    /** The first 16 hex digits of the SHA-256 of {@code text}'s UTF-8 bytes. */
    static String digest(String text) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    public static Builder builder(ClaudeCli cli, Path configDir) {
        return new Builder(cli, configDir);
    }

    /** The command line, credential-free. */
    public List<String> argv() {
        return argv;
    }

    /** The environment the CLI gets (it holds the credential: never record or print it; see {@link #recorded}). */
    public Map<String, String> environment() {
        return environment;
    }

    public Path configDir() {
        return configDir;
    }

    /** Removes the config directory and everything the CLI wrote there (its stderr log, the MCP config with its token). */
    public void removeConfigDir() {
        Isolation.deleteTree(configDir);
    }

    public Path workDir() {
        return workDir;
    }

    public String systemPrompt() {
        return systemPrompt;
    }

    /** Every secret of {@link #environment()} scrubbed from {@code text} (the shared redactor). */
    public String redact(String text) {
        return secrets.redact(text);
    }

    /**
     * The exact request Brokkr made, as recorded: {@code {"argv": [...], "system_prompt": ..., "mcp_config":
     * ..., "stdin": ...}}, the variable names of the environment (never their values) under
     * {@code "env"}, redacted. Deterministic for a given launch and input.
     */
    public String recorded(String stdin) {
        PyDict.Builder b = PyDict.builder();
        b.put("argv", PyList.of(argv.stream().map(s -> (Value) Value.str(s)).toList()));
        b.put(
                "env",
                PyList.of(environment.keySet().stream()
                        .sorted()
                        .map(s -> (Value) Value.str(s))
                        .toList()));
        if (systemPrompt != null) b.put("system_prompt", Value.str(systemPrompt));
        if (mcpConfig != null) b.put("mcp_config", mcpConfig);
        b.put("stdin", Value.str(stdin));
        return redact(PyJson.dumps(b.build()));
    }

    /**
     * Writes the config directory's files (system prompt, MCP config; the directory and the neutral working directory
     * created when missing) and starts the CLI, stdin and stdout piped, stderr to {@code stderr.log} in
     * the config directory.
     */
    public Process start() throws IOException {
        Files.createDirectories(configDir);
        Files.createDirectories(workDir);
        if (systemPrompt != null) Files.writeString(systemPromptFile, systemPrompt, StandardCharsets.UTF_8);
        if (mcpConfig != null) Files.writeString(mcpConfigFile, PyJson.dumps(mcpConfig), StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().clear();
        pb.environment().putAll(environment);
        pb.directory(workDir.toFile());
        pb.redirectError(
                ProcessBuilder.Redirect.appendTo(configDir.resolve("stderr.log").toFile()));
        return pb.start();
    }

    /**
     * What one {@code -p} call gave: the events read, the exit code (-1 when it was killed at the
     * timeout), the raw stdout (redacted: for the record), and how long it took.
     */
    public record Outcome(
            StreamJson.Reader events, int exitCode, boolean timedOut, String stdout, long durationMillis) {}

    /**
     * Starts the CLI, writes {@code stdin} (the prompt of a {@code -p} call, or stream-json user lines)
     * and closes it, reads stdout to the end as stream-json, and waits for the exit; a process still
     * running after {@code timeout} is killed (with its children) and reported {@link Outcome#timedOut}.
     */
    public Outcome run(String stdin, java.time.Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = start();
        StreamJson.Reader reader = new StreamJson.Reader();
        StringBuilder raw = new StringBuilder();
        Thread feeder = Thread.ofVirtual().start(() -> {
            try (var os = p.getOutputStream()) {
                os.write(stdin.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the CLI exited before reading its input: its output says why
            }
        });
        Thread drainer = Thread.ofVirtual().start(() -> {
            try (var in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (raw) {
                        raw.append(line).append('\n');
                    }
                    synchronized (reader) {
                        reader.accept(line);
                    }
                }
            } catch (IOException e) {
                // killed at the timeout
            }
        });
        boolean done = p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
        }
        drainer.join(10_000);
        feeder.join(1_000);
        String out;
        synchronized (raw) {
            out = redact(raw.toString());
        }
        long ms = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        synchronized (reader) {
            return new Outcome(reader, done ? p.exitValue() : -1, !done, out, ms);
        }
    }

    /** The CLI's stderr so far (redacted, last {@code max} characters), for error messages. */
    public String stderrTail(int max) {
        try {
            Path f = configDir.resolve("stderr.log");
            if (!Files.exists(f)) return "";
            String s = Files.readString(f, StandardCharsets.UTF_8);
            return redact(s.length() <= max ? s : s.substring(s.length() - max));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }

    public static final class Builder {
        private final ClaudeCli cli;
        private final Path configDir;
        private Map<String, String> env = System.getenv();
        private final Map<String, String> extraEnv = new LinkedHashMap<>();
        private String model;
        private String systemPrompt;
        private Integer maxTurns;
        private PyDict mcpConfig;
        private boolean streamInput;
        private List<String> builtinTools = List.of();
        private List<String> allowedTools = List.of();
        private final List<String> extraArgs = new ArrayList<>();

        private Builder(ClaudeCli cli, Path configDir) {
            this.cli = cli;
            this.configDir = configDir;
        }

        /** Where the credential and {@code ANTHROPIC_BASE_URL} come from (default: the process environment). */
        public Builder env(Map<String, String> env) {
            this.env = Map.copyOf(env);
            return this;
        }

        /** A further variable for the CLI ({@code CLAUDE_CODE_MAX_RETRIES}, {@code MCP_TIMEOUT}, ...). */
        public Builder putEnv(String name, String value) {
            extraEnv.put(name, value);
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        /** Replaces Claude Code's own system prompt (the CLI still prepends its one-line SDK identity). */
        public Builder systemPrompt(String systemPrompt) {
            this.systemPrompt = systemPrompt;
            return this;
        }

        public Builder maxTurns(Integer maxTurns) {
            this.maxTurns = maxTurns;
            return this;
        }

        /** An MCP configuration ({@code {"mcpServers": {...}}}), written to a file and passed with {@code --strict-mcp-config}. */
        public Builder mcpConfig(PyDict mcpConfig) {
            this.mcpConfig = mcpConfig;
            return this;
        }

        /** {@code --input-format stream-json}: a persistent session fed user messages on stdin. */
        public Builder streamInput(boolean streamInput) {
            this.streamInput = streamInput;
            return this;
        }

        /** Built-in tools to keep (default none: {@code --tools ""}). */
        public Builder builtinTools(List<String> tools) {
            this.builtinTools = List.copyOf(tools);
            return this;
        }

        /** Tools allowed without a permission prompt ({@code --allowedTools}, e.g. {@code mcp__brokkr}). */
        public Builder allowedTools(List<String> tools) {
            this.allowedTools = List.copyOf(tools);
            return this;
        }

        public Builder extraArgs(List<String> args) {
            extraArgs.addAll(args);
            return this;
        }

        public ClaudeLaunch build() {
            return new ClaudeLaunch(this);
        }
    }
}
