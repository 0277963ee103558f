package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.ContentHash;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Interaction;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A small fake benchmark for the runner's tests: task {@code qN}'s world is a dict with an empty
 * answer slot; the protocol tells the candidate "task qN, repetition r" and applies its one tool
 * call {@code answer(value)} to the world; the evaluator checks that an answer was given and that it
 * is the private secret {@code "ans-qN"}. Fake models ({@link Models}) answer by rule.
 */
final class QuizBench implements BenchmarkProvider {
    private final int tasks;

    QuizBench(int tasks) {
        this.tasks = tasks;
    }

    static String secret(String task) {
        return "ans-" + task;
    }

    @Override
    public String name() {
        return "quiz";
    }

    @Override
    public List<String> tasks(String split) {
        List<String> out = new ArrayList<>();
        switch (split) {
            case "all" -> {
                for (int i = 0; i < tasks; i++) out.add("q" + i);
            }
            case "even" -> {
                for (int i = 0; i < tasks; i += 2) out.add("q" + i);
            }
            default -> throw new IllegalArgumentException("unknown split " + split);
        }
        return out;
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        int i = Integer.parseInt(taskId.substring(1));
        if (i < 0 || i >= tasks) throw new IllegalArgumentException("unknown task " + taskId);
        // The quiz uses a judge when the experiment names one, to show it becomes part of the definition.
        Map<String, ModelRef> used = models.containsKey("judge") ? Map.of("judge", models.get("judge")) : Map.of();
        return new EnvironmentDef(
                "quiz", "quiz-v1", Map.of("tasks", ContentHash.sha256("quiz:" + tasks)), taskId, used, null);
    }

