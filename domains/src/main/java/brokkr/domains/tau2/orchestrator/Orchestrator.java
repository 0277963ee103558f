package brokkr.domains.tau2.orchestrator;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.telemetry.GenAiTrace;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream's half-duplex {@code Orchestrator} ({@code src/tau2/orchestrator/orchestrator.py}): the
 * agent opens with {@link #GREETING}; then each step passes the current message from one role (agent,
 * user, environment) to the next, and after every step the environment is synced. Steps and tool
 * errors are counted as upstream counts them: every step counts (agent, user and environment
 * steps alike), every tool result with {@code error} counts (either requestor, not "in a row"), and
 * the limits are checked only when the next message is not addressed to the environment.
 *
 * <p>Where upstream raises instead of ending the episode, Brokkr ends it with a recorded reason:
 * <ul>
 *   <li>an empty message (no text, no tool calls): upstream's {@code ParticipantMessageBase.validate}
 *       raises {@code ValueError}, its runner retries the whole simulation and finally records
 *       {@code infrastructure_error}; Brokkr ends the episode as {@code agent_error} /
 *       {@code user_error} (the message is kept in the transcript);</li>
 *   <li>tool-call arguments that are not a JSON object: upstream's {@code generate} raises in
 *       {@code json.loads}; Brokkr ends as {@code agent_error} / {@code user_error};</li>
 *   <li>a stop whose message also carries tool calls (the environment would receive the last message):
 *       upstream's {@code _finalize} raises; Brokkr records {@code infrastructure_error}, as upstream's
 *       runner ends up doing;</li>
 *   <li>a candidate that throws {@link InfrastructureFailure}: {@code infrastructure_error}; one that
 *       throws anything else: {@code unexpected_error}.</li>
 * </ul>
 * Messages of a task's initial message history (resuming mid-conversation) are not supported.
 */
public final class Orchestrator<W> {
    /** Upstream {@code DEFAULT_FIRST_AGENT_MESSAGE}. */
    public static final String GREETING = "Hi! How can I help you today?";
    /** Upstream {@code STOP}, {@code TRANSFER}, {@code OUT_OF_SCOPE} ({@code src/tau2/user/user_simulator_base.py}). */
    public static final String STOP = "###STOP###";

    public static final String TRANSFER = "###TRANSFER###";
    public static final String OUT_OF_SCOPE = "###OUT-OF-SCOPE###";

    private enum Role {
        AGENT,
        USER,
        ENV
    }

    /** What one episode produced, before grading. */
    public record Run<W>(
            List<Tau2Message> trajectory,
            TerminationReason termination,
            String note,
            W finalWorld,
            int steps,
            int toolErrors,
            Usage agentUsage,
            Usage userUsage,
            List<ModelCall> agentCalls,
            List<ModelCall> userCalls) {
        public Run {
            trajectory = List.copyOf(trajectory);
            agentCalls = List.copyOf(agentCalls);
            userCalls = List.copyOf(userCalls);
        }
    }

    /**
     * An episode held at a checkpoint: the customer has produced its {@code customerMessages}-th message
     * to the agent (the last of {@code trajectory}) and it has not been delivered, so the agent is idle.
     * Everything is immutable: the world is a value and the lists are copies, so any number of
     * branches can resume from one held episode without seeing each other.
     *
     * @param agentState the agent's working context (its view of the conversation, without the held message)
     * @param userState  the customer's history (its own view, the held message included)
     */
    public record Held<W>(
            List<Tau2Message> trajectory,
            List<Message> agentState,
            List<Tau2Message> userState,
            List<ModelCall> agentCalls,
            List<ModelCall> userCalls,
            Usage agentUsage,
            Usage userUsage,
            W world,
            int steps,
            int toolErrors,
            int customerMessages) {
        public Held {
            trajectory = List.copyOf(trajectory);
            agentState = List.copyOf(agentState);
            userState = List.copyOf(userState);
            agentCalls = List.copyOf(agentCalls);
            userCalls = List.copyOf(userCalls);
            if (!(trajectory.getLast() instanceof Tau2Message.User))
                throw new IllegalArgumentException("a held episode ends with the customer's message");
        }

        /** The customer's message held back from the agent. */
        public Tau2Message.User message() {
            return (Tau2Message.User) trajectory.getLast();
        }
    }

