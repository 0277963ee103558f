package brokkr.domains.wiki;

import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.eval.AgentInterface;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branching;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.RunContext;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.Value;
import brokkr.world.ContentId;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The wiki catalog benchmark on the evaluation path, domain {@code wiki}. One task, {@code catalog}: turn the
 * documents under {@code /docs} into a linked wiki under {@code /wiki}. Split {@code public} is that task on the
 * public world ({@link WikiWorld#PUBLIC_SEED}); the domain option {@code variant: SEED} (an experiment file's
 * {@code options: {variant: 17}}) makes it a private variant, a fresh world from that seed, its seed part of the
 * environment's content. The world of an attempt is a {@link Workspace} seeded with the documents; the protocol
 * runs the agent loop with the {@link WikiTools} (or, under {@code harness: loop}, Brokkr's loop with those tools
 * or the Java REPL: {@link WikiHarness}); the evaluator reads only the files left under {@code /wiki}
 * and grades them with {@link WikiChecker} (its checks are the verdict's, after {@code setup_verified}; the
 * reward is its score). Scripted candidates ({@code provider: scripted}): the {@link ReferenceWiki.Kind}s, e.g.
 * {@code reference}, {@code dump}, {@code empty}, each writing its pages with {@code write_file}. The judge tier
 * ({@link WikiJudge}, off by default) is on when the experiment names a {@code judge} model: each page is then
 * judged for faithfulness to the documents it cites, the verdicts are the check {@code faithful}, and the judge's
 * model is part of the environment's content id ({@code judge: {provider: scripted, model: gold}}: {@link GoldJudge}).
 */
public final class WikiBenchmark implements BenchmarkProvider {
    static final String REVISION = "brokkr-wiki-1";
    public static final String TASK = "catalog";
    static final int MAX_STEPS = 200;

    @Override
    public String name() {
        return "wiki";
    }

    @Override
    public List<String> tasks(String split) {
        if (!split.equals("public")) throw new IllegalArgumentException("unknown split '" + split + "' (public)");
        return List.of(TASK);
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        return environment(taskId, models, PyDict.empty());
    }

    /**
     * The task on the public world, or on the variant of the option {@code variant: SEED}; the definition's task
     * id then names the seed ({@code catalog@17}), so a scorecard keeps the public set and each variant apart.
     * {@code catalog@17} is also accepted as a task id, the same as {@code catalog} with {@code variant: 17}.
     */
    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
        for (String k : options.keys())
            if (!k.equals("variant")) throw new IllegalArgumentException("unknown wiki option '" + k + "' (variant)");
        Long seed = options.isEmpty() ? null : variant(options);
        if (taskId.startsWith(TASK + "@")) {
            long fromId;
            try {
                fromId = Long.parseLong(taskId.substring(TASK.length() + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "unknown wiki task " + taskId + " (" + TASK + " or " + TASK + "@SEED)");
            }
            if (seed != null && seed != fromId)
                throw new IllegalArgumentException("wiki task " + taskId + " and option variant " + seed + " disagree");
            seed = fromId;
        } else if (!taskId.equals(TASK)) {
            throw new IllegalArgumentException("unknown wiki task " + taskId + " (" + TASK + " or " + TASK + "@SEED)");
        }
        PyDict canonical = seed == null ? PyDict.empty() : PyDict.of("variant", PyInt.of(seed));
        WikiWorld w = WikiWorld.generate(seed(canonical));
        return new EnvironmentDef(
                name(),
                REVISION,
                Map.of("world", ContentId.of(w.toValue()).hex()),
                seed == null ? TASK : TASK + "@" + seed,
                judgeRole(models),
                canonical);
    }

    /**
     * The one model role wiki keeps from an experiment's: {@value WikiJudge#ROLE}, the judge tier's model when
     * given (part of the content id then), none otherwise, so that without a judge the definition is what it
     * always was.
     */
    private static Map<String, ModelRef> judgeRole(Map<String, ModelRef> models) {
        ModelRef judge = models.get(WikiJudge.ROLE);
        return judge == null ? Map.of() : Map.of(WikiJudge.ROLE, judge);
    }

    private static long variant(PyDict options) {
        Value v = options.get("variant");
        if (v instanceof PyInt i && i.longValue() >= 0) return i.longValue();
        throw new IllegalArgumentException(
                "wiki option variant must be a seed, a whole number >= 0 (given: " + v + ")");
    }

    /** The world's seed: the variant's, else the public one. */
    static long seed(PyDict options) {
        return options.containsKey("variant") ? variant(options) : WikiWorld.PUBLIC_SEED;
    }

    static WikiWorld world(EnvironmentDef env) {
        return WikiWorld.generate(seed(env.options()));
    }

    static Map<String, String> docs(WikiWorld w) {
        Map<String, String> docs = new TreeMap<>();
        Documents.of(w).forEach((p, d) -> docs.put(p, d.text()));
        return docs;
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            Workspace ws = Workspace.seeded(world(env));
            fork.set(ws.files());
            return PyDict.of("initial_world_sha256", WorldHash.sha256(ws.files(), true));
        };
    }

    /** What the agent is told: the task, the conventions the checker reads (titles, links, citations, the index). */
    public static final String INSTRUCTIONS = """
            You are cataloguing an organisation's documents. The folder /docs holds dated documents of different
            authority (a charter, reports, minutes, press releases, a newsletter, a blog, and others). Turn them
            into a linked wiki under /wiki, using the tools list_files, read_file, search, write_file, edit_file.

            - Write one Markdown page per organisation, person, site and event that matters, titled with a first
              line "# <its name>", in your own words (do not paste the documents).
            - Cite the document each statement comes from with a Markdown link to it, e.g. [charter](/docs/charter.md),
              on the line that makes the statement.
            - Link related pages to each other with Markdown links, e.g. [Name](name.md).
            - Prefer the latest authoritative figure; mention an outdated or wrong value only with a qualifier
              ("formerly", "the blog claims"). Do not invent figures; a figure you compute (e.g. a duration between
              two dates) is welcome, with both sources cited.
            - Leave out anything about other organisations.
            - Write /wiki/index.md linking every page.

            Reply "done" when the wiki is complete.""";

    static List<Message> opening(RunContext ctx) {
        String system = ctx.systemPrompt() == null ? INSTRUCTIONS : ctx.systemPrompt() + "\n\n" + INSTRUCTIONS;
        return List.of(new Message.System(system), new Message.User("Catalogue /docs into /wiki."));
    }

    /**
     * The reference agent (the plain loop with the file tools, at most {@value #MAX_STEPS} steps), or under
     * {@code harness: loop} Brokkr's loop with the file tools or the Java REPL ({@link WikiHarness}). Under the
     * loop every file call is one message of the protocol's transcript, whoever made it, and at most
     * {@value #MAX_STEPS} of them are run; the model's own steps are bounded by the harness's
     * {@code max_turn_steps}. The workspace is the attempt's alone (its fork), so attempts run in parallel. The
     * episode's body is {@link WikiEpisode}'s, shared with checkpoints and branches.
     */
    @Override
    public Protocol protocol() {
        return ctx -> WikiEpisode.play(ctx, opening(ctx));
    }

    /**
     * Why the interaction ended: the loop's stop, where the harness's loop ending its one turn over
     * {@code max_turn_steps} (its answer empty: {@link YieldingLoop}) is {@code max_steps} too.
     */
    static String termination(Transcript t, boolean harnessLoop) {
        if (harnessLoop
                && t.stop() == Transcript.Stop.ANSWERED
                && t.messages().getLast() instanceof Message.Assistant a
                && a.content() == null) return "max_steps";
        return t.stop().name().toLowerCase();
    }

    @Override
    public AgentInterface agentInterface() {
        return AgentInterface.referenceAndLoop(AgentInterface.Shape.USER_TURNS, List.of("tools"));
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            WikiWorld w = world(run.env());
            Value initial = run.setupEvidence().get("initial_world_sha256");
            boolean setup = initial != null
                    && initial.asStr()
                            .equals(WorldHash.sha256(Workspace.seeded(w).files(), true));
            Map<String, String> docs = docs(w),
                    wiki = Workspace.fromValue(run.finalWorld()).wiki();
            // The judge tier, when the environment names a judge: its verdicts are the faithful check.
            ModelRef judge = run.env().models().get(WikiJudge.ROLE);
            WikiJudge.Verdicts judged =
                    judge == null ? null : WikiJudge.judge(judge.toString(), models.model(WikiJudge.ROLE), docs, wiki);
            WikiChecker.Grade g = WikiChecker.grade(Gold.of(w), docs, wiki, judged);
            List<Check> checks = new ArrayList<>();
            checks.add(new Check("setup_verified", setup));
            checks.addAll(g.checks());
            // A model's verdict is only as good as the model; the scripted gold judge is code over the world.
            TrustTier trust = judge == null || judge.provider().equals(SCRIPTED)
                    ? TrustTier.DETERMINISTIC
                    : TrustTier.MODEL_JUDGED;
            return new Verdict(checks, setup ? g.score() : 0.0, trust, g.details());
        };
    }

    /**
     * The final workspace from a record: the seeded workspace with the transcript's tool calls replayed in order,
     * as the protocol's handler ran them (one at a time, each on the workspace the last one left).
     */
    @Override
    public Optional<WorldReplay> worldReplay() {
        return Optional.of((env, evidence) -> {
            Workspace ws = Workspace.seeded(world(env));
            if (evidence.transcript().isNone()) return ws.files();
            for (Message m : Transcripts.fromValue(evidence.transcript()))
                if (m instanceof Message.Assistant a)
                    for (ToolCall c : a.toolCalls())
                        ws = WikiTools.call(ws, c.name(), c.arguments() == null ? PyDict.empty() : c.arguments())
                                .after();
            return ws.files();
        });
    }

    /** Checkpoints after the candidate's k-th tool call, their branches, and decision points of records ({@link WikiBranching}). */
    @Override
    public Optional<Branching> branching() {
        return Optional.of(new WikiBranching());
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(new WikiExploration(this));
    }

    /**
     * The scripted candidates ({@link ReferenceWiki.Kind}) and the scripted judge {@value GoldJudge#NAME}
     * ({@link GoldJudge}: the judge tier answered from the world's gold).
     */
    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (role.equals(WikiJudge.ROLE)) {
            if (!model.model().equals(GoldJudge.NAME))
                throw new IllegalArgumentException("unknown wiki scripted judge '" + model.model()
                        + "' (scripted judges: " + GoldJudge.NAME + ")");
            return new GoldJudge(Gold.of(world(env)));
        }
        if (!role.equals("agent")) throw new IllegalArgumentException("wiki has no scripted " + role);
        return new PageWriter(ReferenceWiki.of(world(env), ReferenceWiki.Kind.of(model.model())));
    }
}
