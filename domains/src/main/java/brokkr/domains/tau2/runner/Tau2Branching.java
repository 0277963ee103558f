package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.harness.Tau2Harness;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.eval.Branching;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.NextAction;
import brokkr.eval.Protocol;
import brokkr.eval.RunContext;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Checkpoints, branches and decision points of a tau2 domain, for every domain alike (retail, airline,
 * telecom with its dual control): the orchestrator holds an episode at the customer's k-th message to the
 * agent ({@link Orchestrator#runUntil}), a branch resumes the held state ({@link Orchestrator#resume}),
 * and a decision point is a held state rebuilt from a record by replaying it through the orchestrator
 * with the recorded messages as both sides' answers, so the environment re-executes every recorded tool
 * call (agent's and customer's) on the task's initial world, exactly as the episode executed them.
 */
final class Tau2Branching implements Branching {
    private final Tau2Benchmark benchmark;

    Tau2Branching(Tau2Benchmark benchmark) {
        this.benchmark = benchmark;
    }

    /** A held tau2 episode with its world and log in the benchmark's value forms (computed once, shared by every branch). */
    record Tau2Held(Orchestrator.Held<Worlds> episode, Value world, Value transcript) implements Held {
        static Tau2Held of(Orchestrator.Held<Worlds> e) {
            return new Tau2Held(e, Tau2Fork.encode(e.world()), Tau2Transcript.toValue(e.trajectory()));
        }

        @Override
        public int cut() {
            return episode.customerMessages();
        }
    }

    /**
     * The sides of a run of the reference harness: a checkpoint holds the candidate's history, which is
     * all the reference agent has; the loop harness's working conversation and sandbox JVM are not forked.
     */
    private Tau2Protocol.Sides referenceSides(RunContext ctx) {
        Tau2Protocol.Sides s = Tau2Protocol.sides(benchmark, ctx);
        if (s.harness().claudeCode()) {
            s.release();
            throw new IllegalArgumentException("checkpoints and branches are of the reference harness; harness "
                    + "claude-code keeps its conversation in the Claude Code CLI's session, which a fork cannot share");
        }
        if (s.harness().loop()) {
            s.release();
            throw new IllegalArgumentException(
                    "checkpoints and branches are of the reference harness; harness loop (action space "
                            + ctx.agent().actionSpace()
                            + ") keeps a working conversation and, for repl, a sandbox JVM that a fork cannot share");
        }
        return s;
    }

    @Override
    public String cutUnit() {
        return CUSTOMER_MESSAGE;
    }

    @Override
    public Held hold(RunContext ctx, int at) throws InfrastructureFailure {
        Tau2Protocol.Sides s = referenceSides(ctx);
        Orchestrator.Checkpoint<Worlds> cp =
                Orchestrator.runUntil(s.env(), s.world(), s.agent(), s.user(), s.options(), at);
        if (cp.ended() != null) {
            Orchestrator.Run<Worlds> r = cp.ended();
            if (r.termination() == TerminationReason.INFRASTRUCTURE_ERROR) {
                List<ModelCall> calls = new ArrayList<>(r.agentCalls());
                calls.addAll(r.userCalls());
                throw new InfrastructureFailure(
                        "the episode could not reach customer message " + at + ": " + r.note(), calls, null);
            }
            throw new IllegalArgumentException(
                    "the episode of " + benchmark.name() + " task " + s.task().id() + " ended ("
                            + r.termination().value() + (r.note() == null ? "" : ": " + r.note()) + ") after "
                            + customerMessages(r.trajectory())
                            + " customer message(s), before customer message " + at);
        }
        return Tau2Held.of(cp.held());
    }

    @Override
    public Protocol resume(Held held) {
        Tau2Held h = (Tau2Held) held;
        return ctx -> {
            Tau2Protocol.Sides s = referenceSides(ctx);
            Orchestrator.Held<Worlds> e = h.episode();
            // The fork holds the checkpoint's world (the branch's setup put it there): the episode continues on it.
            Orchestrator.Held<Worlds> onFork = new Orchestrator.Held<>(
                    e.trajectory(),
                    e.agentState(),
                    e.userState(),
                    e.agentCalls(),
                    e.userCalls(),
                    e.agentUsage(),
                    e.userUsage(),
                    s.world(),
                    e.steps(),
                    e.toolErrors(),
                    e.customerMessages());
            return Tau2Protocol.interaction(
                    ctx, s, Orchestrator.resume(s.env(), onFork, s.agent(), s.user(), s.options()));
        };
    }

    @Override
    public DecisionPoint decisionPoint(EnvironmentDef env, Value transcript, int at) {
        if (at < 1)
            throw new IllegalArgumentException("a decision point is at a customer message counted from 1, not " + at);
        Tau2Domain d = benchmark.domain();
        TaskSpec task = d.task(env.taskId());
        List<Tau2Message> record = Tau2Transcript.fromValue(transcript);
        int available = answeredCustomerMessages(record);
        if (at > available) {
            throw new IllegalArgumentException("the record of " + benchmark.name() + " task " + task.id() + " has "
                    + available + " customer message(s) the agent answered, not " + at);
        }
        EpisodeEnvironment<Worlds> e = d.environment();
        AgentSide agent = new AgentSide(
                "recorded", replay(record, Tau2Message.Agent.class), d.agentSystemPrompt(), e.agentTools(), false);
        UserSide user = new UserSide("recorded", replay(record, Tau2Message.User.class), "", e.userTools(task));
        Orchestrator.Checkpoint<Worlds> cp = Orchestrator.runUntil(
                e, e.initialWorld(task), agent, user, Tau2Options.episodeOptions(env.options()), at);
        if (cp.ended() != null) {
            throw new IllegalArgumentException("the record of " + benchmark.name() + " task " + task.id()
                    + " does not replay to customer message " + at + ": the episode ended ("
                    + cp.ended().termination().value()
                    + (cp.ended().note() == null ? "" : ": " + cp.ended().note()) + ")");
        }
        Orchestrator.Held<Worlds> held = cp.held();
        checkReplayed(record, held.trajectory(), task.id());
        return new Tau2DecisionPoint(
                env,
                at,
                d.name(),
                e,
                held,
                d.agentSystemPrompt(),
                e.agentTools(),
                recordedNext(record, held.trajectory().size()));
    }

    /** Messages of the customer that reached the agent (its tool calls on its own side go to the environment). */
    static int customerMessages(List<Tau2Message> t) {
        int n = 0;
        for (Tau2Message m : t) if (m instanceof Tau2Message.User u && !u.isToolCall()) n++;
        return n;
    }

    /** Customer messages to the agent that the record's agent answered: the cuts a decision point can be at. */
    static int answeredCustomerMessages(List<Tau2Message> t) {
        int n = 0;
        for (int i = 0; i + 1 < t.size(); i++)
            if (t.get(i) instanceof Tau2Message.User u && !u.isToolCall() && t.get(i + 1) instanceof Tau2Message.Agent)
                n++;
        return n;
    }

    /**
     * A side that answers with the record's messages of its kind, in order: its position is the number of
     * its own messages in the history it is shown (the agent's history holds the greeting, the record's first).
     */
    private static Candidate replay(List<Tau2Message> record, Class<? extends Tau2Message.Participant> side) {
        List<Tau2Message.Participant> own = new ArrayList<>();
        for (Tau2Message m : record) if (side.isInstance(m)) own.add((Tau2Message.Participant) m);
        return (history, tools) -> {
            int next = (int)
                    history.stream().filter(Message.Assistant.class::isInstance).count();
            if (next >= own.size())
                throw new IllegalArgumentException(
                        "the record has no more " + side.getSimpleName().toLowerCase() + " messages");
            Tau2Message.Participant m = own.get(next);
            return Turn.of(new Message.Assistant(m.content(), m.toolCalls(), m.usage()));
        };
    }

    /** The replayed log must be the record's: the same tool results where the record has them. */
    private static void checkReplayed(List<Tau2Message> record, List<Tau2Message> replayed, String taskId) {
        for (int i = 0; i < replayed.size(); i++) {
            if (replayed.get(i) instanceof Tau2Message.ToolResult r
                    && record.get(i) instanceof Tau2Message.ToolResult q
                    && (!Objects.equals(r.content(), q.content()) || r.error() != q.error())) {
                throw new IllegalArgumentException("the record of task " + taskId + " does not replay: message " + i
                        + " (" + q.name() + ") recorded " + clip(q.content()) + ", replayed " + clip(r.content()));
            }
        }
    }

    /** The record's agent message after the cut, with the results of its calls. */
    private static Optional<NextAction> recordedNext(List<Tau2Message> record, int index) {
        if (index >= record.size() || !(record.get(index) instanceof Tau2Message.Agent a)) return Optional.empty();
        List<NextAction.Result> results = new ArrayList<>();
        for (int i = index + 1; i < record.size() && record.get(i) instanceof Tau2Message.ToolResult r; i++) {
            results.add(new NextAction.Result(r.content(), r.error()));
        }
        return Optional.of(NextAction.of(a.content(), a.toolCalls(), results));
    }

    private static String clip(String s) {
        if (s == null) return "null";
        return "'" + (s.length() > 80 ? s.substring(0, 77) + "..." : s) + "'";
    }

    /** A decision point of a tau2 episode: the held episode rebuilt from the record. */
    record Tau2DecisionPoint(
            EnvironmentDef env,
            int at,
            String domain,
            EpisodeEnvironment<Worlds> environment,
            Orchestrator.Held<Worlds> held,
            String systemPrompt,
            List<ToolSpec> tools,
            Optional<NextAction> recorded)
            implements DecisionPoint {
        @Override
        public List<Message> history() {
            List<Message> h = new ArrayList<>(held.agentState().size() + 2);
            h.add(new Message.System(systemPrompt));
            h.addAll(held.agentState());
            h.add(new Message.User(held.message().content()));
            return List.copyOf(h);
        }

        @Override
        public String cutUnit() {
            return CUSTOMER_MESSAGE;
        }

        @Override
        public String cutMessage() {
            return held.message().content();
        }

        @Override
        public NextAction answer(Candidate candidate) {
            Orchestrator.Answer<Worlds> a = Orchestrator.answer(
                    environment, held, new AgentSide("probe", candidate, systemPrompt, tools, false));
            if (a.message() == null) return NextAction.failed(a.failure());
            List<NextAction.Result> results = a.results().stream()
                    .map(r -> new NextAction.Result(r.content(), r.error()))
                    .toList();
            return NextAction.of(a.message().content(), a.message().toolCalls(), results);
        }

        /**
         * Under harness {@code loop} (JSON tools or the Java REPL, {@link Tau2Harness}) the agent's whole turn: its
         * working conversation starts from the recorded dialogue (earlier tool traffic as the record has it, JSON
         * tool calls), every domain call it makes, a snippet's included, is executed on the rebuilt world and
         * answered as in an episode, and its reply to the customer ends the sample. The REPL's sandbox JVM is
         * the harness's own per sample and released after it.
         */
        @Override
        public NextAction answer(Candidate model, PyDict harness) {
            Harness h = harness(harness);
            if (!h.loop()) return answer(model);
            Tau2Harness.Agent agent = Tau2Harness.of(h, model, systemPrompt, tools, Tau2ResultTypes.find(domain));
            try {
                Orchestrator.TurnAnswer<Worlds> t = Orchestrator.answerTurn(
                        environment,
                        held,
                        new AgentSide("probe", agent.candidate(), agent.systemPrompt(), tools, false));
                List<ToolCall> calls = new ArrayList<>();
                List<NextAction.Result> results = new ArrayList<>();
                for (Tau2Message m : t.messages()) {
                    if (m instanceof Tau2Message.Agent a && a.isToolCall()) calls.addAll(a.toolCalls());
                    if (m instanceof Tau2Message.ToolResult r && r.requestor() == Requestor.ASSISTANT)
                        results.add(new NextAction.Result(r.content(), r.error()));
                }
                if (t.reply() == null) return NextAction.failed(t.failure());
                if (t.reply().content() == null || t.reply().content().isBlank())
                    return NextAction.failed("the turn ended with an empty reply (the harness's step limit, or the"
                            + " model said nothing)");
                return NextAction.turn(t.reply().content(), calls, results);
            } finally {
                try {
                    agent.resources().close();
                } catch (Exception e) {
                    // releasing the sandbox cannot change the sample
                }
            }
        }

        @Override
        public void checkHarness(PyDict harness) {
            Harness h = harness(harness);
            if (h.loop() && h.replGuidance() != null) {
                var types = Tau2ResultTypes.find(domain);
                Tau2Harness.replPrompt(h, Tau2Harness.api(tools, types), tools, types); // typed needs result types
            }
        }

        private static Harness harness(PyDict value) {
            Harness h = Harness.fromValue(value);
            if (h.claudeCode())
                throw new IllegalArgumentException("a decision point is answered by the reference agent or harness"
                        + " loop; harness claude-code keeps its conversation in the CLI's session, which a probe"
                        + " cannot start from a record");
            return h;
        }
    }
}
