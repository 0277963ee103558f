package brokkr.domains.tau2.evaluator;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.experiment.PassHatK;
import brokkr.value.Json;
import brokkr.value.PyDict;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GradingTest {

    static GoldAction action(String args, List<String> compare) {
        return new GoldAction("x0", Requestor.ASSISTANT, "f", Json.parse(args).asDict(), compare, null);
    }

    static ToolCall call(String name, String args) {
        return new ToolCall("c", name, Json.parse(args).asDict());
    }

    @Test
    void actionComparisonUsesPythonEqualityOnTheComparedKeys() {
        assertFalse(
                ActionEvaluator.matches(
                        action("{\"a\": 1, \"b\": [1, 2]}", null), call("f", "{\"b\": [1.0, true, 2], \"a\": 1}")),
                "lengths differ");
        assertTrue(ActionEvaluator.matches(
                action("{\"a\": 1, \"b\": [1, 2]}", null), call("f", "{\"b\": [true, 2.0], \"a\": 1}")));
        assertTrue(ActionEvaluator.matches(
                action("{\"a\": 1, \"b\": {\"x\": 1, \"y\": 2}}", null),
                call("f", "{\"b\": {\"y\": 2.0, \"x\": true}, \"a\": 1.0}")));
        assertFalse(ActionEvaluator.matches(action("{\"a\": 1}", null), call("g", "{\"a\": 1}")), "names differ");
        assertFalse(ActionEvaluator.matches(action("{\"a\": \"1\"}", null), call("f", "{\"a\": 1}")), "str is not int");
        // compare_args=None compares the PREDICTED call's keys: omitting a gold argument still matches (upstream quirk)
        // ...
        assertTrue(ActionEvaluator.matches(action("{\"a\": 1, \"b\": 2}", null), call("f", "{\"a\": 1}")));
        // ... and an extra predicted argument does not.
        assertFalse(ActionEvaluator.matches(action("{\"a\": 1}", null), call("f", "{\"a\": 1, \"c\": 3}")));
        assertTrue(
                ActionEvaluator.matches(action("{\"a\": 1, \"b\": 2}", List.of()), call("f", "{\"zzz\": 0}")),
                "compare_args [] = name only");
        assertTrue(ActionEvaluator.matches(
                action("{\"a\": 1, \"b\": 2}", List.of("a")), call("f", "{\"a\": 1, \"b\": 9}")));
        assertFalse(ActionEvaluator.matches(
                action("{\"a\": 1, \"b\": 2}", List.of("b")), call("f", "{\"a\": 1, \"b\": 9}")));
        assertFalse(ActionEvaluator.matches(action("{\"a\": NaN}", null), call("f", "{\"a\": NaN}")), "NaN != NaN");
        assertTrue(brokkr.python.PyOps.eq(Json.parse("9007199254740993"), Json.parse("9007199254740993")));
        assertFalse(
                brokkr.python.PyOps.eq(Json.parse("9007199254740993"), Json.parse("9007199254740992.0")),
                "int vs float compare exactly");
    }

    @Test
    void actionsMayBeMatchedByAnyParticipantsCalls() {
        List<Tau2Message> traj = List.of(
                new Tau2Message.Agent("hi"), new Tau2Message.User(null, List.of(call("f", "{\"a\": 1}")), null));
        assertTrue(ActionEvaluator.check(traj, List.of(action("{\"a\": 1}", null)))
                .get(0)
                .actionMatch());
    }

    @Test
    void communicateIsACaseInsensitiveSubstringOfAgentTextWithCommasRemovedFromTheMessageOnly() {
        List<Tau2Message> traj = List.of(
                new Tau2Message.Agent("Your TOTAL is $1,234.50"),
                new Tau2Message.User("the refund is 7"),
                new Tau2Message.Agent(null, List.of(call("f", "{}")), null));
        var checks = CommunicateEvaluator.check(traj, List.of("total is $1234.50", "1,234.50", "refund is 7"));
        assertEquals(
                List.of(true, false, false),
                checks.stream().map(Checks.CommunicateCheck::met).toList());
        assertEquals(
                "Information 'total is $1234.50' communicated in the message:\n 'Your TOTAL is $1,234.50'",
                checks.get(0).justification());
        assertEquals(
                "Information 'refund is 7' not communicated.", checks.get(2).justification());
    }

    @Test
    void judgePromptsAreUpstreamsCharacterForCharacter() throws Exception {
        // sha256 of upstream's system_prompt literal (evaluator_nl_assertions.py at the pinned commit), taken with
        // CPython.
        assertEquals(
                "994b7abd2d3d869adbc2ce1dce85be5b2ab0243e04f086994737e4fc5e5fd24b",
                HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256")
                                .digest(ModelNlJudge.SYSTEM_PROMPT.getBytes(StandardCharsets.UTF_8))));
        List<Tau2Message> traj = List.of(
                new Tau2Message.Agent("Hi! How can I help you today?"),
                new Tau2Message.User("I'd like \"help\""),
                new Tau2Message.Agent(null, List.of(call("f", "{}")), null),
                new Tau2Message.ToolResult("c", "f", "{\"a\": 1}", Requestor.ASSISTANT, false));
        // Expected text produced by CPython 3.13 from upstream's f-string with the same trajectory and assertions.
        assertEquals(
                "\n        conversation:\n        assistant: Hi! How can I help you today?\nuser: I'd like \"help\"\nassistant: None\ntool: {\"a\": 1}\n        \n        expectedOutcomes:\n        [\"Agent says it's done\", 'Agent quotes \"x\"']\n        ",
                ModelNlJudge.userPrompt(traj, List.of("Agent says it's done", "Agent quotes \"x\"")));
    }

    @Test
    void judgeAnswersAreParsedAsUpstreamParsesThem() throws Exception {
        List<Message> seen = new java.util.ArrayList<>();
        ModelNlJudge judge = new ModelNlJudge("test-judge", (history, tools) -> {
            seen.addAll(history);
            assertTrue(tools.isEmpty());
            return Turn.of(new Message.Assistant(
                    "{\"results\": [{\"expectedOutcome\": \"A\", \"reasoning\": \"r\", \"metExpectation\": true},"
                            + " {\"expectedOutcome\": \"B\", \"reasoning\": \"s\", \"metExpectation\": \"no\"}]}"));
        });
        NlJudge.Verdict v = judge.judge(List.of(new Tau2Message.Agent("x")), List.of("A", "B"));
        assertEquals(List.of(new NlAssertionCheck("A", true, "r"), new NlAssertionCheck("B", false, "s")), v.checks());
        assertEquals(2, seen.size());
        assertInstanceOf(Message.System.class, seen.get(0));
        assertEquals(
                List.of(),
                ModelNlJudge.parse("{\"results\": []}"),
                "an empty list passes every assertion (upstream quirk)");
        assertEquals(List.of(), ModelNlJudge.parse("{}"));
        assertThrows(NlJudge.JudgeFormatException.class, () -> ModelNlJudge.parse("```json\n{}\n```"));
        assertThrows(NlJudge.JudgeFormatException.class, () -> ModelNlJudge.parse("[]"));
        // Issue 31 item 7: a judge answering prose is a one-line error saying what it began with (before: Jackson's
        // multi-line message with its source excerpt).
        var prose = assertThrows(
                NlJudge.JudgeFormatException.class,
                () -> ModelNlJudge.parse("The agent did what was asked.\n\nAll expectations are met."));
        assertFalse(prose.getMessage().contains("\n"), prose.getMessage());
        assertTrue(prose.getMessage().startsWith("judge answer is not JSON (line 1, column "), prose.getMessage());
        assertTrue(
                prose.getMessage().endsWith("it begins: \"The agent did what was asked. All expectations are met.\""),
                prose.getMessage());
        assertThrows(
                NlJudge.JudgeFormatException.class,
                () -> ModelNlJudge.parse("{\"results\": [{\"expectedOutcome\": \"A\", \"reasoning\": \"r\"}]}"));
        assertThrows(
                NlJudge.JudgeFormatException.class,
                () -> ModelNlJudge.parse(
                        "{\"results\": [{\"expectedOutcome\": \"A\", \"reasoning\": \"r\", \"metExpectation\": 2}]}"));
        assertEquals(
                true,
                ModelNlJudge.parse(
                                "{\"results\": [{\"expectedOutcome\": \"A\", \"reasoning\": \"r\", \"metExpectation\": 1.0}]}")
                        .get(0)
                        .met());
    }

    static TaskSpec task(String criteria) {
        return TaskSpec.parse(Json.parse("{\"id\": \"7\", \"evaluation_criteria\": " + criteria + "}")
                .asDict());
    }

    static EnvEvidence evidence(boolean dbMatch) {
        return new EnvEvidence("gold", null, dbMatch ? "gold" : "other", null, List.of(), List.of());
    }

    @Test
    void rewardIsTheProductOverTheBasis() throws Exception {
        List<Tau2Message> traj = List.of(new Tau2Message.Agent("Hi"), new Tau2Message.Agent("the answer is 42"));
        TaskSpec t = task(
                "{\"actions\": [], \"communicate_info\": [\"42\"], \"nl_assertions\": [\"says 42\"], \"reward_basis\": [\"DB\", \"COMMUNICATE\", \"NL_ASSERTION\"]}");
        Grade g = Tau2Grader.grade(t, traj, true, "agent_stop", evidence(true), ScriptedVerdictJudge.goldVerdict());
        assertEquals(1.0, g.reward());
        assertEquals(
                Map.of(RewardType.DB, 1.0, RewardType.NL_ASSERTION, 1.0, RewardType.COMMUNICATE, 1.0), g.breakdown());
        assertEquals(
                List.of(RewardType.DB, RewardType.NL_ASSERTION, RewardType.COMMUNICATE),
                List.copyOf(g.breakdown().keySet()),
                "upstream's order");
        g = Tau2Grader.grade(t, traj, true, "agent_stop", evidence(false), ScriptedVerdictJudge.goldVerdict());
        assertEquals(0.0, g.reward());
        assertEquals(List.of("DB"), g.failedBasisChecks());
        g = Tau2Grader.grade(t, traj, true, "user_stop", evidence(true), ScriptedVerdictJudge.allUnmet());
        assertEquals(0.0, g.reward());
        assertEquals("scripted-all-unmet", g.judge());
        assertEquals(List.of("NL_ASSERTION:says 42"), g.failedBasisChecks());
    }

    @Test
    void theJudgeIsAskedOnlyWhenTheBasisNeedsIt() throws Exception {
        NlJudge exploding = new NlJudge() {
            public String name() {
                return "boom";
            }

            public Verdict judge(List<Tau2Message> t, List<String> a) {
                throw new AssertionError("judge must not be asked");
            }
        };
        List<Tau2Message> traj = List.of(new Tau2Message.Agent("Hi"));
        assertEquals(
                1.0,
                Tau2Grader.grade(
                                task("{\"actions\": [], \"nl_assertions\": [\"x\"], \"reward_basis\": [\"DB\"]}"),
                                traj,
                                true,
                                "agent_stop",
                                evidence(true),
                                exploding)
                        .reward());
        Grade g = Tau2Grader.grade(
                task("{\"actions\": [], \"nl_assertions\": null, \"reward_basis\": [\"DB\", \"NL_ASSERTION\"]}"),
                traj,
                true,
                "agent_stop",
                evidence(true),
                exploding);
        assertEquals(1.0, g.reward());
        assertNull(g.judge());
        assertEquals(Map.of(RewardType.DB, 1.0, RewardType.NL_ASSERTION, 1.0), g.breakdown());
    }

    @Test
    void prematureTerminationAndMissingCriteria() throws Exception {
        List<Tau2Message> traj = List.of(new Tau2Message.Agent("Hi"));
        TaskSpec t = task("{\"actions\": [], \"reward_basis\": [\"DB\"]}");
        Grade g = Tau2Grader.grade(t, traj, false, "too_many_errors", evidence(true), null);
        assertEquals(0.0, g.reward());
        assertFalse(g.evaluated());
        assertNull(g.basis());
        assertEquals("Simulation terminated prematurely. Termination reason: too_many_errors", g.note());
        assertTrue(g.db().dbMatch(), "diagnostic check still says why");
        Grade none = Tau2Grader.grade(
                TaskSpec.parse(Json.parse("{\"id\": \"8\", \"evaluation_criteria\": null}")
                        .asDict()),
                traj,
                true,
                "agent_stop",
                evidence(false),
                null);
        assertEquals(1.0, none.reward());
        assertEquals("No evaluation criteria", none.note());
    }

    @Test
    void withoutActionsAndEnvAssertionsTheDbCountsAsMatched() throws Exception {
        Grade g = Tau2Grader.grade(
                task("{\"reward_basis\": [\"DB\"]}"),
                List.of(new Tau2Message.Agent("Hi")),
                true,
                "agent_stop",
                evidence(false),
                null);
        assertEquals(1.0, g.reward());
        assertTrue(g.db().dbMatch());
        assertEquals(Map.of(), g.breakdown(), "upstream's short-circuit has no reward breakdown");
        assertEquals(
                List.of(RewardType.DB, RewardType.COMMUNICATE),
                task("{}").criteria().rewardBasis(),
                "upstream's default basis");
    }

    /** tau2's pass^k is the engine's one ({@code brokkr.experiment.PassHatK}), upstream's formula. */
    @Test
    void passHatKAsUpstream() {
        assertEquals(0.5, PassHatK.of(4, 3, 2), 1e-12);
        assertEquals(0.0, PassHatK.of(4, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> PassHatK.of(1, 1, 2));
        // Task a: 1 of 2 trials successful, task b: 2 of 2 (its third trial an infrastructure failure, not counted).
        assertEquals(
                List.of(0.75, 0.5),
                PassHatK.curve(List.of(new PassHatK.TaskTrials(2, 1), new PassHatK.TaskTrials(2, 2))));
    }

    @Test
    void taskParsingKeepsUpstreamsOptionalDistinctions() {
        TaskSpec t = task(
                "{\"actions\": [{\"action_id\": \"1_0\", \"name\": \"n\", \"arguments\": {}, \"compare_args\": []}], \"env_assertions\": null}");
        assertNull(t.criteria().envAssertions());
        assertEquals(List.of(), t.criteria().actions().get(0).compareArgs());
        assertEquals(Requestor.ASSISTANT, t.criteria().actions().get(0).requestor());
        assertNull(task("{\"actions\": [{\"action_id\": \"1_0\", \"name\": \"n\", \"arguments\": {}}]}")
                .criteria()
                .actions()
                .get(0)
                .compareArgs());
        assertInstanceOf(PyDict.class, t.raw());
    }
}
