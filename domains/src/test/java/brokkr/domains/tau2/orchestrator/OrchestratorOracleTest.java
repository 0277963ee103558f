package brokkr.domains.tau2.orchestrator;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays scripted scenarios that upstream's own {@code Orchestrator} and evaluators were run on
 * ({@code src/test/oracle/tau2_orchestrator_oracle.py}, recorded in {@code orchestrator-oracle.json})
 * and compares termination reason, step and error counts, every message, and the DB / action /
 * communicate verdicts. Where upstream raises (empty messages, a stop addressed to the environment),
 * Brokkr's documented termination is checked instead and the transcripts agree up to the raising message.
 */
class OrchestratorOracleTest {

    static PyList load(String name) throws IOException {
        try (InputStream in = OrchestratorOracleTest.class.getResourceAsStream(name)) {
            return Json.read(in.readAllBytes()).asList();
        }
    }

    /** Says the scripted turns in order, repeating the last; tool calls keep their scripted ids. */
    static Candidate script(PyList turns) {
        AtomicInteger n = new AtomicInteger();
        return (history, tools) -> {
            PyDict t =
                    turns.get(Math.min(n.getAndIncrement(), turns.size() - 1)).asDict();
            List<ToolCall> calls = new ArrayList<>();
            Value tcs = t.get("tool_calls");
            if (tcs != null && !tcs.isNone()) {
                for (Value c : tcs.asList()) {
                    PyDict d = c.asDict();
                    calls.add(new ToolCall(
                            d.get("id").asStr(),
                            d.get("name").asStr(),
                            d.get("arguments").asDict()));
                }
            }
            Value content = t.get("content");
            return Turn.of(new Message.Assistant(content == null || content.isNone() ? null : content.asStr(), calls));
        };
    }

    @TestFactory
    Stream<DynamicTest> scenariosBehaveAsUpstreamsOrchestrator() throws IOException {
        PyList scenarios = load("orchestrator-scenarios.json");
        PyList expected = load("orchestrator-oracle.json");
        assertEquals(scenarios.size(), expected.size());
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            PyDict sc = scenarios.get(i).asDict(), up = expected.get(i).asDict();
            tests.add(DynamicTest.dynamicTest(sc.get("name").asStr(), () -> check(sc, up)));
        }
        return tests.stream();
    }

    static void check(PyDict sc, PyDict up) {
        TaskSpec task = TaskSpec.parse(sc.get("task").asDict());
        EpisodeOptions options = new EpisodeOptions(
                integer(sc, "max_steps"),
                integer(sc, "max_errors"),
                ((PyBool) sc.get("enforce_communication_protocol")).value());
        // A cell of the benchmark the production way; the NL assertions (if asked) met by the scripted all-met judge.
        Tau2Cell r = Tau2Cell.run(
                new FakeBenchmark(task),
                task.id(),
                Tau2Cell.test("agent"),
                Tau2Cell.test("user"),
                Tau2Cell.scripted(Tau2Benchmark.ALL_MET),
                OrchestratorTest.options(options, ((PyBool) sc.get("agent_stops_on_token")).value()),
                Map.of(
                        "agent",
                        script(sc.get("agent").asList()),
                        "user",
                        script(sc.get("user").asList())));
        List<Value> mine = new ArrayList<>();
        for (Tau2Message m : r.transcript()) mine.add(json(m));
        PyList theirs = up.get("messages").asList();

        Value exception = up.get("exception");
        if (exception != null && !exception.isNone()) {
            // Upstream raised; its runner would retry and finally record infrastructure_error.
            Tau2Message last = r.transcript().get(r.transcript().size() - 1);
            if (last instanceof Tau2Message.Participant p && p.isEmpty()) {
                // validate() raised before the empty message joined the trajectory; Brokkr keeps it and ends as the
                // sender's error.
                assertEquals(
                        p instanceof Tau2Message.Agent ? TerminationReason.AGENT_ERROR : TerminationReason.USER_ERROR,
                        r.termination());
                assertEquals(theirs.items(), mine.subList(0, mine.size() - 1));
            } else {
                // _finalize raised: the last message was addressed to the environment.
                assertEquals(TerminationReason.INFRASTRUCTURE_ERROR, r.termination());
                assertEquals(theirs.items(), mine);
            }
            return;
        }
        assertEquals(up.get("termination_reason").asStr(), r.termination().value());
        assertEquals(integer(up, "steps"), r.steps(), "steps");
        assertEquals(integer(up, "errors"), r.toolErrors(), "errors");
        assertEquals(theirs.items(), mine, "messages");
        if (up.get("db_match") != null) {
            assertTrue(r.evaluated());
            assertEquals(((PyBool) up.get("db_match")).value(), r.dbMatch(), "db_match");
            assertEquals(bools(up.get("action_checks")), r.checks("ACTION"), "action checks");
            assertEquals(bools(up.get("communicate_checks")), r.communicate(), "communicate checks");
            // The NL judge's request upstream would send for this trajectory (its model call captured).
            PyList judge = up.get("judge_request").asDict().get("messages").asList();
            assertEquals(
                    ModelNlJudge.SYSTEM_PROMPT,
                    judge.get(0).asDict().get("content").asStr());
            assertEquals(
                    judge.get(1).asDict().get("content").asStr(),
                    ModelNlJudge.userPrompt(r.transcript(), NL_ASSERTIONS));
        } else {
            assertFalse(r.evaluated());
            assertEquals(0.0, r.reward());
        }
    }

    /** The assertions the oracle judged every graded trajectory against. */
    static final List<String> NL_ASSERTIONS = List.of("Agent sets b to 2", "Agent says it's \"done\"");

    static int integer(PyDict d, String k) {
        return (int) ((PyInt) d.get(k)).longValue();
    }

    static List<Boolean> bools(Value v) {
        return v.asList().stream().map(b -> ((PyBool) b).value()).toList();
    }

    /**
     * A message as the one serializer ({@link Tau2Transcript}) writes it, restricted to the fields the
     * oracle prints ({@code message_json}): the same names and values as upstream's.
     */
    static PyDict json(Tau2Message m) {
        PyDict d = Tau2Transcript.toValue(m);
        if (m instanceof Tau2Message.ToolResult) return only(d, "role", "id", "content", "requestor", "error");
        Value calls = d.get("tool_calls");
        if (calls instanceof PyList l)
            calls = PyList.of(l.stream()
                    .map(c -> (Value) only(c.asDict(), "id", "name", "arguments", "requestor"))
                    .toList());
        return only(d, "role", "content").with("tool_calls", calls);
    }

    static PyDict only(PyDict d, String... keys) {
        PyDict.Builder b = PyDict.builder();
        for (String k : keys) b.put(k, d.get(k));
        return b.build();
    }

    static String show(Value v) {
        return PyJson.dumps(v);
    }
}
