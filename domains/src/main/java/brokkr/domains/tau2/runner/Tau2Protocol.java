package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.conversation.ModelCall;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.harness.Tau2Harness;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.eval.AgentDef;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Interaction;
import brokkr.eval.InterruptedInteraction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.RunContext;
import brokkr.provider.Providers;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A tau2 benchmark's protocol: upstream's half-duplex conversation ({@link Orchestrator}) with the candidate
 * (under its harness) as agent and the environment's {@code user} model as user simulator. It returns the
 * transcript, the termination reason and what it counted of the agent ({@link Interaction.Counts}), never the
 * grade; a failed model call ({@code infrastructure_error}) is an {@link InterruptedInteraction} keeping the
 * transcript so far.
 */
final class Tau2Protocol {
    private Tau2Protocol() {}

    /**
     * One run's episode as the protocol plays it: the task, the sides, the settings and the world the fork
     * holds; the harness's resources (a sandbox JVM) to release after it, and what the agent's model was
     * asked, counted the same way under every harness ({@link Interaction.Counter}: its steps and the
     * characters of each request, what input tokens grow with).
     */
    record Sides(
            Tau2Domain domain,
            TaskSpec task,
            EpisodeEnvironment<Worlds> env,
            AgentSide agent,
            UserSide user,
            EpisodeOptions options,
            long seed,
            Worlds world,
            Harness harness,
            AutoCloseable resources,
            Interaction.Counter agentCounter) {
        void release() {
            try {
                resources.close();
            } catch (Exception e) {
                // releasing a sandbox JVM cannot change the episode's result
            }
        }
    }

    /** The protocol of {@code benchmark}. */
    static Protocol of(Tau2Benchmark benchmark) {
        return ctx -> {
            Sides s = sides(benchmark, ctx);
            Orchestrator.Run<Worlds> run;
            try {
                run = Orchestrator.run(s.env(), s.world(), s.agent(), s.user(), s.options());
            } finally {
                s.release();
            }
            return interaction(ctx, s, run);
        };
    }

    /** The protocol's reading of a run context: the checks, the per-trial seed, the harnessed agent and the customer. */
    static Sides sides(Tau2Benchmark benchmark, RunContext ctx) {
        Tau2Domain d = benchmark.domain();
        TaskSpec task = d.task(ctx.env().taskId());
        AgentDef agentDef = ctx.agent();
        Harness harness = Harness.fromValue(agentDef.harness());
        if (!agentDef.actionSpace().equals("tools")
                && !(harness.loop() && agentDef.actionSpace().equals(Harness.REPL))) {
            throw new IllegalArgumentException(
                    benchmark.name() + " has the action spaces 'tools' and (with harness: loop) 'repl', not '"
                            + agentDef.actionSpace() + "'");
        }
        boolean scriptedAgent = agentDef.provider().equals(BenchmarkProvider.SCRIPTED);
        ModelRef userRef = ctx.env().models().get("user");
        if (!agentDef.mayFaceScriptedCounterparts() && userRef.provider().equals(BenchmarkProvider.SCRIPTED)) {
            throw new IllegalArgumentException(
                    "a model candidate needs a user simulator model (the experiment's 'user'); "
                            + "the scripted user only plays opposite the scripted candidates and external clients");
        }
        PyDict opts = ctx.env().options();
        long seed = TrialSeeds.of(Tau2Options.runSeed(opts), ctx.repetition() + 1)[ctx.repetition()];
        Candidate agentModel =
                seeded(agentDef.provider()) ? ctx.models().model("agent", PyDict.of("seed", seed)) : ctx.candidate();
        Candidate userModel =
                ctx.models().model("user", seeded(userRef.provider()) ? PyDict.of("seed", seed) : PyDict.empty());
        String prompt = ctx.systemPrompt() == null
                ? d.agentSystemPrompt()
                : ctx.systemPrompt() + "\n\n" + d.agentSystemPrompt();
        EpisodeEnvironment<Worlds> env = d.environment();
        Interaction.Counter counter = new Interaction.Counter();
        Tau2Harness.Agent harnessed =
                Tau2Harness.of(harness, counter, agentModel, prompt, env.agentTools(), Tau2ResultTypes.of(d.name()));
        // Upstream's LLMAgent never stops by itself (unless the environment says so); the scripted agents stop on
        // ###STOP###.
        AgentSide agent = new AgentSide(
                agentDef.modelRef().toString(),
                harnessed.candidate(),
                harnessed.systemPrompt(),
                env.agentTools(),
                scriptedAgent || Tau2Options.agentStopToken(opts),
                ctx.cellLimit());
        UserSide user =
                new UserSide(userRef.toString(), userModel, d.userSystemPrompt().apply(task), env.userTools(task));
        return new Sides(
                d,
                task,
                env,
                agent,
                user,
                Tau2Options.episodeOptions(opts),
                seed,
                world(ctx, env, task),
                harness,
                harnessed.resources(),
                counter);
    }

    /** The world the fork holds: the setup's own when the fork still holds what it put there, else decoded (a branch's checkpoint). */
    private static Worlds world(RunContext ctx, EpisodeEnvironment<Worlds> env, TaskSpec task) {
        Value fork = ctx.world().get();
        Tau2AttemptMemo.Setup setup = Tau2AttemptMemo.setupWithFork(fork);
        return setup != null ? setup.initial() : Tau2Fork.decode(fork, env.initialWorld(task));
    }

    /** The interaction of a finished episode, its final world written to the fork; a failed model call is an interrupted interaction. */
    static Interaction interaction(RunContext ctx, Sides s, Orchestrator.Run<Worlds> run)
            throws InterruptedInteraction {
        Value transcript = Tau2Transcript.toValue(run.trajectory());
        Interaction interaction = new Interaction(
                transcript,
                PyDict.of(
                        "steps",
                        run.steps(),
                        "tool_errors",
                        run.toolErrors(),
                        "seed",
                        s.seed(),
                        "note",
                        Tau2Fork.nullable(run.note())),
                run.termination().value(),
                s.agentCounter().counts(agentToolCalls(run.trajectory())));
        switch (run.termination()) {
            case INFRASTRUCTURE_ERROR -> {
                List<ModelCall> calls = new ArrayList<>(run.agentCalls());
                calls.addAll(run.userCalls());
                throw new InterruptedInteraction(
                        "tau2 episode ended with infrastructure_error: " + run.note(), calls, interaction);
            }
            case UNEXPECTED_ERROR ->
                throw new IllegalStateException("tau2 episode ended with unexpected_error: " + run.note());
            default -> {}
        }
        Worlds finalWorld = s.env().sync(run.finalWorld());
        Value fork = Tau2Fork.encode(finalWorld);
        ctx.world().set(fork);
        Tau2AttemptMemo.played(transcript, run.trajectory(), fork, finalWorld);
        return interaction;
    }

    /** The domain calls the agent made (under a REPL harness, those its snippets made), as the trajectory records them. */
    static long agentToolCalls(List<Tau2Message> trajectory) {
        long n = 0;
        for (Tau2Message m : trajectory)
            if (m instanceof Tau2Message.Agent a && a.isToolCall())
                n += a.toolCalls().size();
        return n;
    }

    /** Upstream's litellm passes {@code seed} to OpenAI-compatible providers only. */
    private static boolean seeded(String provider) {
        return Providers.openAiCompatible(provider);
    }
}
