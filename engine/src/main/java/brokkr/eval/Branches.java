package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Usage;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Checkpoints of live episodes and their copy-on-write branches, for any benchmark with
 * {@link BenchmarkProvider#branching()}. A checkpoint runs a cell until the customer's k-th message and
 * holds it; a {@link Branch} is that checkpoint plus a variant, made in O(1) (the world and the log are
 * shared values, nothing is copied); running a branch delivers the held message and plays the episode to
 * its end on the one evaluation path ({@link Evaluation#evaluate(Evaluation.Cell, WorldSetup, Protocol,
 * Function, Evaluation.Recorder)}), so its attempt is graded like any other and carries
 * {@code setup.branch = {checkpoint, at}}.
 *
 * <p>A branch is its own cell: its environment is the task's definition with the option
 * {@value #BRANCH} = {@code {checkpoint, at}} (the checkpoint's id is the content address of its
 * source), so its content id differs from the plain task's and from every other checkpoint's, and its
 * repetition is the branch's index. Stored ({@code brokkr.experiment.StoredBranches}) it never meets
 * the whole episode's cell in the store's one-completed-attempt-per-cell index.
 */
public final class Branches {
    private Branches() {}

    /** The environment option that marks a branch's definition: {@code {checkpoint, at}}. */
    public static final String BRANCH = "branch";

    /**
     * What a branch changes against its checkpoint: the candidate's model, the customer (user model) and
     * the judge; null keeps the checkpoint's.
     */
    public record Variant(ModelRef agent, ModelRef user, ModelRef judge) {
        public static final Variant SAME = new Variant(null, null, null);

        public Variant withAgent(ModelRef m) { return new Variant(m, user, judge); }
        public Variant withUser(ModelRef m) { return new Variant(agent, m, judge); }
        public Variant withJudge(ModelRef m) { return new Variant(agent, user, m); }

        /** A short label: the changed roles ({@code agent=scripted/gold user=...}), or {@code same} for none. */
        public String label() {
            List<String> parts = new ArrayList<>();
            if (agent != null) parts.add("agent=" + agent);
            if (user != null) parts.add("user=" + user);
            if (judge != null) parts.add("judge=" + judge);
            return parts.isEmpty() ? "same" : String.join(" ", parts);
        }
    }

    /** A branch not yet run: its checkpoint (shared), its variant and its index (its repetition: the per-trial seed). */
    public record Branch(Checkpoint checkpoint, Variant variant, int index) {}

    /**
     * Runs {@code cell} until the customer's {@code at}-th message and holds it; IllegalArgumentException
     * when the benchmark cannot branch or the episode ends first. The model calls made up to the
     * checkpoint are kept with it ({@link Checkpoint#calls()}); every branch's evidence repeats them.
     */
    public static Checkpoint checkpoint(Evaluation.Cell cell, int at, Function<ModelRef, Candidate> models) throws InfrastructureFailure {
        Branching b = branching(cell.provider());
        if (at < 1) throw new IllegalArgumentException("a checkpoint is at a customer message counted from 1, not " + at);
        Evaluation.Recorder recorder = new Evaluation.Recorder();
        WorldCell fork = new WorldCell(PyNone.NONE);
        PyDict setup = cell.provider().worldSetup().install(cell.env(), fork);
        Candidate agent = recorder.wrap(Evidence.AGENT, Evaluation.resolve(cell, Evidence.AGENT, cell.agent().modelRef(), models));
        Branching.Held held = b.hold(new RunContext(cell.env(), cell.agent(), cell.systemPrompt(), cell.repetition(), fork, agent,
                Evaluation.roles(cell, models, recorder)), at);
        return new Checkpoint(Checkpoint.idOf(cell, at, held.transcript()), cell, at, setup, held, recorder.calls(), recorder.usage());
    }

    /** A branch of {@code cp}: O(1), nothing runs until {@link #run}. */
    public static Branch branch(Checkpoint cp, Variant variant, int index) { return new Branch(cp, variant, index); }

    /** {@code n} branches of one variant, indices 0..n-1. */
    public static List<Branch> branches(Checkpoint cp, Variant variant, int n) {
        List<Branch> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(branch(cp, variant, i));
        return out;
    }

