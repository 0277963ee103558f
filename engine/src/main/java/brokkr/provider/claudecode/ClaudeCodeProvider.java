package brokkr.provider.claudecode;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.provider.Effects;
import brokkr.provider.ModelProvider;
import brokkr.provider.RetryPolicy;
import brokkr.provider.Wire;
import brokkr.run.UsageWindows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code provider: claude-code}: the Claude Code CLI as a plain model. One model step is one {@code claude -p}
 * call ({@link ClaudeLaunch}: isolated config directory, no built-in tools, {@code --max-turns 1}) whose
 * system prompt and prompt {@link ClaudeCodePrompt} renders and whose reply {@link ClaudeCodeReplies} reads
 * back.
 *
 * <p><b>Errors.</b> An error result ({@link StreamJson.Reader#error}) is an infrastructure failure, never a
 * model reply: retried (the CLI's own retries are off, {@code CLAUDE_CODE_MAX_RETRIES=0}, so each attempt is
 * recorded) for 429s, overload, 5xx and a process that gave no result, failed at once otherwise. A call the
 * subscription's usage window refused is reported to {@link UsageWindows} and fails at once with
 * {@link UsageWindows#REFUSED} in its message: the runner pauses until the reset and runs the cell again.
 * {@code max_turns} without an API error is the model calling a tool natively, which is a reply.
 *
 * <p><b>Records.</b> Every attempt is a {@link ModelCall} whose request is {@link ClaudeLaunch#recorded} (argv,
 * the environment's variable names, system prompt, stdin), whose response is the CLI's stream-json output,
 * with status 200 for a reply, the API's status for an API error, 0 when none; tokens and the CLI's cost
 * estimate are in the output's {@code result} line ({@code modelUsage}, {@code total_cost_usd}) and the
 * message's {@link brokkr.conversation.Usage}. Every credential of the CLI's environment is redacted from all
 * of it.
 */
public final class ClaudeCodeProvider implements ModelProvider, ClaudeCodeCli {
    public static final String NAME = "claude-code";
    private static final System.Logger LOG = System.getLogger("brokkr.provider");

    /**
     * How the provider runs: the binary, the host note (null: none), the root under which each call gets its
     * own config directory, per-attempt timeout, attempts, usage threshold and reruns, where windows are
     * reported, and the waits between attempts.
     */
    public record Settings(
            ClaudeCli cli,
            String hostNote,
            Path configRoot,
            Duration timeout,
            int maxAttempts,
            double usageThreshold,
            int usageReruns,
            UsageWindows windows,
            Effects effects) {
        public Settings {
            Objects.requireNonNull(cli, "cli");
            Objects.requireNonNull(configRoot, "configRoot");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(windows, "windows");
            Objects.requireNonNull(effects, "effects");
            if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    private final String model;
    private final Settings settings;
    private final Map<String, String> env;
    private final RetryPolicy retry;
    private final String source;
    private final AtomicLong calls = new AtomicLong();

    public ClaudeCodeProvider(String model, Settings settings, Map<String, String> env) {
        this.model = Objects.requireNonNull(model, "model");
        this.settings = settings;
        this.env = Map.copyOf(env);
        this.retry = new RetryPolicy(
                settings.maxAttempts(), Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(120));
        // Windows belong to the credential's account: one source per kind of credential and base URL.
        this.source = NAME
                + (env.containsKey("CLAUDE_CODE_OAUTH_TOKEN") ? " subscription" : " api key")
                + (env.get("ANTHROPIC_BASE_URL") == null ? "" : " at " + env.get("ANTHROPIC_BASE_URL"));
        ClaudeLaunch.builder(settings.cli(), settings.configRoot()).env(env).build(); // a missing credential: now
    }

    @Override
    public String provider() {
        return NAME;
    }

    @Override
    public String model() {
        return model;
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public String baseUrl() {
        String b = env.get("ANTHROPIC_BASE_URL");
        return b == null || b.isBlank() ? "claude-code" : brokkr.provider.HttpProvider.withoutCredentials(b);
    }

    /**
     * An agent session's launch ({@code harness: claude-code}): this candidate's model and credential, a config
     * directory of its own under the config root (the CLI's own retries stay on: a session has no step to retry).
     */
    @Override
    public ClaudeLaunch.Builder launch() {
        return ClaudeLaunch.builder(settings.cli(), settings.configRoot().resolve("session-" + calls.incrementAndGet()))
                .env(env)
                .model(model);
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
        String system = ClaudeCodePrompt.systemPrompt(history, tools, settings.hostNote());
        String prompt = ClaudeCodePrompt.prompt(history);
        Set<String> toolNames = new LinkedHashSet<>();
        for (ToolSpec t : tools) toolNames.add(t.name());
        int turn = (int)
                history.stream().filter(m -> m instanceof Message.Assistant).count();
        List<ModelCall> records = new ArrayList<>();
        String lastError = null;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            Path dir = settings.configRoot().resolve("call-" + calls.incrementAndGet());
            ClaudeLaunch launch = ClaudeLaunch.builder(settings.cli(), dir)
                    .env(env)
                    .model(model)
                    .systemPrompt(system)
                    .maxTurns(1)
                    .putEnv("CLAUDE_CODE_MAX_RETRIES", "0")
                    .build();
            String request = launch.recorded(prompt);
            long startedAt = settings.effects().clock().millis();
            ClaudeLaunch.Outcome out;
            try {
                out = launch.run(prompt, settings.timeout());
            } catch (IOException e) {
                String error = "cannot start " + settings.cli().binary() + ": " + launch.redact(e.getMessage());
                records.add(new ModelCall(NAME, model, attempt, request, 0, null, error, startedAt, 0));
                throw new InfrastructureFailure(describe() + ": " + error, records, null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                records.add(new ModelCall(NAME, model, attempt, request, 0, null, "interrupted", startedAt, 0));
                throw new InfrastructureFailure(describe() + ": interrupted", records, null);
            } finally {
                Isolation.deleteTree(dir);
            }
            StreamJson.Reader events = out.events();
            reportWindows(events);
            Optional<StreamJson.CliError> error = events.error();
            if (out.timedOut())
                error = Optional.of(new StreamJson.CliError(
                        StreamJson.ErrorKind.NO_RESULT,
                        "no answer within " + settings.timeout().toSeconds() + " s (timeout_seconds)",
                        0,
                        null));
            if (error.isPresent()
                    && error.get().kind() == StreamJson.ErrorKind.MAX_TURNS
                    && !events.toolUses().isEmpty())
                error = Optional.empty(); // a native tool call: the reply is the call
            if (error.isEmpty()) {
                Message.Assistant message = ClaudeCodeReplies.decode(
                        launch.redact(events.text()),
                        events.toolUses(),
                        toolNames,
                        turn,
                        events.usage().usage());
                records.add(new ModelCall(
                        NAME, model, attempt, request, 200, out.stdout(), null, startedAt, out.durationMillis()));
                return new Turn(message, records);
            }
            StreamJson.CliError e = error.get();
            String text = e.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + (e.status() > 0 ? " (HTTP " + e.status() + ")" : "")
                    + ": " + launch.redact(e.message())
                    + (e.kind() == StreamJson.ErrorKind.NO_RESULT
                            ? "; exit " + out.exitCode() + "; stderr: " + Wire.clip(launch.stderrTail(300), 300)
                            : "");
            if (e.kind() == StreamJson.ErrorKind.USAGE_LIMIT) text = launch.redact(refusal(events, e));
            records.add(new ModelCall(
                    NAME, model, attempt, request, e.status(), out.stdout(), text, startedAt, out.durationMillis()));
            lastError = text;
            if (!e.kind().retryable()) throw new InfrastructureFailure(describe() + ": " + text, records, null);
            if (attempt == retry.maxAttempts()) break;
            Duration wait = retry.delay(attempt, settings.effects().jitter().getAsDouble(), Optional.empty());
            LOG.log(
                    System.Logger.Level.WARNING,
                    "{0} attempt {1}/{2} failed ({3}); retrying in {4} ms",
                    describe(),
                    String.valueOf(attempt),
                    String.valueOf(retry.maxAttempts()),
                    Wire.clip(text, 300),
                    String.valueOf(wait.toMillis()));
            try {
                settings.effects().sleeper().sleep(wait);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new InfrastructureFailure(describe() + ": interrupted while waiting to retry", records, null);
            }
        }
        throw new InfrastructureFailure(
                describe() + ": " + records.size() + " attempts failed; last: " + Wire.clip(lastError, 500),
                records,
                null);
    }

    /** A refusal of a usage window, reported to {@link UsageWindows}: the failure's text, holding {@link UsageWindows#REFUSED}. */
    private String refusal(StreamJson.Reader events, StreamJson.CliError e) {
        Instant reset = e.resetsAt() == null ? null : Instant.ofEpochSecond(e.resetsAt());
        String window = events.lastRateLimit()
                .map(StreamJson.RateLimitInfo::rateLimitType)
                .orElse(null);
        settings.windows().refused(source, window, reset, settings.usageReruns());
        return UsageWindows.REFUSED + " (" + (window == null ? "usage limit" : window)
                + (reset == null ? "" : ", resets " + reset) + "): " + e.message();
    }

    /** A harness turn's windows and refusal, as {@link #next} reads a call's ({@link ClaudeCodeCli#usageWindows}). */
    @Override
    public String usageWindows(StreamJson.Reader turn) {
        reportWindows(turn);
        Optional<StreamJson.CliError> e = turn.error();
        return e.isPresent() && e.get().kind() == StreamJson.ErrorKind.USAGE_LIMIT ? refusal(turn, e.get()) : null;
    }

    /** Every window the call's {@code rate_limit_event}s reported, to {@link UsageWindows}. */
    private void reportWindows(StreamJson.Reader events) {
        for (StreamJson.RateLimitInfo info : events.rateLimits().values()) {
            Map<String, StreamJson.Window> windows = info.windows();
            if (windows.isEmpty() && info.utilization() != null && info.resetsAt() != null)
                windows = Map.of(
                        info.rateLimitType(),
                        new StreamJson.Window(info.status(), info.utilization(), info.resetsAt()));
            for (var w : windows.entrySet()) {
                StreamJson.Window x = w.getValue();
                if (x.utilization() == null || x.resetsAt() == null) continue;
                settings.windows()
                        .report(
                                source,
                                w.getKey(),
                                x.utilization(),
                                Instant.ofEpochSecond(x.resetsAt()),
                                settings.usageThreshold());
            }
        }
    }

    private String describe() {
        return NAME + " " + model;
    }

    /** Makes the config root (the directory each call's own config directory is made in). */
    static Path configRoot(Path root) {
        try {
            return Files.createDirectories(root);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot make the Claude Code config directory " + root + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "ClaudeCodeProvider[" + model + ", " + settings.cli() + "]";
    }
}
