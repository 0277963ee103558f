package brokkr.provider.claudecode;

import brokkr.conversation.Candidate;
import brokkr.eval.ContentHash;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.provider.Effects;
import brokkr.run.UsageWindows;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * {@code claude-code:MODEL} ({@link ClaudeCodeProvider}), for any role: candidate, user simulator, judge. The
 * credential and base URL come from the environment ({@code CLAUDE_CODE_OAUTH_TOKEN} from
 * {@code claude setup-token}, else {@code ANTHROPIC_API_KEY}; {@code ANTHROPIC_BASE_URL}). Options:
 *
 * <ul>
 *   <li>{@code claude_cli: PATH}: the binary (default: {@link ClaudeCli#find()}); its {@code --version} is
 *       part of the candidate's content id ({@code cli_version}, added by {@link #pinned}), the path is not;</li>
 *   <li>{@code host_note: TEXT | false}: the note appended to every system prompt (default
 *       {@link ClaudeCodePrompt#DEFAULT_HOST_NOTE}); its digest is part of the content id
 *       ({@code host_note_sha256});</li>
 *   <li>operational (no id change): {@code timeout_seconds} (per call, default 300), {@code max_attempts}
 *       (default 5), {@code usage_threshold} (default {@value UsageWindows#DEFAULT_THRESHOLD}),
 *       {@code usage_reruns} (default {@value UsageWindows#DEFAULT_RERUNS}), {@code config_dir} (where each
 *       call's own config directory is made; in an experiment stored in a directory, {@code DIR/claude-code}
 *       ({@link #inExperiment}); elsewhere {@code BROKKR_CLAUDE_CONFIG_ROOT}, else a temporary directory).</li>
 * </ul>
 */
public final class ClaudeCodeModels implements ModelFactory {
    public static final String CLI_VERSION = "cli_version", HOST_NOTE_SHA256 = "host_note_sha256";
    /** The folder of an experiment's directory its candidates' config directories are made in. */
    public static final String CONFIG_DIR = "claude-code";

    static final Set<String> OPTIONS = Set.of(
            "claude_cli",
            "host_note",
            "timeout_seconds",
            "max_attempts",
            "usage_threshold",
            "usage_reruns",
            "config_dir",
            CLI_VERSION,
            HOST_NOTE_SHA256);

    private final Map<String, String> env;
    private final UsageWindows windows;
    private final Effects effects;

    public ClaudeCodeModels() {
        this(System.getenv(), UsageWindows.process(), Effects.system());
    }

    public ClaudeCodeModels(Map<String, String> env, UsageWindows windows, Effects effects) {
        this.env = Map.copyOf(env);
        this.windows = windows;
        this.effects = effects;
    }

    @Override
    public String provider() {
        return ClaudeCodeProvider.NAME;
    }

    @Override
    public String summary() {
        return "the Claude Code CLI as a model (CLAUDE_CODE_OAUTH_TOKEN or ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)";
    }

    @Override
    public Candidate create(ModelRef model) {
        return create(model, env);
    }

    @Override
    public Candidate create(ModelRef ref, Map<String, String> env) {
        PyDict o = ref.options();
        for (String k : o.keys())
            if (!OPTIONS.contains(k))
                throw new IllegalArgumentException("claude-code model option " + k + " is unknown (known: "
                        + String.join(", ", new java.util.TreeSet<>(OPTIONS)) + ")");
        ClaudeCli cli = cli(o);
        Path root = configRoot(o, env);
        var settings = new ClaudeCodeProvider.Settings(
                cli,
                hostNote(o),
                root,
                Duration.ofMillis(Math.round(number(o, "timeout_seconds", 300, 1, 86_400) * 1000)),
                (int) number(o, "max_attempts", 5, 1, 100),
                number(o, "usage_threshold", UsageWindows.DEFAULT_THRESHOLD, 0, 1),
                (int) number(o, "usage_reruns", UsageWindows.DEFAULT_RERUNS, 0, 100),
                windows,
                effects);
        return new ClaudeCodeProvider(ref.model(), settings, env);
    }

    /** {@code ref} with the CLI's version and the host note's digest among its options: both are the candidate's content. */
    @Override
    public ModelRef pinned(ModelRef ref) {
        PyDict o = ref.options();
        String note = hostNote(o);
        PyDict pinned = o.with(CLI_VERSION, Value.str(cli(o).version()))
                .with(HOST_NOTE_SHA256, note == null ? PyNone.NONE : Value.str(ContentHash.sha256(note)));
        return new ModelRef(ref.provider(), ref.model(), pinned);
    }

    /** Where an experiment's candidate makes its config directories: {@code DIR/claude-code}, unless {@code config_dir} says. */
    @Override
    public ModelRef inExperiment(ModelRef ref, Path dir) {
        if (ref.options().get("config_dir") != null) return ref;
        return new ModelRef(
                ref.provider(),
                ref.model(),
                ref.options()
                        .with("config_dir", Value.str(dir.resolve(CONFIG_DIR).toString())));
    }

    static ClaudeCli cli(PyDict o) {
        Value p = o.get("claude_cli");
        if (p == null || p.isNone()) return ClaudeCli.require();
        if (!(p instanceof PyStr s) || s.value().isBlank())
            throw new IllegalArgumentException(
                    "claude-code model option claude_cli must be the path of a claude binary");
        Path path = Path.of(s.value());
        if (!Files.isExecutable(path))
            throw new IllegalArgumentException(
                    "claude-code model option claude_cli: " + path + " is not an executable file");
        return ClaudeCli.at(path);
    }

    static String hostNote(PyDict o) {
        Value v = o.get("host_note");
        if (v == null) return ClaudeCodePrompt.DEFAULT_HOST_NOTE;
        if (v.isNone() || (v instanceof PyBool b && !b.value())) return null;
        if (v instanceof PyStr s) return s.value().isBlank() ? null : s.value();
        throw new IllegalArgumentException("claude-code model option host_note must be a text or false");
    }

    private static Path configRoot(PyDict o, Map<String, String> env) {
        try {
            Value v = o.get("config_dir");
            Path base;
            if (v instanceof PyStr s && !s.value().isBlank()) base = Path.of(s.value());
            else if (env.get("BROKKR_CLAUDE_CONFIG_ROOT") != null
                    && !env.get("BROKKR_CLAUDE_CONFIG_ROOT").isBlank())
                base = Path.of(env.get("BROKKR_CLAUDE_CONFIG_ROOT"));
            else {
                Path tmp = Files.createTempDirectory("brokkr-claude-code");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> Isolation.deleteTree(tmp)));
                return tmp;
            }
            Files.createDirectories(base);
            return Files.createTempDirectory(base, "claude-code-");
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot make a config directory for the Claude Code CLI: " + e.getMessage());
        }
    }

    private static double number(PyDict o, String k, double dflt, double min, double max) {
        Value v = o.get(k);
        if (v == null) return dflt;
        double d = switch (v) {
            case PyInt i -> i.value().doubleValue();
            case PyFloat f -> f.value();
            default -> throw new IllegalArgumentException("claude-code model option " + k + " must be a number");
        };
        if (d < min || d > max)
            throw new IllegalArgumentException(
                    "claude-code model option " + k + " must be from " + min + " to " + max + ", got " + d);
        return d;
    }
}
