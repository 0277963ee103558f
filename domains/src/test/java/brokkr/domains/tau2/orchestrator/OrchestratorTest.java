package brokkr.domains.tau2.orchestrator;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.value.Json;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The half-duplex protocol's rules on {@link FakeEnvironment}, each episode a cell of {@link FakeBenchmark} run the
 * production way ({@link Tau2Cell}): test candidates and users are models of provider {@value Tau2Cell#TEST}, judged
 * by the scripted all-met judge (every NL assertion met), or the scripted gold replay and customer.
 */
class OrchestratorTest {

    static TaskSpec task(String criteria) {
        return TaskSpec.parse(Json.parse("""
                {"id": "t1", "user_scenario": {"instructions": {"domain": "fake", "reason_for_call": "Please set b to 2.",
                 "known_info": null, "unknown_info": null, "task_instructions": "Be brief."}},
                 "initial_state": null, "evaluation_criteria": %s}""".formatted(criteria)).asDict());
    }

    static final TaskSpec FULL = task("""
            {"actions": [{"action_id": "a0", "name": "get", "arguments": {"key": "a"}},
                         {"action_id": "a1", "name": "set", "arguments": {"key": "b", "value": 2}},
                         {"action_id": "u0", "requestor": "user", "name": "press", "arguments": {"button": "ok"}},
                         {"action_id": "u1", "requestor": "user", "name": "press", "arguments": {"button": "go"}},
                         {"action_id": "a2", "name": "set", "arguments": {"key": "c", "value": 3}}],
             "communicate_info": ["b is 2", "total: 1,000"],
             "nl_assertions": ["Agent sets b"],
             "reward_basis": ["DB", "ACTION", "NL_ASSERTION"]}""");

    static final FakeBenchmark BENCH = new FakeBenchmark(FULL);

    /** The episode options as the benchmark's options; the test agent stops on ###STOP### as the scripted ones do. */
    static PyDict options(EpisodeOptions o, boolean agentStopToken) {
        return PyDict.of(
                Tau2Benchmark.MAX_STEPS,
                o.maxSteps(),
                Tau2Benchmark.MAX_ERRORS,
                o.maxErrors(),
                Tau2Benchmark.ENFORCE_COMMUNICATION_PROTOCOL,
                o.enforceCommunicationProtocol(),
                Tau2Benchmark.AGENT_STOP_TOKEN,
                agentStopToken);
    }

    static Tau2Cell run(TaskSpec t, Candidate a, Candidate u, EpisodeOptions o) {
        return run(t, a, u, o, true);
    }

    static Tau2Cell run(TaskSpec t, Candidate a, Candidate u, EpisodeOptions o, boolean agentStopToken) {
        return Tau2Cell.run(
                BENCH,
                t.id(),
                Tau2Cell.test("agent"),
                Tau2Cell.test("user"),
                Tau2Cell.scripted(Tau2Benchmark.ALL_MET),
                options(o, agentStopToken),
                Map.of("agent", a, "user", u));
    }

    @Test
    void goldAgentAndScriptedUserFollowTheGoldOrderAndScoreOne() {
        Tau2Cell r = Tau2Cell.scriptedRun(BENCH, FULL.id(), Tau2Benchmark.GOLD);
        assertEquals(TerminationReason.AGENT_STOP, r.termination());
        assertEquals(1.0, r.reward(), r.checks().toString());
        // the configured judge (the default, known-verdict) as the run names it, and the judge that was asked
        assertEquals(
                "scripted-gold-verdict",
                Tau2Benchmark.judgeName(
                        Tau2Benchmark.DEFAULT_JUDGE,
                        brokkr.eval.AgentDef.of(Tau2Cell.scripted(Tau2Benchmark.GOLD), "tools", null)));
        assertEquals("scripted-gold-verdict", r.judge());
        List<String> shape =
                r.transcript().stream().map(OrchestratorTest::describe).toList();
        assertEquals(
                List.of(
                        "assistant:Hi! How can I help you today?",
                        "user:Please set b to 2.",
                        "assistant->get",
                        "tool(assistant):1",
                        "assistant->set",
                        "tool(assistant):ok",
                        "assistant:" + GoldReplayAgent.USER_ACTIONS_REQUEST + " press, press",
                        "user->press",
                        "tool(user):ok",
                        "user->press",
                        "tool(user):ok",
                        "user:Done.",
                        "assistant->set",
                        "tool(assistant):ok",
                        "assistant:" + GoldReplayAgent.COMMUNICATE_PREFIX + " b is 2; total: 1,000.",
                        "user:Thank you.",
                        "assistant:" + GoldReplayAgent.CLOSING),
                shape);
        // Communicate is not in the basis, but checked: the comma-bearing info can never be met (upstream quirk).
        assertEquals(true, r.checks().get("COMMUNICATE:b is 2"));
        assertEquals(false, r.checks().get("COMMUNICATE:total: 1,000"));
        assertEquals(List.of(), r.failedBasisChecks());
        assertEquals(r.db().get("gold_db_hash").asStr(), r.finalDbHash());
        assertEquals(16, r.steps());
    }

    static String describe(Tau2Message m) {
        return switch (m) {
            case Tau2Message.ToolResult t -> "tool(" + t.requestor().wire() + "):" + t.content();
            case Tau2Message.Participant p
            when p.isToolCall() -> p.role() + "->" + p.toolCalls().get(0).name();
            case Tau2Message.Participant p -> p.role() + ":" + p.content();
        };
    }

    @Test
    void stopAtOnceAgentLosesTheDbAndActions() {
        Tau2Cell r = run(FULL, new StopAtOnceAgent(), new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.AGENT_STOP, r.termination());
        assertEquals(0.0, r.reward());
        assertFalse(r.dbMatch());
        assertEquals(
                List.of("DB", "ACTION:a0", "ACTION:a1", "ACTION:u0", "ACTION:u1", "ACTION:a2"), r.failedBasisChecks());
        assertEquals(3, r.transcript().size());
    }

    /** An agent that calls {@code tool} every turn, {@code perTurn} calls at once. */
    static Candidate caller(String tool, int perTurn) {
        AtomicInteger n = new AtomicInteger();
        return (history, tools) -> {
            List<ToolCall> calls = new ArrayList<>();
            for (int i = 0; i < perTurn; i++)
                calls.add(new ToolCall("c" + n.incrementAndGet(), tool, PyDict.of("key", "a")));
            return Turn.of(new Message.Assistant(null, calls));
        };
    }

    @Test
    void maxStepsCountsEveryStepAndIsCheckedOnlyWhenNotWaitingForTheEnvironment() {
        Tau2Cell r = run(FULL, caller("get", 1), new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.MAX_STEPS, r.termination());
        // user opening (1), then agent call + env result pairs: checks run after odd steps only.
        assertEquals(201, r.steps());
        assertEquals(0.0, r.reward());
        assertFalse(r.evaluated());
        assertEquals("Simulation terminated prematurely. Termination reason: max_steps", r.gradeNote());
        r = run(FULL, caller("get", 1), new ScriptedUser(FULL), EpisodeOptions.DEFAULT.withMaxSteps(10));
        assertEquals(11, r.steps());
    }

    @Test
    void tooManyErrorsCountsEveryFailedCallOfEitherSide() {
        Tau2Cell r = run(FULL, caller("fail", 1), new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.TOO_MANY_ERRORS, r.termination());
        assertEquals(10, r.toolErrors());
        assertEquals(21, r.steps());
        r = run(FULL, caller("fail", 3), new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.TOO_MANY_ERRORS, r.termination());
        assertEquals(12, r.toolErrors(), "parallel calls all count; the check runs after the environment step");
        Tau2Message.ToolResult last =
                (Tau2Message.ToolResult) r.transcript().get(r.transcript().size() - 1);
        assertTrue(last.error());
        assertEquals("Error: always fails", last.content());
    }

    @Test
    void emptyAgentMessageIsAnAgentError() {
        for (boolean strict : new boolean[] {false, true}) {
            Tau2Cell r = run(
                    FULL,
                    (h, t) -> Turn.of(new Message.Assistant("  \n")),
                    new ScriptedUser(FULL),
                    EpisodeOptions.DEFAULT.withEnforcedProtocol(strict));
            assertEquals(TerminationReason.AGENT_ERROR, r.termination());
            assertEquals(0.0, r.reward());
            assertEquals("agent sent an empty message", r.note());
        }
    }

    @Test
    void emptyUserMessageIsAUserError() {
        Tau2Cell r = run(
                FULL,
                new GoldReplayAgent(FULL),
                (h, t) -> Turn.of(new Message.Assistant(null)),
                EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.USER_ERROR, r.termination());
    }

    /** Says "Let me check." together with a tool call, then stops. */
    static Candidate textAndTool() {
        return (history, tools) -> {
            boolean called = history.stream().anyMatch(m -> m instanceof Message.Assistant a && a.hasToolCalls());
            return Turn.of(
                    called
                            ? new Message.Assistant(Orchestrator.STOP)
                            : new Message.Assistant(
                                    "Let me check.",
                                    List.of(new ToolCall("c1", "set", PyDict.of("key", "b", "value", 2)))));
        };
    }

    @Test
    void protocolOffSendsTextWithToolCallsToTheEnvironmentAndTheUserNeverSeesIt() {
        List<List<Message>> userViews = new ArrayList<>();
        Candidate recordingUser = (history, tools) -> {
            userViews.add(List.copyOf(history));
            return Turn.of(new Message.Assistant("Please set b to 2."));
        };
        Tau2Cell r = run(FULL, textAndTool(), recordingUser, EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.AGENT_STOP, r.termination());
        assertEquals(
                List.of(
                        "assistant:Hi! How can I help you today?",
                        "user:Please set b to 2.",
                        "assistant->set",
                        "tool(assistant):ok",
                        "assistant:###STOP###"),
                r.transcript().stream().map(OrchestratorTest::describe).toList());
        assertEquals(1, userViews.size());
        assertTrue(userViews.get(0).stream().noneMatch(m -> "Let me check.".equals(m.content())));
        // The user's view is flipped: the agent's greeting is a user message to the user model.
        assertEquals(
                List.of(new Message.System("USER PROMPT"), new Message.User(Orchestrator.GREETING)), userViews.get(0));
    }

    @Test
    void protocolOnEndsOnTextWithToolCallsBeforeTheyRun() {
        Tau2Cell r =
                run(FULL, textAndTool(), new ScriptedUser(FULL), EpisodeOptions.DEFAULT.withEnforcedProtocol(true));
        assertEquals(TerminationReason.AGENT_ERROR, r.termination());
        assertEquals("agent sent both text content and tool calls", r.note());
        assertEquals(3, r.transcript().size(), "the tool call was not executed");
        assertEquals(r.initialDbHash(), r.finalDbHash());
    }

    @Test
    void userStopMarkersEndTheEpisode() {
        for (String marker : List.of(Orchestrator.STOP, Orchestrator.TRANSFER, Orchestrator.OUT_OF_SCOPE)) {
            Tau2Cell r = run(
                    FULL,
                    new GoldReplayAgent(FULL),
                    (h, t) -> Turn.of(new Message.Assistant("bye " + marker)),
                    EpisodeOptions.DEFAULT);
            assertEquals(TerminationReason.USER_STOP, r.termination(), marker);
            assertEquals(0.0, r.reward(), "graded: the DB was never written");
            assertTrue(r.evaluated());
        }
    }

    @Test
    void anLlmAgentStopTokenIsTextForTheUserWhoThenStops() {
        // A model candidate (not scripted) without the agent_stop_token option: upstream's LLMAgent.
        Tau2Cell r = run(FULL, new GoldReplayAgent(FULL), new ScriptedUser(FULL), EpisodeOptions.DEFAULT, false);
        assertEquals(TerminationReason.USER_STOP, r.termination());
        assertEquals(1.0, r.reward());
        assertEquals(
                "user:###STOP###", describe(r.transcript().get(r.transcript().size() - 1)));
    }

    @Test
    void stopTogetherWithToolCallsEndsAddressedToTheEnvironment() {
        Candidate a = (h, t) -> Turn.of(
                new Message.Assistant(Orchestrator.STOP, List.of(new ToolCall("c1", "get", PyDict.of("key", "a")))));
        Tau2Cell r = run(FULL, a, new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.INFRASTRUCTURE_ERROR, r.termination());
        assertTrue(r.infrastructureFailure());
    }

    @Test
    void infrastructureFailureIsRecordedAndExcluded() {
        Candidate broken = (h, t) -> {
            throw new InfrastructureFailure("provider down", List.of(), null);
        };
        Tau2Cell r = run(FULL, broken, new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.INFRASTRUCTURE_ERROR, r.termination());
        assertEquals("provider down", r.note());
        assertTrue(r.infrastructureFailure());
    }

    @Test
    void malformedToolArgumentsAreAnAgentError() {
        Candidate a = (h, t) -> Turn.of(
                new Message.Assistant(null, List.of(new ToolCall("c1", "get", PyDict.empty(), "{oops", "not JSON"))));
        Tau2Cell r = run(FULL, a, new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.AGENT_ERROR, r.termination());
    }

    @Test
    void userToolResultsGoBackToTheUserOnly() {
        Tau2Cell r = run(FULL, new GoldReplayAgent(FULL), new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        for (Tau2Message m : r.transcript()) {
            if (m instanceof Tau2Message.ToolResult t && t.name().equals("press"))
                assertEquals(Requestor.USER, t.requestor());
        }
        assertEquals(
                "{\"go\": \"pressed\", \"ok\": \"pressed\"}",
                r.db().get("predicted_user_db_hash").asStr());
        assertEquals(r.db().get("gold_user_db_hash"), r.db().get("predicted_user_db_hash"));
    }

    @Test
    void toolCallsWithoutArgumentsAreCalledWithNone() {
        Candidate a = (h, t) -> h.stream().anyMatch(m -> m instanceof Message.Tool)
                ? Turn.of(new Message.Assistant(Orchestrator.STOP))
                : Turn.of(new Message.Assistant(null, List.of(new ToolCall("c1", "get", null))));
        Tau2Cell r = run(FULL, a, new ScriptedUser(FULL), EpisodeOptions.DEFAULT);
        assertEquals(TerminationReason.AGENT_STOP, r.termination());
        Tau2Message.Agent call = (Tau2Message.Agent) r.transcript().get(2);
        assertEquals(PyDict.empty(), call.toolCalls().get(0).arguments());
        Tau2Message.ToolResult result = (Tau2Message.ToolResult) r.transcript().get(3);
        assertEquals("Error: FakeTools.get() missing 1 required positional argument: 'key'", result.content());
    }
}
