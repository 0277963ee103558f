package brokkr.domains.synthetic.loop;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.agent.ToolResult;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PointerChasingTest {

    static String line(int depth, Candidate c) {
        PointerChain chain = PointerChain.of(depth);
        return PointerChasing.score(chain, PointerChasing.play(chain, c)).line();
    }

    static ToolCall follow(String id, String key) {
        return new ToolCall(id, "follow_pointer", PyDict.of("key", key));
    }

    /** Plays fixed messages in order, ignoring what the tools answer. */
    static Candidate script(List<Message.Assistant> replies) {
        int[] next = {0};
        return (history, tools) -> Turn.of(replies.get(next[0]++));
    }

    static List<String> keysInOrder(PointerChain chain) {
        List<String> keys = new ArrayList<>();
        for (String k = chain.start();
                !k.equals(PointerChain.END);
                k = chain.hop(k).get("next").asStr()) keys.add(k);
        return keys;
    }

    @Test
    void theChainIsFixedByTheDepth() {
        PointerChain five = PointerChain.of(5);
        assertEquals(five, PointerChain.of(5));
        // Pinned: a depth must be the same task on every run and machine.
        assertEquals("kdpnc8b", five.start());
        assertEquals("x98py88ps6khubuujhqh", five.secret());
        assertNotEquals(five.secret(), PointerChain.of(6).secret().substring(0, 20));
    }

    @Test
    void theChainIsOneWalkOfDistinctKeysEndingInEnd() {
        for (int depth : new int[] {1, 2, 50, 200}) {
            PointerChain chain = PointerChain.of(depth);
            List<String> keys = keysInOrder(chain);
            assertEquals(depth, keys.size());
            assertEquals(depth, new HashSet<>(keys).size());
            assertEquals(depth, chain.hops().size());
            StringBuilder secret = new StringBuilder();
            for (String k : keys) secret.append(chain.hop(k).get("fragment").asStr());
            assertEquals(chain.secret(), secret.toString());
            assertEquals(depth * PointerChain.FRAGMENT_LENGTH, chain.secret().length());
        }
    }

    @Test
    void theToolAnswersOneHopOrAnError() {
        PointerChain chain = PointerChain.of(3);
        var tool = PointerChasing.handler(chain);
        List<String> keys = keysInOrder(chain);
        String f0 = chain.hop(keys.get(0)).get("fragment").asStr();
        String f2 = chain.hop(keys.get(2)).get("fragment").asStr();
        assertEquals(ToolResult.ok("fragment=" + f0 + " next=" + keys.get(1)), tool.handle(follow("a", chain.start())));
        assertEquals(ToolResult.ok("fragment=" + f2 + " next=END"), tool.handle(follow("b", keys.get(2))));
        assertEquals(
                ToolResult.error("ERROR: unknown key 'nope'. Re-check the previous next value."),
                tool.handle(follow("c", "nope")));
        assertEquals(
                ToolResult.error("ERROR: unknown key '42'. Re-check the previous next value."),
                tool.handle(new ToolCall("d", "follow_pointer", PyDict.of("key", 42))));
        assertEquals(
                ToolResult.error("ERROR: follow_pointer() missing 1 required positional argument: 'key'"),
                tool.handle(new ToolCall("e", "follow_pointer", PyDict.empty())));
        assertEquals(
                ToolResult.error("ERROR: follow_pointer() got an unexpected keyword argument 'k'"),
                tool.handle(new ToolCall("f", "follow_pointer", PyDict.of("k", "x"))));
        assertEquals(
                ToolResult.error("ERROR: unknown tool 'lookup'."),
                tool.handle(new ToolCall("g", "lookup", PyDict.empty())));
    }

    @Test
    void theIdealFollowerPasses() {
        assertEquals("PASS depth=50 toolCalls=50/50", line(50, LoopFollower.ideal()));
        assertEquals("PASS depth=1 toolCalls=1/1", line(1, LoopFollower.ideal()));
        assertEquals("PASS depth=200 toolCalls=200/200", line(200, LoopFollower.ideal()));
    }

    @Test
    void theEarlyStopperFailsWithHalfTheSecret() {
        String secret = PointerChain.of(50).secret();
        assertEquals(
                "FAIL depth=50 toolCalls=25/50 expected=" + secret + " actual=" + secret.substring(0, 100),
                line(50, LoopFollower.earlyStop(25)));
        assertEquals(
                "FAIL depth=50 toolCalls=25/50 expected=" + secret + " actual=" + secret.substring(0, 100),
                line(50, LoopFollower.named("early-stop", 50)));
        assertEquals(
                "FAIL depth=5 toolCalls=2/5 expected=x98py88ps6khubuujhqh actual=x98py88p",
                line(5, LoopFollower.named("early-stop", 5)));
    }

    @Test
    void theRetrierAssemblesTheSecretButMakesOneCallTooMany() {
        String secret = PointerChain.of(50).secret();
        assertEquals(
                "FAIL depth=50 toolCalls=51/50 expected=" + secret + " actual=" + secret,
                line(50, LoopFollower.named("retry", 50)));
        PointerChain chain = PointerChain.of(50);
        Transcript t = PointerChasing.play(chain, LoopFollower.retry(25));
        List<ToolCall> calls = t.toolCalls();
        assertEquals(calls.get(24).arguments(), calls.get(25).arguments(), "hop 25 is asked for twice in a row");
        assertEquals(
                "FAIL depth=1 toolCalls=2/1 expected=" + PointerChain.of(1).secret() + " actual="
                        + PointerChain.of(1).secret(),
                line(1, LoopFollower.named("retry", 1)));
    }

    @Test
    void anUnknownKeyIsAnErrorResultAndCountsAsACall() {
        PointerChain chain = PointerChain.of(4);
        List<Message.Assistant> replies = new ArrayList<>();
        replies.add(new Message.Assistant(null, List.of(follow("x", "kwrong"))));
        int n = 0;
        for (String k : keysInOrder(chain)) replies.add(new Message.Assistant(null, List.of(follow("c" + n++, k))));
        replies.add(new Message.Assistant(chain.secret()));
        Transcript t = PointerChasing.play(chain, script(replies));
        Message.Tool first = t.toolResultsById().get("x");
        assertTrue(first.error());
        assertEquals("ERROR: unknown key 'kwrong'. Re-check the previous next value.", first.content());
        assertEquals(
                "FAIL depth=4 toolCalls=5/4 expected=" + chain.secret() + " actual=" + chain.secret(),
                PointerChasing.score(chain, t).line());
    }

    @Test
    void theAnswerMustBeExactlyTheSecretUpToWhitespace() {
        PointerChain chain = PointerChain.of(3);
        List<String> keys = keysInOrder(chain);
        String s = chain.secret();
        for (var answer :
                List.of(s.substring(0, 4) + " " + s.substring(4, 8) + "\n" + s.substring(8), "  " + s + "\n")) {
            List<Message.Assistant> replies = new ArrayList<>();
            for (String k : keys) replies.add(new Message.Assistant(null, List.of(follow(k, k))));
            replies.add(new Message.Assistant(answer));
            assertEquals(
                    "PASS depth=3 toolCalls=3/3",
                    PointerChasing.score(chain, PointerChasing.play(chain, script(replies)))
                            .line());
        }
        List<Message.Assistant> prose = new ArrayList<>();
        for (String k : keys) prose.add(new Message.Assistant(null, List.of(follow(k, k))));
        prose.add(new Message.Assistant("The secret is " + s + "."));
        assertEquals(
                "FAIL depth=3 toolCalls=3/3 expected=" + s + " actual=Thesecretis" + s + ".",
                PointerChasing.score(chain, PointerChasing.play(chain, script(prose)))
                        .line());
    }

    @Test
    void runningOutOfStepsFailsWithAnEmptyAnswerAndMalformedCallsCount() {
        PointerChain chain = PointerChain.of(3);
        ToolCall malformed = new ToolCall("m", "follow_pointer", PyDict.empty(), "{\"key\": ", "not a JSON object");
        Candidate stubborn = (history, tools) -> Turn.of(new Message.Assistant(null, List.of(malformed)));
        Transcript t = PointerChasing.play(chain, stubborn);
        assertEquals(Transcript.Stop.MAX_STEPS, t.stop());
        assertEquals(
                "FAIL depth=3 toolCalls=23/3 expected=" + chain.secret() + " actual=",
                PointerChasing.score(chain, t).line());
    }

    @Test
    void otherToolNamesAreNotPointerCalls() {
        PointerChain chain = PointerChain.of(2);
        List<String> keys = keysInOrder(chain);
        Transcript t = PointerChasing.play(
                chain,
                script(List.of(
                        new Message.Assistant(
                                null,
                                List.of(new ToolCall("l", "lookup", PyDict.of("id", "x")), follow("a", keys.get(0)))),
                        new Message.Assistant(null, List.of(follow("b", keys.get(1)))),
                        new Message.Assistant(chain.secret()))));
        assertEquals(
                "ERROR: unknown tool 'lookup'.", t.toolResultsById().get("l").content());
        assertEquals(
                "PASS depth=2 toolCalls=2/2", PointerChasing.score(chain, t).line());
    }
}