    /** Where {@link #runUntil} stopped: {@code held}, or {@code ended} when the episode finished before the checkpoint. */
    public record Checkpoint<W>(Held<W> held, Run<W> ended) {}

    /**
     * The agent's answer to a held message, and what the environment answered to its tool calls on the
     * held world: {@code message} null when the candidate failed ({@code failure} says why).
     */
    public record Answer<W>(
            Tau2Message.Agent message,
            List<Tau2Message.ToolResult> results,
            W world,
            List<ModelCall> calls,
            String failure) {
        public Answer {
            results = List.copyOf(results);
            calls = List.copyOf(calls);
        }
    }

    /**
     * The agent's whole turn from a held message ({@link #answerTurn}): the messages it added to the trajectory
     * (its tool-call messages and their results, then its reply), the reply (null when the turn ended without
     * one: {@code failure} says why) and the world after its calls.
     */
    public record TurnAnswer<W>(
            List<Tau2Message> messages, Tau2Message.Agent reply, W world, List<ModelCall> calls, String failure) {
        public TurnAnswer {
            messages = List.copyOf(messages);
            calls = List.copyOf(calls);
        }
    }

    private final EpisodeEnvironment<W> env;
    private final AgentSide agent;
    private final UserSide user;
    private final EpisodeOptions options;

    // Episode state (upstream's orchestrator fields), confined to one run().
    private final List<Tau2Message> trajectory = new ArrayList<>();
    private final List<Message> agentState = new ArrayList<>();
    private final List<Tau2Message> userState = new ArrayList<>();
    private final List<ModelCall> agentCalls = new ArrayList<>();
    private final List<ModelCall> userCalls = new ArrayList<>();
    private Usage agentUsage = Usage.ZERO, userUsage = Usage.ZERO;
    private W world;
    private Role from, to;
    private Object message; // a Tau2Message, or the List<ToolResult> of one environment step
    private boolean done;
    private TerminationReason reason;
    private String note;
    private int steps, errors;
    private int customerMessages; // the customer's messages delivered to the agent so far
    private int holdAt; // hold the episode at this customer message (0: never)
    private boolean ran;

    private Orchestrator(
            EpisodeEnvironment<W> env, W initialWorld, AgentSide agent, UserSide user, EpisodeOptions options) {
        this.env = env;
        this.world = initialWorld;
        this.agent = agent;
        this.user = user;
        this.options = options;
    }

    /** An orchestrator continuing a held episode: the held message is the next to deliver, to the agent. */
    private Orchestrator(
            EpisodeEnvironment<W> env, Held<W> held, AgentSide agent, UserSide user, EpisodeOptions options) {
        this(env, held.world(), agent, user, options);
        trajectory.addAll(held.trajectory());
        agentState.addAll(held.agentState());
        userState.addAll(held.userState());
        agentCalls.addAll(held.agentCalls());
        userCalls.addAll(held.userCalls());
        agentUsage = held.agentUsage();
        userUsage = held.userUsage();
        steps = held.steps();
        errors = held.toolErrors();
        customerMessages = held.customerMessages();
        message = held.message();
        from = Role.USER;
        to = Role.AGENT;
        ran = true;
    }

    /** Runs one episode from {@code initialWorld} (the task's initial state already applied). */
    public static <W> Run<W> run(
            EpisodeEnvironment<W> env, W initialWorld, AgentSide agent, UserSide user, EpisodeOptions options) {
        Orchestrator<W> o = new Orchestrator<>(env, initialWorld, agent, user, options);
        o.start();
        o.loop();
        return o.finished();
    }

