package brokkr.env;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.provider.OpenAiChat;
import brokkr.provider.WireFormat;
import brokkr.run.Job;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.run.Sink;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Any Brokkr domain as an environment a trainer steps, Gym-style: {@link #reset} starts an episode of a task and
 * answers the agent's first observation, {@link #step} hands the episode the agent's next message and answers what
 * the agent sees next, until the episode ends with the domain's grade as its reward. In process
 * ({@code Env.of("tau2-retail")}) or over HTTP ({@link EnvServer}, {@code ./brokkr env serve}).
 *
 * <p>Control is inverted over the one evaluation path rather than reimplemented beside it: each episode is one
 * cell run by {@link Runner} on a virtual thread of its own (so its world is a fork of its own, set up, played by
 * the domain's protocol and graded as every attempt is; one run of the runner serves all sessions, its source the
 * resets, so the counterparts' provider limits hold across sessions), with an {@link AgentDef#EXTERNAL} agent whose
 * {@link Candidate#next} publishes the history since its last turn and then waits for the client's action. So
 * every domain on the evaluation path is an environment at once, with the same tools, counterparts, termination
 * rules and grade as an experiment's attempt.
 *
 * <p>Sessions are many and independent; each is closed by {@link #close(String)}, after {@link Settings#idle} with
 * no step, or after {@link Settings#episode} in all (the runner's unit timeout: the episode then ends, done, as an
 * infrastructure failure). At most {@link Settings#maxSessions} run at once. Ended sessions answer
 * {@link Observation.Kind#ENDED} until the idle time has passed, then are forgotten.
 */
public final class Env implements AutoCloseable {
    /** The candidate label and model of the external client, as the cell names them. */
    static final String CLIENT = "client";

    static final AgentDef AGENT = new AgentDef(AgentDef.EXTERNAL, CLIENT, "tools", PyDict.empty(), null);

    /** The highest {@code seed} a reset takes: it is the cell's trial index, which some domains draw seeds up to. */
    public static final int MAX_SEED = 9_999;

    /**
     * How an environment runs its episodes: the models of the counterpart roles ({@code user}, {@code judge}; a
     * role not named is the domain's default, for tau2 its scripted user and known-verdict judge), the domain's
     * options, the most sessions at once, how long a session may wait for a step, and how long an episode may run.
     */
    public record Settings(
            Map<String, ModelRef> roles, PyDict options, int maxSessions, Duration idle, Duration episode) {
        public static final int DEFAULT_MAX_SESSIONS = 256;
        public static final Duration DEFAULT_IDLE = Duration.ofMinutes(10), DEFAULT_EPISODE = Duration.ofHours(1);

        public Settings {
            roles = Map.copyOf(roles);
            options = options == null ? PyDict.empty() : options;
            if (maxSessions < 1) throw new IllegalArgumentException("max sessions must be at least 1");
            if (idle.isNegative() || idle.isZero() || episode.isNegative() || episode.isZero())
                throw new IllegalArgumentException("timeouts must be positive");
        }

        public static Settings defaults() {
            return new Settings(Map.of(), PyDict.empty(), DEFAULT_MAX_SESSIONS, DEFAULT_IDLE, DEFAULT_EPISODE);
        }

        public Settings withRoles(Map<String, ModelRef> r) {
            return new Settings(r, options, maxSessions, idle, episode);
        }

        public Settings withMaxSessions(int n) {
            return new Settings(roles, options, n, idle, episode);
        }

        public Settings withIdle(Duration d) {
            return new Settings(roles, options, maxSessions, d, episode);
        }

        public Settings withEpisode(Duration d) {
            return new Settings(roles, options, maxSessions, idle, d);
        }
    }

    private final BenchmarkProvider provider;
    private final Settings settings;
    private final Function<ModelRef, Candidate> models;
    private final Map<String, Episode> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger live = new AtomicInteger();
    /** The episodes to start, handed to the runner as its source; {@link #NO_MORE} ends the run. */
    private final LinkedBlockingQueue<Job<Attempt>> starts = new LinkedBlockingQueue<>();
    /** The running episodes by their unit (the runner's sink and model hook are given the unit). */
    private final Map<Job<?>, Episode> byUnit = new ConcurrentHashMap<>();

    private final Thread runner;
    private final Thread reaper;
    private volatile boolean closed;

    private static final Job<Attempt> NO_MORE = new Job<>() {
        @Override
        public String name() {
            return "no-more";
        }

        @Override
        public Attempt run(brokkr.run.RunModels models) {
            throw new IllegalStateException("not a unit");
        }

        @Override
        public Attempt failed(String error, brokkr.run.RunModels models, long startedAtMillis, long durationMillis) {
            throw new IllegalStateException("not a unit");
        }
    };

    /** Stands for the external agent in the runner's shared models; each unit's own is put in its place. */
    private static final Candidate UNBOUND = (history, tools) -> {
        throw new IllegalStateException("the external agent of no session");
    };

    /**
     * {@code provider}'s tasks as an environment; counterpart models come from {@code models} (the registry's
     * resolver). One runner serves every session, so the counterparts' providers are opened once and their limits
     * hold over all sessions together.
     */
    public Env(BenchmarkProvider provider, Settings settings, Function<ModelRef, Candidate> models) {
        this.provider = provider;
        this.settings = settings;
        this.models = ref -> ref.equals(AGENT.modelRef()) ? UNBOUND : models.apply(ref);
        // Each unit's agent is its session's: the policy's hook between a unit's model and its record is given the
        // unit, so it puts the session's external agent where the runner's shared models hold UNBOUND.
        Policy.ModelCacheHook bind = (job, role, model, gated) -> model == UNBOUND ? byUnit.get(job).agent : gated;
        Policy policy = Policy.of(Policy.MAX_PARALLELISM)
                .withTimeout(settings.episode())
                .withCache(bind);
        Runner.Source<Attempt> source = () -> {
            Job<Attempt> next = starts.take();
            return next == NO_MORE ? null : next;
        };
        Sink<Attempt> sink = (index, job, attempt) -> {
            Episode e = byUnit.remove(job);
            if (e != null) e.events.add(new Event.Finished(attempt));
        };
        this.runner = Thread.ofVirtual()
                .name("env-runner-" + provider.name())
                .start(() -> Runner.run(source, this.models, policy, sink));
        this.reaper = Thread.ofVirtual().name("env-reaper-" + provider.name()).start(this::reap);
    }

    /** The domain {@code domain} of the process's registry, with its default counterparts. */
    public static Env of(String domain) {
        return of(domain, Settings.defaults());
    }

    /** The domain {@code domain} of the process's registry; IllegalArgumentException for an unknown domain. */
    public static Env of(String domain, Settings settings) {
        Registry registry = Registry.process();
        return new Env(registry.benchmark(domain), settings, registry.resolver());
    }

    public BenchmarkProvider provider() {
        return provider;
    }

    /** The task ids of a split of the domain, in its order. */
    public List<String> tasks(String split) {
        return provider.tasks(split);
    }

    /** The sessions whose episodes are running. */
    public int liveSessions() {
        return live.get();
    }

    /**
     * Starts an episode of {@code task} as trial {@code seed} (0..{@value #MAX_SEED}: the cell's repetition, which
     * picks the domain's per-trial seed), and answers its first observation with the new session's id; an error
     * observation for an unknown task or when {@link Settings#maxSessions} sessions are running.
     */
    public Observation reset(String task, int seed) {
        if (closed) return Observation.error(null, Observation.Kind.FULL, "the environment is closed");
        if (task == null || task.isBlank())
            return Observation.error(null, Observation.Kind.MALFORMED, "a reset names its task ({\"task\": ID})");
        if (seed < 0 || seed > MAX_SEED)
            return Observation.error(
                    null, Observation.Kind.MALFORMED, "seed must be 0.." + MAX_SEED + " (the trial), not " + seed);
        EnvironmentDef env;
        try {
            env = provider.environment(task, settings.roles(), settings.options());
        } catch (IllegalArgumentException e) {
            return Observation.error(
                    null, Observation.Kind.UNKNOWN_TASK, "domain " + provider.name() + ": " + e.getMessage());
        }
        if (live.incrementAndGet() > settings.maxSessions()) {
            live.decrementAndGet();
            return Observation.error(
                    null,
                    Observation.Kind.FULL,
                    settings.maxSessions() + " sessions are running, the most this environment allows: close one"
                            + " (POST /close) or let one end or time out");
        }
        Episode e = new Episode(UUID.randomUUID().toString());
        sessions.put(e.id, e);
        e.lock.lock();
        try {
            e.start(new Evaluation.Cell(provider, env, AGENT, null, seed));
            return e.await();
        } finally {
            e.touch();
            e.lock.unlock();
        }
    }

    /** {@link #step(String, Value)} of the action as JSON text. */
    public Observation step(String session, String actionJson) {
        Value v;
        try {
            v = Json.parse(actionJson);
        } catch (RuntimeException ex) {
            return Observation.error(session, Observation.Kind.MALFORMED, "the action is not JSON: " + ex.getMessage());
        }
        return step(session, v);
    }

    /**
     * Hands session {@code session}'s episode the agent's action (an assistant message in Chat Completions' shape:
     * {@code content} and {@code tool_calls}, or a string for a text message) and answers what the agent sees
     * next; the final observation carries the grade. An error observation, changing nothing, for a malformed action,
     * an unknown session, one whose episode has ended, or one another step is under way in.
     */
    public Observation step(String session, Value action) {
        Message.Assistant a;
        try {
            a = action(action);
        } catch (IllegalArgumentException ex) {
            Episode e = session == null ? null : sessions.get(session);
            if (e == null) return unknown(session);
            e.touch(); // a client that sent a malformed action is still there
            return Observation.error(session, Observation.Kind.MALFORMED, "malformed action: " + ex.getMessage());
        }
        return step(session, a);
    }

    /** {@link #step(String, Value)} of an action already a message (from Java: a policy's {@link Candidate} turn). */
    public Observation step(String session, Message.Assistant action) {
        Episode e = session == null ? null : sessions.get(session);
        if (e == null) return unknown(session);
        if (!e.lock.tryLock())
            return Observation.error(
                    session, Observation.Kind.BUSY, "another step of session '" + session + "' is under way");
        try {
            if (e.ended)
                return Observation.error(
                        session, Observation.Kind.ENDED, "the episode of session '" + session + "' has ended (done)");
            return e.step(action);
        } finally {
            e.touch();
            e.lock.unlock();
        }
    }

    private static Observation unknown(String session) {
        return Observation.error(
                session,
                Observation.Kind.UNKNOWN_SESSION,
                "unknown session '" + session + "' (closed, timed out, or never made: POST /reset starts one)");
    }

    /** Ends session {@code session} (its episode abandoned, nothing graded); false when there is none. */
    public boolean close(String session) {
        Episode e = session == null ? null : sessions.remove(session);
        if (e == null) return false;
        e.abandon();
        return true;
    }

    /** Closes every session and stops the runner once their episodes have ended. */
    @Override
    public void close() {
        closed = true;
        reaper.interrupt();
        for (String id : List.copyOf(sessions.keySet())) close(id);
        starts.add(NO_MORE);
        try {
            runner.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * An action as the agent's message: a string is a text message; an object is read as a Chat Completions
     * assistant message, each tool call with a {@code function} naming its tool. Arguments that are not a JSON
     * object are not refused here: the domain answers such a call as it answers a model's (its agent's error).
     */
    static Message.Assistant action(Value action) {
        if (action == null || action.isNone())
            throw new IllegalArgumentException("a step needs an action (an assistant message)");
        if (action instanceof PyStr s) return new Message.Assistant(s.value());
        if (!(action instanceof PyDict d))
            throw new IllegalArgumentException("an action is an assistant message object or a string, not "
                    + brokkr.python.PyJson.dumps(action).length() + " characters of "
                    + action.getClass().getSimpleName());
        Value role = d.get("role");
        if (role != null && !(role instanceof PyStr r && r.value().equals("assistant")))
            throw new IllegalArgumentException(
                    "an action's role is 'assistant', not " + brokkr.python.PyJson.dumps(role));
        Value content = d.get("content");
        if (content != null && !content.isNone() && !(content instanceof PyStr) && !(content instanceof PyList))
            throw new IllegalArgumentException(
                    "content is a string or null, not " + brokkr.python.PyJson.dumps(content));
        Value calls = d.get("tool_calls");
        if (calls != null && !calls.isNone()) {
            if (!(calls instanceof PyList list))
                throw new IllegalArgumentException("tool_calls is a list, not " + brokkr.python.PyJson.dumps(calls));
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof PyDict call
                        && call.get("function") instanceof PyDict fn
                        && fn.get("name") instanceof PyStr name
                        && !name.value().isBlank()))
                    throw new IllegalArgumentException("tool_calls[" + i
                            + "] is not {\"id\": ..., \"type\": \"function\", \"function\": {\"name\": TOOL,"
                            + " \"arguments\": JSON}}");
                Value args = fn.get("arguments");
                if (args != null && !args.isNone() && !(args instanceof PyStr) && !(args instanceof PyDict))
                    throw new IllegalArgumentException(
                            "tool_calls[" + i + "].function.arguments is a JSON object or its text");
            }
        }
        try {
            return OpenAiChat.decodeAssistant(d);
        } catch (WireFormat.MalformedResponse ex) {
            throw new IllegalArgumentException(ex.getMessage());
        }
    }

    /** Closes sessions idle for longer than {@link Settings#idle} (and forgets ended ones), every few seconds. */
    private void reap() {
        long idle = settings.idle().toNanos();
        long every = Math.max(10, Math.min(5_000, settings.idle().toMillis() / 4));
        while (!closed) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Episode e : sessions.values()) {
                if (now - e.touched > idle && !e.lock.isLocked()) close(e.id);
            }
        }
    }

    /** What an episode's thread tells the session. */
    private sealed interface Event {
        /** The agent's turn: the history since its last turn, and the tools. */
        record AgentTurn(List<Message> fresh, List<ToolSpec> tools) implements Event {}

        /** The episode ended, graded. */
        record Finished(Attempt attempt) implements Event {}

        /** The episode was abandoned (the session closed). */
        record Abandoned() implements Event {}
    }

    /** The action that tells a waiting agent its session was closed. */
    private static final Message.Assistant CLOSED = new Message.Assistant("(session closed)");

    /** One session: an episode on its own thread, with the external agent that hands its turns over. */
    private final class Episode {
        final String id;
        final ReentrantLock lock = new ReentrantLock();
        final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
        final LinkedBlockingQueue<Message.Assistant> actions = new LinkedBlockingQueue<>();
        volatile long touched = System.nanoTime();
        volatile boolean ended;
        private boolean counted = true;
        private List<ToolSpec> toolsSent;
        private int seen;

        Episode(String id) {
            this.id = id;
        }

        void touch() {
            touched = System.nanoTime();
        }

        /** The external agent: publishes the agent's turn, then waits for the client's action. */
        private final Candidate agent = new Candidate() {
            @Override
            public Turn next(List<Message> history, List<ToolSpec> tools) {
                // What is new since the agent's last turn (first: everything, the system prompt included); the
                // protocol's history then holds the message answered now.
                List<Message> fresh = List.copyOf(history.subList(Math.min(seen, history.size()), history.size()));
                seen = history.size() + 1;
                if (ended) throw new IllegalStateException("session " + id + " was closed");
                events.add(new Event.AgentTurn(fresh, tools));
                Message.Assistant action;
                try {
                    action = actions.take();
                } catch (InterruptedException e) {
                    // the runner's unit timeout: the episode ends as its failure
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("session " + id + " timed out");
                }
                if (action == CLOSED) throw new IllegalStateException("session " + id + " was closed");
                return Turn.of(action);
            }
        };

        void start(Evaluation.Cell cell) {
            Plan.Unit unit = new Plan.Unit(cell, CLIENT);
            Planner.of(List.of(unit), models); // the harness and scripted models checked as every plan's are
            Job<Attempt> job = Runner.cell(unit);
            byUnit.put(job, this);
            starts.add(job);
        }

        Observation step(Message.Assistant action) {
            actions.add(action);
            return await();
        }

        /** The episode's next event as the client's observation. */
        Observation await() {
            Event ev;
            try {
                ev = events.poll(settings.episode().toMillis() + 60_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ev = new Event.Abandoned();
            }
            return switch (ev) {
                case null -> end(new Observation(id, List.of(), List.of(), 0.0, true, info("closed", null), null));
                case Event.AgentTurn t -> {
                    List<ToolSpec> tools = t.tools().equals(toolsSent) ? List.of() : t.tools();
                    toolsSent = t.tools();
                    yield new Observation(id, t.fresh(), tools, 0.0, false, PyDict.empty(), null);
                }
                case Event.Finished f -> end(finished(f.attempt()));
                case Event.Abandoned a ->
                    end(new Observation(id, List.of(), List.of(), 0.0, true, info("closed", null), null));
            };
        }

        private Observation finished(Attempt a) {
            return new Observation(
                    id, List.of(), List.of(), a.completed() ? a.reward() : 0.0, true, info(null, a), null);
        }

        private Observation end(Observation o) {
            ended = true;
            uncount();
            return o;
        }

        /** The episode's end as info: the attempt's status, termination, checks, error. */
        private PyDict info(String status, Attempt a) {
            if (a == null) return PyDict.of("status", status, "termination", status);
            PyDict.Builder checks = PyDict.builder();
            for (Check c : a.checks()) checks.put(c.name(), brokkr.value.PyBool.of(c.passed()));
            String termination = a.evidence() == null ? null : a.evidence().termination();
            PyDict.Builder b = PyDict.builder()
                    .put("status", a.status().wire())
                    .put("termination", termination == null ? PyNone.NONE : Value.str(termination))
                    .put("checks", checks.build())
                    .put("reward", Value.of(a.completed() ? a.reward() : 0.0));
            if (a.trust() != null) b.put("trust", a.trust().name().toLowerCase(java.util.Locale.ROOT));
            if (a.error() != null) b.put("error", a.error());
            return b.build();
        }

        private synchronized void uncount() {
            if (counted) {
                counted = false;
                live.decrementAndGet();
            }
        }

        /** Ends the episode: its agent's next turn (or the one it waits for) fails, and nothing of it is graded. */
        void abandon() {
            ended = true;
            uncount();
            actions.add(CLOSED);
            events.add(new Event.Abandoned());
        }
    }
}