    /**
     * The cell a branch runs as: the checkpoint's, with the variant's models (a changed user or judge is a
     * new environment), its environment marked {@value #BRANCH} and its repetition the branch's index.
     */
    public static Evaluation.Cell cell(Branch b) {
        Checkpoint cp = b.checkpoint();
        Evaluation.Cell base = cp.cell();
        EnvironmentDef env = base.env();
        if (b.variant().user() != null || b.variant().judge() != null) {
            Map<String, ModelRef> models = new LinkedHashMap<>(env.models());
            if (b.variant().user() != null) models.put("user", b.variant().user());
            if (b.variant().judge() != null) models.put("judge", b.variant().judge());
            env = base.provider().environment(env.taskId(), models, env.options());
        }
        env = new EnvironmentDef(env.benchmark(), env.upstreamRevision(), env.dataDigests(), env.taskId(), env.models(),
                env.options().with(BRANCH, cp.branchEvidence()));
        AgentDef agent = b.variant().agent() == null ? base.agent()
                : AgentDef.of(b.variant().agent(), base.agent().actionSpace(), base.systemPrompt());
        return new Evaluation.Cell(base.provider(), env, agent, base.systemPrompt(), b.index());
    }

    /**
     * Runs one branch to its end and grades it: an ordinary attempt whose setup evidence carries
     * {@code branch: {checkpoint, at}} and whose model calls begin with the checkpoint's (roles
     * {@value Checkpoint#CALL_ROLE_PREFIX}...; the candidate's own usage stays the branch's).
     */
    public static Attempt run(Branch b, Function<ModelRef, Candidate> models, Evaluation.Recorder recorder) {
        Checkpoint cp = b.checkpoint();
        Branching branching = branching(cp.cell().provider());
        WorldSetup fromCheckpoint = (env, fork) -> {
            fork.set(cp.world());
            return cp.setup().with(BRANCH, cp.branchEvidence());
        };
        Attempt a = Evaluation.evaluate(cell(b), fromCheckpoint, branching.resume(cp.held()), models, recorder);
        return withCheckpointCalls(a, cp);
    }

    private static Attempt withCheckpointCalls(Attempt a, Checkpoint cp) {
        Evidence e = a.evidence();
        List<Evidence.RecordedCall> calls = new ArrayList<>();
        for (Evidence.RecordedCall c : cp.calls()) calls.add(new Evidence.RecordedCall(Checkpoint.CALL_ROLE_PREFIX + c.role(), c.call()));
        calls.addAll(e.modelCalls());
        Map<String, Usage> usage = new TreeMap<>(e.usage());
        cp.usage().forEach((role, u) -> usage.put(Checkpoint.CALL_ROLE_PREFIX + role, u));
        Evidence with = new Evidence(e.setup(), e.transcript(), e.output(), e.termination(), e.finalWorldSha256(), calls, usage,
                e.timings(), e.details(), e.counts());
        return new Attempt(a.id(), a.environmentId(), a.agentId(), a.repetition(), a.taskId(), a.status(), a.checks(), a.reward(),
                a.trust(), with, a.error(), a.startedAtMillis(), a.durationMillis());
    }

    /** Runs branches concurrently ({@code parallelism} at a time), each with its own recorder; attempts in the branches' order. */
    public static List<Attempt> runAll(List<Branch> branches, Function<ModelRef, Candidate> models, int parallelism) throws InterruptedException {
        if (parallelism < 1) throw new IllegalArgumentException("parallelism must be at least 1");
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, Math.max(1, branches.size())),
                r -> Thread.ofPlatform().name("branch").daemon(true).unstarted(r))) {
            List<Future<Attempt>> fs = new ArrayList<>();
            for (Branch b : branches) fs.add(pool.submit(() -> run(b, models, new Evaluation.Recorder())));
            List<Attempt> out = new ArrayList<>();
            for (Future<Attempt> f : fs) out.add(get(f));
            return out;
        }
    }

    static <T> T get(Future<T> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }

    static Branching branching(BenchmarkProvider p) {
        return p.branching().orElseThrow(() -> new IllegalArgumentException("benchmark " + p.name() + " has no checkpoints or probes"
                + " (its interaction cannot be held at a customer message)"));
    }
}