    /**
     * Runs an episode until the customer has produced its {@code customerMessage}-th message to the agent
     * (1-based; messages that are tool calls on the customer's own side do not count) and holds it back:
     * nothing is graded, the agent has not seen it. When the episode ends first (the customer stops, a
     * limit is reached) the result is the finished run instead.
     */
    public static <W> Checkpoint<W> runUntil(
            EpisodeEnvironment<W> env,
            W initialWorld,
            AgentSide agent,
            UserSide user,
            EpisodeOptions options,
            int customerMessage) {
        if (customerMessage < 1)
            throw new IllegalArgumentException(
                    "the checkpoint's customer message counts from 1, not " + customerMessage);
        Orchestrator<W> o = new Orchestrator<>(env, initialWorld, agent, user, options);
        o.holdAt = customerMessage;
        o.start();
        o.loop();
        return o.done ? new Checkpoint<>(null, o.finished()) : new Checkpoint<>(o.held(), null);
    }

    /** Delivers a held episode's message to the agent and runs the episode to its end; {@code held} is unchanged. */
    public static <W> Run<W> resume(
            EpisodeEnvironment<W> env, Held<W> held, AgentSide agent, UserSide user, EpisodeOptions options) {
        Orchestrator<W> o = new Orchestrator<>(env, held, agent, user, options);
        o.loop();
        return o.finished();
    }

    /**
     * The agent's one answer to a held message (one agent step, as the episode would take it), with its
     * tool calls executed on the held world as the environment step after it would execute them. The
     * held episode is unchanged.
     */
    public static <W> Answer<W> answer(EpisodeEnvironment<W> env, Held<W> held, AgentSide agent) {
        Orchestrator<W> o = new Orchestrator<>(env, held, agent, null, EpisodeOptions.DEFAULT);
        Tau2Message.Agent msg = o.agentTurn();
        if (msg == null)
            return new Answer<>(
                    null,
                    List.of(),
                    held.world(),
                    o.agentCalls.subList(held.agentCalls().size(), o.agentCalls.size()),
                    o.note);
        List<Tau2Message.ToolResult> results = new ArrayList<>();
        W w = held.world();
        if (!o.validate(msg, TerminationReason.AGENT_ERROR) && msg.isToolCall()) {
            w = env.sync(w);
            List<EpisodeEnvironment.Call> calls = msg.toolCalls().stream()
                    .map(tc -> new EpisodeEnvironment.Call(tc.name(), tc.arguments()))
                    .toList();
            EpisodeEnvironment.Step<W> executed = env.respondAll(w, Requestor.ASSISTANT, calls);
            w = executed.world();
            for (int i = 0; i < calls.size(); i++) {
                ToolCall tc = msg.toolCalls().get(i);
                EpisodeEnvironment.Response<W> r = executed.responses().get(i);
                results.add(
                        new Tau2Message.ToolResult(tc.id(), tc.name(), r.content(), Requestor.ASSISTANT, r.error()));
            }
            w = env.sync(w);
        }
        return new Answer<>(
                msg, results, w, o.agentCalls.subList(held.agentCalls().size(), o.agentCalls.size()), o.note);
    }

    /**
     * The agent's whole turn from a held message, as the episode would play it: the message is delivered, the
     * agent's tool calls are executed on the held world and answered (a loop harness makes several calls, each
     * one agent message to the environment) until it addresses the customer or the episode ends (a limit, an
     * error). The held episode is unchanged; the customer is not asked.
     */
    public static <W> TurnAnswer<W> answerTurn(EpisodeEnvironment<W> env, Held<W> held, AgentSide agent) {
        Orchestrator<W> o = new Orchestrator<>(env, held, agent, null, EpisodeOptions.DEFAULT);
        while (!o.done && !(o.from == Role.AGENT && o.to == Role.USER)) {
            o.step();
            o.checkTermination();
        }
        List<Tau2Message> added = o.trajectory.subList(held.trajectory().size(), o.trajectory.size());
        Tau2Message.Agent reply = o.from == Role.AGENT
                        && o.to == Role.USER
                        && !added.isEmpty()
                        && added.getLast() instanceof Tau2Message.Agent a
                        && !a.isToolCall()
                ? a
                : null;
        String failure = reply != null
                ? null
                : "the turn ended without a reply to the customer ("
                        + (o.reason == null ? "no reason" : o.reason.value())
                        + (o.note == null ? "" : ": " + o.note) + ")";
        return new TurnAnswer<>(
                added, reply, o.world, o.agentCalls.subList(held.agentCalls().size(), o.agentCalls.size()), failure);
    }