    static PyDict initialWorld(String task) {
        return PyDict.of("task", task, "answer", PyNone.NONE);
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            PyDict w = initialWorld(env.taskId());
            fork.set(w);
            return PyDict.of("initial_world_sha256", ContentHash.of(w));
        };
    }

    /** Replays the transcript's answer calls on the initial world, as the protocol applied them. */
    @Override
    public Optional<WorldReplay> worldReplay() {
        return Optional.of((env, evidence) -> {
            PyDict w = initialWorld(env.taskId());
            for (Value m : evidence.transcript().asList()) {
                if (m.asDict().get("tool_calls") instanceof PyList calls) {
                    for (Value c : calls) {
                        if (c.asDict().get("name").asStr().equals("answer")) {
                            w = w.with(
                                    "answer",
                                    c.asDict().get("arguments").asDict().getOrDefault("value", PyNone.NONE));
                        }
                    }
                }
            }
            return w;
        });
    }

    /** Scripted agent {@code oracle}: answers with the task's secret, which only this provider knows. */
    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent") || !model.model().equals("oracle"))
            throw new IllegalArgumentException("no scripted " + role + " '" + model.model() + "'");
        String secret = secret(env.taskId());
        return (history, tools) ->
                Turn.of(new Message.Assistant(null, List.of(new ToolCall("o1", "answer", PyDict.of("value", secret)))));
    }

    static final ToolSpec ANSWER = new ToolSpec("answer", "Give the answer", PyDict.of("type", "object"));

    @Override
    public Protocol protocol() {
        return ctx -> {
            List<Message> history = new ArrayList<>();
            history.add(new Message.System(ctx.systemPrompt() == null ? "Answer the quiz." : ctx.systemPrompt()));
            history.add(new Message.User("task " + ctx.env().taskId() + " repetition " + ctx.repetition()));
            // Like upstream tau2's per-trial seeds: a candidate with option seeded=true is asked with seed =
            // repetition.
            boolean seeded = ctx.agent().options().get("seeded") instanceof brokkr.value.PyBool b && b.value();
            Turn t = (seeded ? ctx.models().model("agent", PyDict.of("seed", ctx.repetition())) : ctx.candidate())
                    .next(history, List.of(ANSWER));
            history.add(t.message());
            for (ToolCall c : t.message().toolCalls()) {
                if (c.name().equals("answer")) {
                    ctx.world()
                            .set(ctx.world()
                                    .get()
                                    .asDict()
                                    .with("answer", c.arguments().getOrDefault("value", PyNone.NONE)));
                    history.add(new Message.Tool(c.id(), c.name(), "ok", false));
                }
            }
            return new Interaction(
                    transcript(history),
                    PyDict.of("tool_calls", t.message().toolCalls().size()),
                    "agent_stop");
        };
    }

    static Value transcript(List<Message> history) {
        List<Value> out = new ArrayList<>();
        for (Message m : history) {
            PyDict.Builder b = PyDict.builder();
            switch (m) {
                case Message.System s -> b.put("role", "system").put("content", s.content());
                case Message.User u -> b.put("role", "user").put("content", u.content());
                case Message.Assistant a -> {
                    b.put("role", "assistant")
                            .put("content", a.content() == null ? PyNone.NONE : Value.str(a.content()));
                    List<Value> calls = new ArrayList<>();
                    for (ToolCall c : a.toolCalls())
                        calls.add(PyDict.of("id", c.id(), "name", c.name(), "arguments", c.arguments()));
                    b.put("tool_calls", PyList.of(calls));
                }
                case Message.Tool t ->
                    b.put("role", "tool").put("name", t.name()).put("content", t.content());
            }
            out.add(b.build());
        }
        return PyList.of(out);
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            // Verify the setup's evidence against the task's initial world before trusting the run.
            boolean setupOk = ContentHash.of(initialWorld(run.env().taskId()))
                    .equals(run.setupEvidence().get("initial_world_sha256").asStr());
            Value answer = run.finalWorld().asDict().get("answer");
            boolean answered = !answer.isNone();
            boolean correct =
                    answered && answer.equals(Value.str(secret(run.env().taskId())));
            return new Verdict(
                    List.of(
                            new Check("setup_verified", setupOk),
                            new Check("answered", answered),
                            new Check("correct", correct)),
                    setupOk && correct ? 1.0 : 0.0,
                    TrustTier.DETERMINISTIC,
                    PyDict.of("expected_length", secret(run.env().taskId()).length()));
        };
    }

    /**
     * Fake models of provider {@code fake}: {@code gold} answers right, {@code stop} never calls a tool,
     * {@code flaky} answers wrong when (task number + repetition) is divisible by 3. Options:
     * {@code latency_ms} sleeps per call. A call fails with InfrastructureFailure when {@code failing}
     * accepts the prompt text.
     */
    static final class Models implements ModelFactory {
        final Predicate<String> failing;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final java.util.Set<ModelRef> created = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Models(Predicate<String> failing) {
            this.failing = failing;
        }

        Models() {
            this(s -> false);
        }

        @Override
        public String provider() {
            return "fake";
        }

        @Override
        public Candidate create(ModelRef ref) {
            created.add(ref);
            long latency = ref.options().get("latency_ms") instanceof PyInt i ? i.longValue() : 0;
            return (history, tools) -> {
                int now = inFlight.incrementAndGet();
                maxInFlight.accumulateAndGet(now, Math::max);
                calls.incrementAndGet();
                try {
                    if (latency > 0) Thread.sleep(latency);
                    String prompt = history.get(history.size() - 1).content();
                    ModelCall call = new ModelCall(
                            "fake",
                            ref.model(),
                            1,
                            "{\"prompt\": \"" + prompt + "\"}",
                            200,
                            "{}",
                            null,
                            System.currentTimeMillis(),
                            latency);
                    if (failing.test(prompt)) {
                        throw new InfrastructureFailure(
                                "fake provider: HTTP 500 after 3 attempts",
                                List.of(new ModelCall(
                                        "fake",
                                        ref.model(),
                                        1,
                                        "{}",
                                        500,
                                        null,
                                        "HTTP 500",
                                        System.currentTimeMillis(),
                                        0)),
                                null);
                    }
                    String[] words = prompt.split(" ");
                    String task = words[1];
                    int rep = Integer.parseInt(words[3]);
                    String value = switch (ref.model()) {
                        case "gold" -> secret(task);
                        case "flaky" -> (Integer.parseInt(task.substring(1)) + rep) % 3 == 0 ? "wrong" : secret(task);
                        case "stop" -> null;
                        default -> throw new IllegalArgumentException("no fake model " + ref.model());
                    };
                    Usage usage = new Usage(prompt.length(), value == null ? 1 : value.length());
                    Message.Assistant msg = value == null
                            ? new Message.Assistant("I cannot help.", List.of(), usage)
                            : new Message.Assistant(
                                    null, List.of(new ToolCall("c1", "answer", PyDict.of("value", value))), usage);
                    return new Turn(msg, List.of(call));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InfrastructureFailure("interrupted", List.of(), e);
                } finally {
                    inFlight.decrementAndGet();
                }
            };
        }
    }
}
