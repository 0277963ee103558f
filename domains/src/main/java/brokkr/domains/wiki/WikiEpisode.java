package brokkr.domains.wiki;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.agent.YieldingLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.eval.Interaction;
import brokkr.eval.RunContext;
import brokkr.eval.Transcripts;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A wiki episode on the run's workspace ({@link RunContext#world()}): the protocol's one body, played from the task's
 * opening ({@link WikiBenchmark#protocol}) or from a held log (a branch, {@link WikiBranching#resume}), or played
 * until the candidate's k-th tool call and held there ({@link WikiBranching#hold}). The reference agent is the plain
 * loop with the file tools; under {@code harness: loop} Brokkr's loop with the file tools or the Java REPL
 * ({@link WikiHarness}), every file call one message of the protocol's transcript. At most
 * {@value WikiBenchmark#MAX_STEPS} protocol messages of the candidate in all, a held log's included.
 */
final class WikiEpisode {
    private WikiEpisode() {}

    /** How a run of the loop ended: finished (its transcript and workspace), or held at the cut. */
    private record Run(Transcript transcript, Workspace workspace, boolean harnessLoop, Interaction.Counter counter) {}

    /** The episode from {@code start} (the opening, or a held log) to its end: the protocol's interaction. */
    static Interaction play(RunContext ctx, List<Message> start) throws InfrastructureFailure {
        Run r = run(ctx, start, 0);
        ctx.world().set(r.workspace().files());
        Transcript t = r.transcript();
        long calls = t.toolCalls().size();
        return new Interaction(
                Transcripts.toValue(t.messages()),
                PyDict.of("pages", r.workspace().wiki().size(), "tool_calls", calls),
                WikiBenchmark.termination(t, r.harnessLoop()),
                r.counter() == null
                        ? Interaction.Counts.toolCalls(calls)
                        : r.counter().counts(calls));
    }

    /**
     * The episode from the task's opening until the candidate's {@code at}-th tool call has been answered, held
     * before its next step is asked for: the log so far and the workspace after that call. IllegalArgumentException
     * when the episode ends first, or when the {@code at}-th call is not the last of its model message (the calls
     * of one message are one step; a cut inside it is no point the candidate decides at).
     */
    static WikiBranching.WikiHeld hold(RunContext ctx, int at) throws InfrastructureFailure {
        Run r;
        try {
            r = run(ctx, WikiBenchmark.opening(ctx), at);
        } catch (Cut.Reached held) {
            return WikiBranching.WikiHeld.of(held.workspace, held.log, at);
        }
        Transcript t = r.transcript();
        throw new IllegalArgumentException(
                "the episode of wiki task " + ctx.env().taskId() + " ended ("
                        + WikiBenchmark.termination(t, r.harnessLoop()) + ") after "
                        + t.toolCalls().size() + " tool call(s), before tool call " + at);
    }

    private static Run run(RunContext ctx, List<Message> start, int holdAt) throws InfrastructureFailure {
        Harness h = Harness.fromValue(ctx.agent().harness());
        String space = ctx.agent().actionSpace();
        if (!space.equals("tools") && !(h.loop() && space.equals(Harness.REPL)))
            throw new IllegalArgumentException(
                    "wiki has the action spaces 'tools' and (with harness: loop) 'repl', not '" + space + "'");
        AtomicReference<Workspace> ws =
                new AtomicReference<>(Workspace.fromValue(ctx.world().get()));
        Interaction.Counter counter = h.loop() ? new Interaction.Counter() : null;
        YieldingLoop loop = h.loop()
                ? WikiHarness.loop(
                        h, space, counter.wrap(ctx.candidate()), ((Message.System) start.getFirst()).content())
                : null;
        Candidate agent = loop == null ? ctx.candidate() : loop;
        if (holdAt > 0) agent = new Cut(holdAt).before(agent, ws);
        long taken = start.stream().filter(Message.Assistant.class::isInstance).count();
        Transcript t;
        try {
            t = new AgentLoop((int) (WikiBenchmark.MAX_STEPS - taken), ctx.cellLimit())
                    .run(agent, start, WikiTools.SPECS, ToolExecutor.sequential(WikiTools.handler(ws)));
        } finally {
            if (loop != null) loop.close();
        }
        if (t.stop() == Transcript.Stop.INFRASTRUCTURE_FAILURE) {
            InfrastructureFailure f = t.failure();
            throw new InfrastructureFailure(f == null ? "infrastructure failure" : f.getMessage(), t.modelCalls(), f);
        }
        return new Run(t, ws.get(), loop != null, counter);
    }

    /**
     * The cut after the {@code at}-th tool call: the candidate is asked for its next step only after every call of
     * its last message was answered, so the cut is met at the ask that follows the message holding call
     * {@code at}, which ends the loop there ({@link Reached}) before the candidate is asked.
     */
    private record Cut(int at) {
        /** Ends the loop at the cut; an unchecked throwable the agent loop does not catch (it catches only infrastructure failures). */
        static final class Reached extends RuntimeException {
            final List<Message> log;
            final Workspace workspace;

            Reached(List<Message> log, Workspace workspace) {
                super(null, null, false, false);
                this.log = List.copyOf(log);
                this.workspace = workspace;
            }
        }

        Candidate before(Candidate agent, AtomicReference<Workspace> ws) {
            return (history, tools) -> {
                int calls = 0, last = 0;
                for (Message m : history)
                    if (m instanceof Message.Assistant a && a.hasToolCalls()) {
                        last = a.toolCalls().size();
                        calls += last;
                    }
                if (calls == at) throw new Reached(history, ws.get());
                if (calls > at)
                    throw new IllegalArgumentException("tool call " + at + " is not the last call of its model message"
                            + " (that message made calls " + (calls - last + 1) + " to " + calls
                            + " in one step): cut after tool call " + (calls - last) + " or " + calls);
                return agent.next(history, tools);
            };
        }
    }
}