    private void start() {
        if (ran) throw new IllegalStateException("an orchestrator runs once");
        ran = true;
        // Orchestrator.initialize without message history: the greeting is the agent's first message.
        Tau2Message.Agent greeting = new Tau2Message.Agent(GREETING);
        trajectory.add(greeting);
        agentState.add(toAgentView(greeting));
        message = greeting;
        from = Role.AGENT;
        to = Role.USER;
    }

    private void loop() {
        while (!done) {
            step();
            checkTermination();
            if (!done && holdAt > 0 && customerMessages == holdAt && from == Role.USER && to == Role.AGENT) return;
        }
    }

    private Held<W> held() {
        return new Held<>(
                trajectory,
                agentState,
                userState,
                agentCalls,
                userCalls,
                agentUsage,
                userUsage,
                world,
                steps,
                errors,
                customerMessages);
    }

    private Run<W> finished() {
        finish();
        return new Run<>(trajectory, reason, note, world, steps, errors, agentUsage, userUsage, agentCalls, userCalls);
    }

    /** Upstream {@code Orchestrator.step}. */
    private void step() {
        if ((from == Role.AGENT || from == Role.ENV) && to == Role.USER) {
            Tau2Message.User msg = userTurn();
            if (msg == null) return;
            trajectory.add(msg);
            message = msg;
            from = Role.USER;
            to = msg.isToolCall() ? Role.ENV : Role.AGENT;
            if (to == Role.AGENT) customerMessages++;
            if (!validate(msg, TerminationReason.USER_ERROR) && isUserStop(msg)) stop(TerminationReason.USER_STOP);
        } else if ((from == Role.USER || from == Role.ENV) && to == Role.AGENT) {
            Tau2Message.Agent msg = agentTurn();
            if (msg == null) return;
            trajectory.add(msg);
            message = msg;
            from = Role.AGENT;
            to = msg.isToolCall() ? Role.ENV : Role.USER;
            if (!validate(msg, TerminationReason.AGENT_ERROR)
                    && agent.stopsOnToken()
                    && msg.content() != null
                    && msg.content().contains(STOP)) {
                stop(TerminationReason.AGENT_STOP);
            }
            // Not upstream's: the step whose calls reach the cell's budget is the candidate's last (its tool
            // calls are not executed, the user does not answer it).
            if (!done && agent.budget().reached()) {
                stop(TerminationReason.CELL_BUDGET);
                note = "stopped by the cell budget: " + agent.budget().describe();
            }
        } else if ((from == Role.AGENT || from == Role.USER) && to == Role.ENV) {
            Tau2Message.Participant caller = (Tau2Message.Participant) message;
            Requestor requestor = from == Role.AGENT ? Requestor.ASSISTANT : Requestor.USER;
            List<EpisodeEnvironment.Call> calls = caller.toolCalls().stream()
                    .map(tc -> new EpisodeEnvironment.Call(tc.name(), tc.arguments()))
                    .toList();
            // The episode's trace when the runner traces it (execute_tool spans of the environment's step).
            GenAiTrace.ToolSpans spans =
                    GenAiTrace.current().tools(caller.toolCalls(), from == Role.AGENT ? "agent" : "user");
            EpisodeEnvironment.Step<W> executed;
            try {
                executed = env.respondAll(world, requestor, calls);
            } catch (RuntimeException e) {
                spans.failAll(e.getClass().getName());
                throw e;
            }
            world = executed.world();
            List<Tau2Message.ToolResult> results = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                ToolCall tc = caller.toolCalls().get(i);
                EpisodeEnvironment.Response<W> r = executed.responses().get(i);
                spans.end(i, r.content(), r.error() ? GenAiTrace.ToolSpans.TOOL_ERROR : null);
                if (r.error()) errors++;
                results.add(new Tau2Message.ToolResult(tc.id(), tc.name(), r.content(), requestor, r.error()));
            }
            trajectory.addAll(results);
            message = results;
            to = from;
            from = Role.ENV;
        } else {
            throw new IllegalStateException("invalid role combination " + from + " -> " + to);
        }
        if (options.enforceCommunicationProtocol()) checkCommunication();
        steps++;
        try {
            world = env.sync(world);
        } catch (RuntimeException e) {
            // Upstream's step() raises here and its runner records infrastructure_error after retries.
            stop(TerminationReason.UNEXPECTED_ERROR);
            note = "sync_tools raised: " + e.getMessage();
        }
    }

    /**
     * Upstream's {@code validate()} and the tool-call parsing of {@code generate}, which raise upstream
     * (see the class comment): returns true when the message ended the episode as {@code error}.
     */
    private boolean validate(Tau2Message.Participant msg, TerminationReason error) {
        String who = error == TerminationReason.AGENT_ERROR ? "agent" : "user";
        if (msg.isEmpty()) {
            stop(error);
            note = who + " sent an empty message";
            return true;
        }
        for (ToolCall tc : msg.toolCalls()) {
            if (tc.isMalformed()) {
                stop(error);
                note = who + " sent tool call '" + tc.name() + "' with malformed arguments: " + tc.malformed();
                return true;
            }
        }
        return false;
    }

    /** Upstream {@code UserSimulator.is_stop}: a text message (no tool calls) containing a stop marker. */
    static boolean isUserStop(Tau2Message.User msg) {
        if (msg.isToolCall() || msg.content() == null) return false;
        String c = msg.content();
        return c.contains(STOP) || c.contains(TRANSFER) || c.contains(OUT_OF_SCOPE);
    }

    /** Upstream {@code LLMAgent.generate_next_message}: the incoming message joins the agent's state, then the model answers. */
    private Tau2Message.Agent agentTurn() {
        receive(agentState, message);
        List<Message> history = new ArrayList<>(agentState.size() + 1);
        history.add(new Message.System(agent.systemPrompt()));
        history.addAll(agentState);
        Turn turn = ask(agent.candidate(), history, agent.tools(), agentCalls);
        if (turn == null) return null;
        Message.Assistant a = turn.message();
        agentUsage = agentUsage.plus(a.usage());
        Tau2Message.Agent msg = new Tau2Message.Agent(a.content(), withArguments(a.toolCalls()), a.usage());
        // The agent's view of its own turn keeps the reasoning items its model returned (toAgentView's message
        // plus them): a reasoning model on the Responses wire gets them back on its next step.
        agentState.add(new Message.Assistant(msg.content(), msg.toolCalls(), msg.usage(), a.reasoning()));
        return msg;
    }

    /** Upstream {@code UserSimulator.generate_next_message}: the model sees the user's state with roles flipped. */
    private Tau2Message.User userTurn() {
        if (message instanceof List<?> results) {
            for (Object r : results) userState.add((Tau2Message) r);
        } else {
            Tau2Message.Agent a = (Tau2Message.Agent) message;
            if (!a.isEmpty()) userState.add(a);
        }
        List<Message> history = new ArrayList<>(userState.size() + 1);
        history.add(new Message.System(user.systemPrompt()));
        for (Tau2Message m : userState) history.add(flipped(m));
        Turn turn = ask(user.candidate(), history, user.tools(), userCalls);
        if (turn == null) return null;
        Message.Assistant a = turn.message();
        userUsage = userUsage.plus(a.usage());
        Tau2Message.User msg = new Tau2Message.User(a.content(), withArguments(a.toolCalls()), a.usage());
        userState.add(msg);
        return msg;
    }

    /** Tool calls with arguments always present (a candidate may leave them null; upstream's are a dict). */
    private static List<ToolCall> withArguments(List<ToolCall> calls) {
        if (calls.stream().allMatch(c -> c.arguments() != null)) return calls;
        return calls.stream()
                .map(c -> c.arguments() != null
                        ? c
                        : new ToolCall(c.id(), c.name(), brokkr.value.PyDict.empty(), c.rawArguments(), c.malformed()))
                .toList();
    }

    private Turn ask(
            brokkr.conversation.Candidate c,
            List<Message> history,
            List<brokkr.conversation.ToolSpec> tools,
            List<ModelCall> record) {
        try {
            Turn t = c.next(history, tools);
            record.addAll(t.calls());
            return t;
        } catch (InfrastructureFailure e) {
            record.addAll(e.attempts());
            stop(TerminationReason.INFRASTRUCTURE_ERROR);
            note = e.getMessage();
            return null;
        } catch (RuntimeException e) {
            stop(TerminationReason.UNEXPECTED_ERROR);
            note = e.getClass().getSimpleName() + ": " + e.getMessage();
            return null;
        }
    }

    private static void receive(List<Message> state, Object incoming) {
        if (incoming instanceof List<?> results) {
            for (Object r : results) state.add(toAgentView((Tau2Message) r));
        } else {
            state.add(toAgentView((Tau2Message) incoming));
        }
    }

    /** The agent's view of a message: its own as assistant, the user's text as user, tool results as tool. */
    static Message toAgentView(Tau2Message m) {
        return switch (m) {
            case Tau2Message.Agent a -> new Message.Assistant(a.content(), a.toolCalls(), a.usage());
            case Tau2Message.User u -> new Message.User(u.content());
            case Tau2Message.ToolResult t -> new Message.Tool(t.id(), t.name(), t.content(), t.error());
        };
    }

    /**
     * Upstream {@code UserState.flip_roles}: the user's own messages become assistant messages (tool
     * calls included), the agent's text messages user messages, the user's tool results tool messages.
     */
    static Message flipped(Tau2Message m) {
        return switch (m) {
            case Tau2Message.User u -> new Message.Assistant(u.content(), u.toolCalls(), u.usage());
            case Tau2Message.Agent a -> {
                if (a.isToolCall())
                    throw new IllegalStateException("Tool calls are not supported in the flipped messages");
                yield new Message.User(a.content());
            }
            case Tau2Message.ToolResult t -> {
                if (t.requestor() != Requestor.USER)
                    throw new IllegalStateException("Tool messages should be sent to the user in this message history");
                yield new Message.Tool(t.id(), t.name(), t.content(), t.error());
            }
        };
    }

    /** Upstream {@code _check_communication_error}, run after every step when the protocol is enforced. */
    private void checkCommunication() {
        if (from == Role.ENV || !(message instanceof Tau2Message.Participant p)) return;
        TerminationReason error = from == Role.USER ? TerminationReason.USER_ERROR : TerminationReason.AGENT_ERROR;
        String who = from == Role.USER ? "user" : "agent";
        if (!p.isToolCall() && !p.hasText()) {
            stop(error);
            note = who + " sent an empty message";
        } else if (p.isToolCall() && p.hasText()) {
            stop(error);
            note = who + " sent both text content and tool calls";
        }
    }

    /** Upstream {@code Orchestrator._check_termination}. */
    private void checkTermination() {
        if (to == Role.ENV) return;
        if (steps >= options.maxSteps()) stop(TerminationReason.MAX_STEPS);
        if (errors >= options.maxErrors()) stop(TerminationReason.TOO_MANY_ERRORS);
    }

    private void stop(TerminationReason r) {
        done = true;
        reason = r;
    }

    /** Upstream {@code _finalize}: the last message must not be addressed to the environment unless a participant erred. */
    private void finish() {
        boolean participantError = reason == TerminationReason.AGENT_ERROR || reason == TerminationReason.USER_ERROR;
        boolean infra =
                reason == TerminationReason.INFRASTRUCTURE_ERROR || reason == TerminationReason.UNEXPECTED_ERROR;
        // A cell budget stops on the agent's message, tool calls and all: its own stop, not a finalize error.
        boolean budget = reason == TerminationReason.CELL_BUDGET;
        if (to == Role.ENV && !participantError && !infra && !budget) {
            note = "episode ended (" + reason.value() + ") on a message addressed to the environment; upstream's "
                    + "_finalize raises here and its runner records infrastructure_error";
            reason = TerminationReason.INFRASTRUCTURE_ERROR;
        }
    }
}
