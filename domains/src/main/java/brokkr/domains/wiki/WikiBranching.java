package brokkr.domains.wiki;

import brokkr.agent.ToolExecutor;
import brokkr.agent.YieldingLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.Branching;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.NextAction;
import brokkr.eval.Protocol;
import brokkr.eval.RunContext;
import brokkr.eval.Transcripts;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Checkpoints, branches and decision points of the wiki: the cut is after the candidate's k-th tool call
 * ({@link Branching#TOOL_CALL}), where its calls so far are answered and its next step not yet asked. A checkpoint
 * holds the log and the workspace after that call (the workspace value itself: every branch's fork starts from it,
 * nothing copied); a branch plays the episode on from the held log with its own candidate and harness
 * ({@link WikiEpisode#play}); a decision point replays the record's tool calls onto the task's seeded workspace (the
 * record's models are not asked), each result checked against the record's, and the record's next message is its
 * gold next action.
 *
 * <p>A held log is the protocol's: under {@code harness: loop} every file call is one message of it, however the
 * model made it. A branch (or a probe) under the loop harness starts its working conversation from that log, the
 * earlier calls as JSON tool calls, and a REPL branch a fresh sandbox: the checkpoint holds the workspace and the
 * log, not a loop's own conversation or JVM (a REPL snippet whose call was the cut does not go on).
 */
final class WikiBranching implements Branching {
    /** A held wiki episode: the workspace after the cut's call and the log up to its result (its value computed once). */
    record WikiHeld(Workspace workspace, List<Message> log, Value transcript, int cut) implements Held {
        static WikiHeld of(Workspace workspace, List<Message> log, int cut) {
            return new WikiHeld(workspace, List.copyOf(log), Transcripts.toValue(log), cut);
        }

        @Override
        public Value world() {
            return workspace.files();
        }
    }

    @Override
    public String cutUnit() {
        return TOOL_CALL;
    }

    @Override
    public Held hold(RunContext ctx, int at) throws InfrastructureFailure {
        return WikiEpisode.hold(ctx, at);
    }

    /** The episode on from the held log, on the workspace the branch's setup put in the fork (the checkpoint's). */
    @Override
    public Protocol resume(Held held) {
        WikiHeld h = (WikiHeld) held;
        return ctx -> WikiEpisode.play(ctx, h.log());
    }

    @Override
    public DecisionPoint decisionPoint(EnvironmentDef env, Value transcript, int at) {
        if (at < 1)
            throw new IllegalArgumentException("a decision point is after a tool call counted from 1, not " + at);
        List<Message> record = Transcripts.fromValue(transcript);
        Workspace ws = Workspace.seeded(WikiBenchmark.world(env));
        int calls = 0;
        for (int i = 0; i < record.size(); i++) {
            if (!(record.get(i) instanceof Message.Assistant a) || !a.hasToolCalls()) continue;
            List<ToolCall> cs = a.toolCalls();
            for (int j = 0; j < cs.size(); j++) {
                int k = i + 1 + j;
                if (k >= record.size() || !(record.get(k) instanceof Message.Tool answer))
                    throw new IllegalArgumentException("the record of wiki task " + env.taskId() + " does not replay:"
                            + " tool call " + (calls + j + 1) + " (" + cs.get(j).name() + ") has no result");
                ws = replayed(ws, cs.get(j), answer, calls + j + 1, env.taskId());
            }
            int first = calls + 1;
            calls += cs.size();
            if (at >= first && at < calls)
                throw new IllegalArgumentException("tool call " + at + " of the record is not the last call of its"
                        + " model message (that message made calls " + first + " to " + calls + " in one step): cut"
                        + " after tool call " + (first - 1) + " or " + calls);
            if (calls == at) {
                int end = i + 1 + cs.size();
                return new WikiDecisionPoint(env, at, ws, record.subList(0, end), recordedNext(record, end));
            }
            i += cs.size();
        }
        throw new IllegalArgumentException(
                "the record of wiki task " + env.taskId() + " has " + calls + " tool call(s), not " + at);
    }

    /**
     * One recorded call replayed on {@code ws}: the tools' own result must be the record's. A call the loop answered
     * itself (its arguments malformed, the executor failing: an error not in the tools' {@code ERROR:} form) reached
     * no tool, so it is not replayed and leaves the workspace as it was.
     */
    private static Workspace replayed(Workspace ws, ToolCall c, Message.Tool answer, int n, String task) {
        if (answer.error() && (answer.content() == null || !answer.content().startsWith("ERROR:"))) return ws;
        WikiTools.Step s = WikiTools.call(ws, c.name(), c.arguments() == null ? PyDict.empty() : c.arguments());
        if (!Objects.equals(s.result().content(), answer.content())
                || s.result().error() != answer.error())
            throw new IllegalArgumentException("the record of wiki task " + task + " does not replay: tool call " + n
                    + " (" + c.name() + ") recorded " + clip(answer.content()) + ", replayed "
                    + clip(s.result().content()));
        return s.after();
    }

    /** The record's message after the cut with the results of its calls; empty when the record ends at the cut. */
    private static Optional<NextAction> recordedNext(List<Message> record, int index) {
        if (index >= record.size() || !(record.get(index) instanceof Message.Assistant a)) return Optional.empty();
        List<NextAction.Result> results = new ArrayList<>();
        for (int i = index + 1; i < record.size() && record.get(i) instanceof Message.Tool t; i++)
            results.add(new NextAction.Result(t.content(), t.error()));
        return Optional.of(NextAction.of(a.content(), a.toolCalls(), results));
    }

    private static String clip(String s) {
        if (s == null) return "null";
        return "'" + (s.length() > 80 ? s.substring(0, 77) + "..." : s) + "'";
    }

    /**
     * A decision point of a wiki record: the log up to the k-th call's result (the candidate's system prompt the
     * benchmark's own: a probe's candidate is not the record's) and the workspace the record's calls left there.
     */
    record WikiDecisionPoint(
            EnvironmentDef env, int at, Workspace workspace, List<Message> log, Optional<NextAction> recorded)
            implements DecisionPoint {
        WikiDecisionPoint {
            log = List.copyOf(log);
        }

        @Override
        public String cutUnit() {
            return TOOL_CALL;
        }

        @Override
        public List<Message> history() {
            List<Message> h = new ArrayList<>(log.size());
            h.add(new Message.System(WikiBenchmark.INSTRUCTIONS));
            for (Message m : log) if (!(m instanceof Message.System)) h.add(m);
            return List.copyOf(h);
        }

        @Override
        public List<ToolSpec> tools() {
            return WikiTools.SPECS;
        }

        @Override
        public String cutMessage() {
            return log.getLast().content();
        }

        /** One step of the reference agent: its message, its calls run on a copy-free fork of the rebuilt workspace. */
        @Override
        public NextAction answer(Candidate candidate) {
            Turn t;
            try {
                t = candidate.next(history(), WikiTools.SPECS);
            } catch (InfrastructureFailure f) {
                return NextAction.failed(f.getMessage());
            }
            return action(t.message());
        }

        /**
         * Under {@code harness: loop} the harness's next protocol message: its working conversation starts from the
         * recorded log, and the sample is the first call it makes on the workspace (a REPL snippet's first file
         * call; the snippet does not go on), or its final answer. The loop (and a REPL's sandbox) is released after.
         */
        @Override
        public NextAction answer(Candidate model, PyDict harness) {
            Harness h = harness(harness);
            if (!h.loop()) return answer(model);
            String space = h.replGuidance() != null ? Harness.REPL : "tools";
            try (YieldingLoop loop = WikiHarness.loop(h, space, model, WikiBenchmark.INSTRUCTIONS)) {
                Turn t = loop.next(history(), WikiTools.SPECS);
                if (!t.message().hasToolCalls() && t.message().content() == null)
                    return NextAction.failed(
                            "the harness's turn ended without a call or an answer (its max_turn_steps)");
                return action(t.message());
            } catch (InfrastructureFailure f) {
                return NextAction.failed(f.getMessage());
            }
        }

        @Override
        public void checkHarness(PyDict harness) {
            harness(harness);
        }

        private static Harness harness(PyDict value) {
            Harness h = Harness.fromValue(value);
            if (h.claudeCode())
                throw new IllegalArgumentException("a wiki decision point is answered by the reference agent or harness"
                        + " loop; harness claude-code keeps its conversation in the CLI's session, which a probe"
                        + " cannot start from a record");
            return h;
        }

        /** A message as the next action, its calls executed one by one on the rebuilt workspace (which stays as it was). */
        private NextAction action(Message.Assistant m) {
            List<NextAction.Result> results = new ArrayList<>();
            var handler = WikiTools.handler(new AtomicReference<>(workspace));
            for (ToolCall c : m.toolCalls()) {
                if (c.isMalformed()) {
                    results.add(new NextAction.Result("Error: malformed tool call arguments: " + c.malformed(), true));
                    continue;
                }
                Message.Tool r = ToolExecutor.answer(handler, c);
                results.add(new NextAction.Result(r.content(), r.error()));
            }
            return NextAction.of(m.content(), m.toolCalls(), results);
        }
    }
}
