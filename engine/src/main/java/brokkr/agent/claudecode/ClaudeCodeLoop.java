package brokkr.agent.claudecode;

import brokkr.agent.ToolResult;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.mcp.WorldBinding;
import brokkr.mcp.WorldMcpServer;
import brokkr.provider.claudecode.ClaudeCodeCli;
import brokkr.provider.claudecode.ClaudeLaunch;
import brokkr.provider.claudecode.StreamJson;
import brokkr.python.PyJson;
import brokkr.python.PyJsonLoads;
import brokkr.value.PyDict;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Claude Code CLI as the agent of a step-driven protocol (tau2's half-duplex orchestrator, which asks its agent
 * for one message at a time), as {@link brokkr.agent.YieldingLoop} is Brokkr's own loop there. Claude Code runs its
 * own loop in one persistent {@code --input-format stream-json} session per episode: each new message of the
 * counterpart is one user message into it; the protocol's tools reach the CLI only through a loopback MCP server of
 * the episode ({@link WorldMcpServer}, its own bearer token; the CLI sees them as {@code mcp__brokkr__TOOL}, with its
 * built-in tools off and no other MCP server), and each of its calls is handed to the protocol as an assistant
 * message with that one tool call, the protocol's tool result going back as the MCP result. The turn's {@code
 * result} line ends the turn: its text is the protocol's next agent message. So the protocol executes, records and
 * grades every call as its own (trajectory, step and error counts, DB and ACTION checks).
 *
 * <p>The MCP server makes the CLI's calls one at a time, so each is one tool-call message (the loop harness hands
 * a model's batch of calls over as one message). A turn that reaches {@code maxTurnSteps} model steps (the CLI's
 * {@code --max-turns}: {@link StreamJson.ErrorKind#MAX_TURNS}) ends with an empty answer, the protocol's agent
 * error, as the loop harness's MAX_STEPS does; any other error (rate limit, usage window, authentication,
 * overload, a dead CLI) is an infrastructure failure, never a reply, classified by {@link StreamJson.Reader#error}.
 *
 * <p>Accounting: each turn's final message carries one {@link ModelCall}: the request as {@link
 * ClaudeLaunch#recorded} gives it (argv, system prompt, MCP config, the stream-json line sent; redacted), the
 * turn's output lines as the response, and the tokens of the turn (the session's cumulative {@code modelUsage}
 * minus the previous turn's). The model steps are the distinct assistant messages (one per Messages API response).
 */
public final class ClaudeCodeLoop implements Candidate, AutoCloseable {
    /** The MCP server's name: the CLI gives its tools the prefix {@value #TOOL_PREFIX}. */
    public static final String SERVER = "brokkr", TOOL_PREFIX = "mcp__" + SERVER + "__";

    /** Counts the CLI's model steps (Messages API responses) where the protocol counts its agent's. */
    @FunctionalInterface
    public interface StepCounter {
        void steps(long n);
    }

    private sealed interface Out permits CallOut, TurnEnd, Failure {}

    private record CallOut(ToolCall call, CompletableFuture<Message.Tool> answer) implements Out {}

    private record TurnEnd(StreamJson.Reader turn, String output) implements Out {}

    /** The CLI ended or its output could not be read; {@code turn} is what the unfinished turn had read. */
    private record Failure(String message, StreamJson.Reader turn) implements Out {}

    private final ClaudeCodeCli cli;
    private final Candidate recorded;
    private final String systemPrompt;
    private final int maxTurnSteps;
    private final StepCounter counter;
    private final LinkedBlockingQueue<Out> fromCli = new LinkedBlockingQueue<>();
    private final Set<String> responses = new HashSet<>();
    private WorldMcpServer server;
    private ClaudeLaunch launch;
    private Process process;
    private OutputStream stdin;
    private Thread reader;
    private CallOut pending;
    /** The provider's permit the current turn holds (null between turns): the run's concurrency limit binds sessions. */
    private Candidate.Permit permit;

    private int seen, callIds;
    private String sentLine;
    private long sentAt;
    private StreamJson.CliUsage usedBefore = StreamJson.CliUsage.ZERO;
    private volatile boolean closed;

    /**
     * @param model the candidate as the run gave it: the CLI under its wrappers ({@link Candidate#unwrapped}), which
     *     are told of every turn's calls ({@link Candidate#noteCalls}: so the attempt records them)
     * @param systemPrompt replaces Claude Code's own system prompt (null: the CLI keeps its own)
     * @param maxTurnSteps the model steps one turn may take ({@code --max-turns})
     */
    private ClaudeCodeLoop(
            ClaudeCodeCli cli, Candidate model, String systemPrompt, int maxTurnSteps, StepCounter counter) {
        if (maxTurnSteps < 1) throw new IllegalArgumentException("maxTurnSteps must be at least 1");
        this.cli = cli;
        this.recorded = model;
        this.systemPrompt = systemPrompt;
        this.maxTurnSteps = maxTurnSteps;
        this.counter = counter;
    }

    /**
     * The loop for {@code model}, which must be a Claude Code CLI under its wrappers ({@link ClaudeCodeCli}); refused with a
     * message otherwise.
     */
    public static ClaudeCodeLoop of(Candidate model, String systemPrompt, int maxTurnSteps, StepCounter counter) {
        if (!(model.unwrapped() instanceof ClaudeCodeCli cli))
            throw new IllegalArgumentException(
                    "harness claude-code runs the Claude Code CLI: the candidate's model must be claude-code:MODEL");
        return new ClaudeCodeLoop(cli, model, systemPrompt, maxTurnSteps, counter);
    }

    /** A tool's name as the protocol knows it, from the name the CLI's model called ({@code mcp__brokkr__NAME}). */
    public static String toolName(String cliName) {
        return cliName.startsWith(TOOL_PREFIX) ? cliName.substring(TOOL_PREFIX.length()) : cliName;
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
        if (closed) throw new IllegalStateException("Claude Code session closed");
        List<Message> fresh = new ArrayList<>(history.subList(Math.min(seen, history.size()), history.size()));
        seen = history.size() + 1; // + the message returned now
        if (permit == null) permit = recorded.acquire();
        if (process == null) start(tools);
        if (pending != null) {
            Message.Tool result = null;
            for (Message m : fresh) if (m instanceof Message.Tool t) result = t;
            pending.answer()
                    .complete(
                            result != null
                                    ? result
                                    : new Message.Tool(
                                            pending.call().id(),
                                            pending.call().name(),
                                            "Error: the environment gave no result",
                                            true));
            pending = null;
        } else {
            send(lines(fresh));
        }
        return switch (take()) {
            case CallOut c -> {
                pending = c;
                yield Turn.of(new Message.Assistant(null, List.of(c.call())));
            }
            case TurnEnd e -> {
                release();
                yield turnEnd(e);
            }
            case Failure f -> {
                release();
                String refused = cli.usageWindows(f.turn());
                throw failure(refused == null ? f.message() : redact(refused), null, null);
            }
        };
    }

    /**
     * The new messages as stream-json input lines: an assistant message the protocol wrote in the agent's name (tau2's
     * opening greeting, the first message of upstream's agent history and of its trajectory) as an assistant line,
     * so the CLI's conversation is the one the loop harness's model sees; the counterpart's messages as one user line.
     * The session's own messages are never among them ({@link #seen} counts the one each call returns).
     */
    private static String lines(List<Message> fresh) {
        List<String> lines = new ArrayList<>(), parts = new ArrayList<>();
        for (Message m : fresh) {
            if (m instanceof Message.User u && u.content() != null) parts.add(u.content());
            else if (m instanceof Message.Assistant a
                    && a.toolCalls().isEmpty()
                    && a.content() != null
                    && parts.isEmpty()) lines.add(StreamJson.assistantLine(a.content()));
        }
        lines.add(StreamJson.userLine(String.join("\n\n", parts)));
        return String.join("\n", lines);
    }

    private void release() {
        if (permit != null) permit.close();
        permit = null;
    }

    private String redact(String text) {
        return launch == null ? text : launch.redact(text);
    }

    private void start(List<ToolSpec> tools) throws InfrastructureFailure {
        List<ToolSpec> served = List.copyOf(tools);
        try {
            server = WorldMcpServer.startHttp(
                    new WorldBinding() {
                        @Override
                        public List<ToolSpec> tools() {
                            return served;
                        }

                        @Override
                        public ToolResult call(String tool, PyDict arguments) {
                            return ClaudeCodeLoop.this.call(tool, arguments);
                        }
                    },
                    brokkr.http.LoopbackHttp.newToken());
            launch = cli.launch()
                    .systemPrompt(systemPrompt)
                    .maxTurns(maxTurnSteps)
                    .streamInput(true)
                    .mcpConfig(PyJsonLoads.loads(server.claudeMcpConfig(SERVER)).asDict())
                    .allowedTools(List.of("mcp__" + SERVER))
                    .build();
            process = launch.start();
            stdin = process.getOutputStream();
        } catch (IOException | RuntimeException e) {
            release();
            close();
            throw failure("cannot start Claude Code: " + e.getMessage(), null, e);
        }
        reader = Thread.ofPlatform().daemon().name("claude-code-reader").start(this::read);
    }

    private void send(String lines) throws InfrastructureFailure {
        sentLine = lines;
        sentAt = System.currentTimeMillis();
        try {
            stdin.write((sentLine + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            release();
            throw failure("cannot write to Claude Code: " + e.getMessage(), null, e);
        }
    }

    /** An MCP call of the CLI: handed to the protocol as one tool-call message; blocks until the protocol answered. */
    private ToolResult call(String tool, PyDict arguments) {
        if (closed) return ToolResult.error("Error: the episode is over");
        ToolCall c = new ToolCall("claude-code-call-" + nextCallId(), tool, arguments, PyJson.dumps(arguments), null);
        CallOut out = new CallOut(c, new CompletableFuture<>());
        fromCli.add(out);
        while (true) {
            try {
                Message.Tool r = out.answer().get(1, TimeUnit.SECONDS);
                return new ToolResult(r.content(), r.error());
            } catch (TimeoutException e) {
                if (closed) return ToolResult.error("Error: the episode is over");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ToolResult.error("Error: the episode is over");
            } catch (ExecutionException e) {
                return ToolResult.error("Error: " + e.getCause().getMessage());
            }
        }
    }

    private synchronized int nextCallId() {
        return callIds++;
    }

    /** Reads the CLI's output, a fresh {@link StreamJson.Reader} per turn; counts model responses; a result ends a turn. */
    private void read() {
        StreamJson.Reader turn = new StreamJson.Reader();
        StringBuilder output = new StringBuilder();
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                StreamJson.Event e = turn.accept(line);
                if (e == null) continue;
                output.append(line).append('\n');
                if (e instanceof StreamJson.Assistant a
                        && !a.isApiError()
                        && a.parentToolUseId() == null
                        && a.messageId() != null
                        && responses.add(a.messageId())) counter.steps(1);
                if (e instanceof StreamJson.Result) {
                    fromCli.add(new TurnEnd(turn, output.toString()));
                    turn = new StreamJson.Reader();
                    output = new StringBuilder();
                }
            }
            if (!closed) fromCli.add(new Failure("Claude Code ended without a result" + stderrNote(), turn));
        } catch (IOException | RuntimeException e) {
            if (!closed)
                fromCli.add(new Failure(
                        "cannot read Claude Code's output: " + e.getMessage() + stderrNote(), new StreamJson.Reader()));
        }
    }

    private String stderrNote() {
        String err = launch == null ? "" : launch.stderrTail(2000);
        return err.isBlank() ? "" : " (stderr: " + err.strip() + ")";
    }

    private Out take() throws InfrastructureFailure {
        try {
            return fromCli.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release();
            throw failure("interrupted while Claude Code ran", null, e);
        }
    }

    /**
     * A turn's {@code result}: its text is the agent's message; {@code max_turns} is an empty answer (the protocol's
     * agent error); any other error is an infrastructure failure.
     */
    private Turn turnEnd(TurnEnd e) throws InfrastructureFailure {
        StreamJson.Reader r = e.turn();
        Optional<StreamJson.CliError> error = r.error();
        StreamJson.CliUsage used = r.usage();
        StreamJson.CliUsage turnUsage = used.minus(usedBefore);
        usedBefore = used;
        boolean maxTurns = error.isPresent() && error.get().kind() == StreamJson.ErrorKind.MAX_TURNS;
        // A turn a usage window refused: the runner pauses until the reset and runs the cell again.
        String refused = cli.usageWindows(r);
        if (refused != null) throw failure(redact(refused), e.output(), null);
        if (error.isPresent() && !maxTurns) {
            StreamJson.CliError err = error.get();
            String message = "Claude Code's turn failed (" + err.kind() + (err.status() == 0 ? "" : ", " + err.status())
                    + "): " + err.message();
            throw failure(message, e.output(), null);
        }
        ModelCall call = call(200, e.output(), null);
        recorded.noteCalls(List.of(call), turnUsage.usage());
        String text =
                maxTurns ? null : r.result().map(StreamJson.Result::result).orElse(null);
        return new Turn(new Message.Assistant(text, List.of(), turnUsage.usage()), List.of(call));
    }

    private ModelCall call(int status, String response, String error) {
        String request = launch == null || sentLine == null ? sentLine : launch.recorded(sentLine);
        return new ModelCall(
                cli.provider(),
                cli.model(),
                1,
                request,
                status,
                response == null || launch == null ? response : launch.redact(response),
                error,
                sentAt,
                System.currentTimeMillis() - sentAt);
    }

    private InfrastructureFailure failure(String message, String response, Throwable cause) {
        List<ModelCall> calls = sentLine == null ? List.of() : List.of(call(0, response, message));
        recorded.noteCalls(calls, brokkr.conversation.Usage.ZERO);
        return new InfrastructureFailure(message, calls, cause);
    }

    /** Ends the CLI and the MCP server; a call still waiting is answered with an error. */
    @Override
    public void close() {
        closed = true;
        release();
        if (pending != null) pending.answer().completeExceptionally(new IllegalStateException("the episode is over"));
        if (process != null) {
            try {
                stdin.close();
            } catch (IOException e) {
                // the CLI is being ended anyway
            }
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        // The session's config directory held only this episode's files (its MCP config names the server's token).
        if (launch != null) launch.removeConfigDir();
        if (server != null) {
            try {
                server.close();
            } catch (RuntimeException e) {
                // the episode's result is settled; a server that stops uncleanly changes nothing of it
            }
        }
    }
}
