package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Usage;
import brokkr.repl.Harness;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Checkpoints of live episodes and their copy-on-write branches, for any benchmark with
 * {@link BenchmarkProvider#branching()}. A checkpoint runs a cell until its k-th cut (the benchmark's
 * {@link Branching#cutUnit()}: tau2's k-th customer message, the wiki's k-th tool call) and holds it; a {@link Branch} is that checkpoint plus a variant, made in O(1) (the world and the log are
 * shared values, nothing is copied); running a branch goes on from the cut and plays the episode to
 * its end on the one evaluation path (the runner evaluates a branch's {@link #cell} from its
 * {@link #setup} with its {@link #protocol}), so its attempt is graded like any other and carries
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
     * What a branch changes against its checkpoint: the candidate's model, the customer (user model), the
     * judge and the candidate's harness (with the action space it implies: {@code repl} for a REPL harness,
     * else {@code tools}); null keeps the checkpoint's. A changed model keeps the checkpoint's harness.
     */
    public record Variant(ModelRef agent, ModelRef user, ModelRef judge, Harness harness) {
        public static final Variant SAME = new Variant(null, null, null, null);

        public Variant(ModelRef agent, ModelRef user, ModelRef judge) {
            this(agent, user, judge, null);
        }

        public Variant withAgent(ModelRef m) {
            return new Variant(m, user, judge, harness);
        }

        public Variant withUser(ModelRef m) {
            return new Variant(agent, m, judge, harness);
        }

        public Variant withJudge(ModelRef m) {
            return new Variant(agent, user, m, harness);
        }

        public Variant withHarness(Harness h) {
            return new Variant(agent, user, judge, h);
        }

        /** A short label: the changed roles ({@code agent=scripted/gold user=...}), or {@code same} for none. */
        public String label() {
            List<String> parts = new ArrayList<>();
            if (agent != null) parts.add("agent=" + agent);
            if (harness != null) parts.add("harness=" + harness.label());
            if (user != null) parts.add("user=" + user);
            if (judge != null) parts.add("judge=" + judge);
            return parts.isEmpty() ? "same" : String.join(" ", parts);
        }
    }

    /** A branch not yet run: its checkpoint (shared), its variant and its index (its repetition: the per-trial seed). */
    public record Branch(Checkpoint checkpoint, Variant variant, int index) {}

    /**
     * Runs {@code cell} until its {@code at}-th cut and holds it; IllegalArgumentException
     * when the benchmark cannot branch or the episode ends first. The model calls made up to the
     * checkpoint are kept with it ({@link Checkpoint#calls()}); every branch's evidence repeats them.
     */
    public static Checkpoint checkpoint(Evaluation.Cell cell, int at, Function<ModelRef, Candidate> models)
            throws InfrastructureFailure {
        Branching b = branching(cell.provider());
        if (at < 1)
            throw new IllegalArgumentException("a checkpoint is at a " + b.cutUnit() + " counted from 1, not " + at);
        Evaluation.Recorder recorder = new Evaluation.Recorder();
        WorldCell fork = new WorldCell(PyNone.NONE);
        PyDict setup = cell.provider().worldSetup().install(cell.env(), fork);
        Candidate agent = recorder.wrap(
                Evidence.AGENT,
                Evaluation.resolve(cell, Evidence.AGENT, cell.agent().modelRef(), models));
        Branching.Held held = b.hold(
                new RunContext(
                        cell.env(),
                        cell.agent(),
                        cell.systemPrompt(),
                        cell.repetition(),
                        fork,
                        agent,
                        Evaluation.roles(cell, models, recorder)),
                at);
        return new Checkpoint(
                Checkpoint.idOf(cell, at, held.transcript()),
                cell,
                at,
                setup,
                held,
                recorder.calls(),
                recorder.usage());
    }

    /** A branch of {@code cp}: O(1), nothing runs until {@link #run}. */
    public static Branch branch(Checkpoint cp, Variant variant, int index) {
        return new Branch(cp, variant, index);
    }

    /** {@code n} branches of one variant, indices 0..n-1. */
    public static List<Branch> branches(Checkpoint cp, Variant variant, int n) {
        List<Branch> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(branch(cp, variant, i));
        return out;
    }

    /**
     * The cell a branch runs as: the checkpoint's, with the variant's models (a changed user or judge is a
     * new environment) and harness, its environment marked {@value #BRANCH} and its repetition the branch's
     * index. A variant's model runs in the checkpoint's harness unless the variant names another (a branch of
     * a REPL candidate is a REPL candidate).
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
        env = new EnvironmentDef(
                env.benchmark(),
                env.upstreamRevision(),
                env.dataDigests(),
                env.taskId(),
                env.models(),
                env.options().with(BRANCH, cp.branchEvidence()));
        AgentDef agent = b.variant().agent() == null
                ? base.agent()
                : AgentDef.of(b.variant().agent(), base.agent().actionSpace(), base.systemPrompt())
                        .withHarness(base.agent().harness());
        Harness h = b.variant().harness();
        if (h != null) {
            AgentDef a = agent;
            agent = new AgentDef(
                    a.provider(),
                    a.model(),
                    h.replGuidance() != null ? Harness.REPL : "tools",
                    a.options(),
                    a.systemPromptSha256(),
                    h.toValue());
        }
        return new Evaluation.Cell(base.provider(), env, agent, base.systemPrompt(), b.index());
    }

    /**
     * Where a branch's run starts: the checkpoint's world (shared, not copied) and its setup evidence with
     * {@code branch: {checkpoint, at}}. The runner evaluates a branch's cell with this setup and
     * {@link #protocol}, then adds the checkpoint's calls ({@link #withCheckpointCalls}): an ordinary
     * attempt, graded by the benchmark's evaluator.
     */
    public static WorldSetup setup(Branch b) {
        Checkpoint cp = b.checkpoint();
        return (env, fork) -> {
            fork.set(cp.world());
            return cp.setup().with(BRANCH, cp.branchEvidence());
        };
    }

    /** How a branch's run goes on: from the cut (tau2: the held message delivered), the episode played to its end. */
    public static Protocol protocol(Branch b) {
        return branching(b.checkpoint().cell().provider()).resume(b.checkpoint().held());
    }

    /**
     * A branch's attempt with the model calls made up to its checkpoint first (roles
     * {@value Checkpoint#CALL_ROLE_PREFIX}...; the candidate's own usage stays the branch's).
     */
    public static Attempt withCheckpointCalls(Attempt a, Checkpoint cp) {
        Evidence e = a.evidence();
        List<Evidence.RecordedCall> calls = new ArrayList<>();
        for (Evidence.RecordedCall c : cp.calls())
            calls.add(new Evidence.RecordedCall(Checkpoint.CALL_ROLE_PREFIX + c.role(), c.call()));
        calls.addAll(e.modelCalls());
        Map<String, Usage> usage = new TreeMap<>(e.usage());
        cp.usage().forEach((role, u) -> usage.put(Checkpoint.CALL_ROLE_PREFIX + role, u));
        Evidence with = new Evidence(
                e.setup(),
                e.transcript(),
                e.output(),
                e.termination(),
                e.finalWorldSha256(),
                calls,
                usage,
                e.timings(),
                e.details(),
                e.counts(),
                e.endpoints());
        return new Attempt(
                a.id(),
                a.environmentId(),
                a.agentId(),
                a.repetition(),
                a.taskId(),
                a.status(),
                a.checks(),
                a.reward(),
                a.trust(),
                with,
                a.error(),
                a.startedAtMillis(),
                a.durationMillis());
    }

    static Branching branching(BenchmarkProvider p) {
        return p.branching()
                .orElseThrow(() -> new IllegalArgumentException("benchmark " + p.name()
                        + " has no checkpoints or probes" + " (its interaction cannot be held at a cut)"));
    }
}
