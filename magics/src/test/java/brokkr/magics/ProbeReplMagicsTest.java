package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.experiment.FisherExact;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Registry;
import brokkr.magics.builtin.ProbeMagics;
import brokkr.repl.JavaRepl;
import brokkr.stats.Wilson;
import brokkr.value.PyDict;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * %probe with REPL-harness candidates (issue 32's protocol): the sandboxed Java REPL under {@code repl_guidance:
 * shape} against {@code typed} at retail task 2's counting decision ("how many t-shirt options are available"),
 * interleaved in the same rounds, each sample a whole REPL turn whose snippets run in a real sandbox JVM and whose
 * domain calls run on the rebuilt world, the reply judged by tau2's communicate rule against the task's "10".
 */
class ProbeReplMagicsTest {
    /**
     * A stand-in model inside the REPL that reads its prompt as issue 32's finding says agents do: given the
     * "Result types" section it trusts the schema and counts the variants map's entries; without it it looks at the
     * records and counts those whose {@code available} flag is true. It computes nothing itself: it writes the
     * snippet, the sandbox runs it on the real tool results, and it reports what the snippet returned.
     */
    static final class SchemaReader implements Candidate {
        static final String LOOK_UP = """
                var ids = (Map<String, Object>) tau2.parse(tau2.list_all_product_types());
                var tshirt = (Map<String, Object>) tau2.parse(tau2.get_product_details((String) ids.get("T-Shirt")));
                """;
        static final String FROM_SCHEMA = LOOK_UP + "((Map<String, Object>) tshirt.get(\"variants\")).size()";
        static final String FROM_RECORDS = LOOK_UP + """
                System.out.println(tau2.shape(tshirt));
                ((Map<String, Map<String, Object>>) tshirt.get("variants")).values().stream()
                    .filter(v -> Boolean.TRUE.equals(v.get("available"))).count()""";
        static final Pattern VALUE = Pattern.compile("=> (\\d+)\\s*$");

        final AtomicInteger snippets;

        SchemaReader(AtomicInteger snippets) {
            this.snippets = snippets;
        }

        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) {
            if (tools.size() != 1 || !tools.getFirst().name().equals(JavaRepl.TOOL))
                throw new IllegalStateException("the stand-in answers inside the Java REPL only, offered " + tools);
            boolean typed = ((Message.System) history.getFirst()).content().contains("## Result types");
            int lastUser = 0;
            for (int i = 0; i < history.size(); i++) if (history.get(i) instanceof Message.User) lastUser = i;
            Message.Tool out = null;
            for (Message m : history.subList(lastUser, history.size())) if (m instanceof Message.Tool t) out = t;
            if (out == null) {
                snippets.incrementAndGet();
                return Turn.of(new Message.Assistant(
                        null,
                        List.of(new ToolCall(
                                null, JavaRepl.TOOL, PyDict.of("code", typed ? FROM_SCHEMA : FROM_RECORDS)))));
            }
            Matcher m = VALUE.matcher(out.content());
            return Turn.of(new Message.Assistant(
                    m.find()
                            ? "There are " + m.group(1) + " T-shirt options available right now."
                            : "I could not count them: " + out.content()));
        }
    }

    static Session session(AtomicInteger snippets) {
        ModelFactory standIn = new ModelFactory() {
            @Override
            public String provider() {
                return "standin";
            }

            @Override
            public Candidate create(ModelRef model) {
                return new SchemaReader(snippets);
            }
        };
        return new Session(MagicRegistry.standard(), Registry.process().with(List.of(), List.of(standIn)));
    }

    /** The customer message of task 2's gold record that asks for the count (found by its text, not assumed). */
    static int countingCut(Session s) throws Exception {
        for (int k = 1; k <= 6; k++) {
            var v = (ProbeMagics.ProbeView) s.magic("%probe 2 " + k + " --candidate gold -n 1");
            String said = v.result().customerMessage().toLowerCase(java.util.Locale.ROOT);
            if (said.contains("t-shirt") || said.contains("tshirt")) return k;
        }
        throw new AssertionError("task 2's record never asks about t-shirts");
    }

    @Test
    void shapeAgainstTypedAtTheCountingDecisionThroughTheRepl() throws Exception {
        AtomicInteger snippets = new AtomicInteger();
        Session s = session(snippets);
        s.magic("%domain load tau2-retail");
        int cut = countingCut(s);
        var v = (ProbeMagics.ComparisonView) s.magic("%probe 2 " + cut
                + " --candidate standin:reader --harness loop/repl:shape --vs-harness loop/repl:typed -n 6 --expect 10"
                + " --parallelism 4");
        ProbeResult shape = v.comparison().first(), typed = v.comparison().second();
        assertEquals("standin/reader [loop/repl:shape]", shape.candidate());
        assertEquals("standin/reader [loop/repl:typed]", typed.candidate());
        assertEquals("shape", shape.harness().get("repl_guidance").asStr());
        assertEquals("typed", typed.harness().get("repl_guidance").asStr());
        assertEquals(12, snippets.get()); // one snippet per sample: every sample ran its REPL turn
        // The records say 10 of the 12 variants are available; the schema's map has 12 entries.
        assertEquals(6, shape.matchesGold());
        assertEquals(0, typed.matchesGold());
        for (var smp : typed.samples()) {
            NextAction a = smp.action();
            assertEquals(NextAction.Kind.TEXT, a.kind(), a.toString());
            assertTrue(a.text().contains("There are 12 T-shirt options"), a.text());
            // the snippet's calls went through the orchestrator as the tools' own, answered on the rebuilt world
            assertEquals(List.of("list_all_product_types", "get_product_details"), a.toolNames());
            assertTrue(
                    a.results().get(1).content().contains("\"variants\""),
                    a.results().get(1).content());
        }
        assertEquals(
                "There are 10 T-shirt options available right now.",
                shape.samples().getFirst().action().text());
        // interleaved: round r holds sample r of both
        assertEquals(
                List.of(0, 1, 2, 3, 4, 5),
                typed.samples().stream().map(ProbeResult.Sample::round).toList());
        assertEquals(
                FisherExact.test(6, 0, 0, 6).pValue(), v.comparison().test().pValue());
        assertEquals(1.0, v.comparison().difference());
        assertEquals(Wilson.difference(6, 6, 0, 6), v.comparison().differenceInterval());
        assertTrue(
                v.comparison().differenceInterval().low() > 0,
                v.comparison().differenceInterval().toString());
        assertTrue(
                v.html().contains("says &#39;10&#39;: standin/reader [loop/repl:shape] 6/6")
                        || v.html().contains("says '10': standin/reader [loop/repl:shape] 6/6"),
                v.html());
        assertTrue(v.text().contains("95% CI [+"), v.text());
        assertTrue(v.text().contains("Fisher's exact test (two-sided) p = 0.00216"), v.text());
        // The outcome classes are the replies' verdicts, the right count marked
        assertEquals("reply says '10'", shape.classes().getFirst().key());
        assertEquals(ProbeResult.Label.MATCHES_GOLD, shape.classes().getFirst().label());
        assertEquals("reply does not say '10'", typed.classes().getFirst().key());
        // stored and read back with its harness and expectation
        ProbeResult back = ProbeResult.fromValue(typed.toValue());
        assertEquals(typed, back);
    }

    @Test
    void harnessArgumentsAreChecked() throws Exception {
        Session s = session(new AtomicInteger());
        s.magic("%domain load tau2-retail");
        assertTrue(assertThrows(
                        MagicUsageException.class,
                        () -> s.magic("%probe 2 1 --candidate standin:x --harness loop/repl:nosuch"))
                .getMessage()
                .contains("unknown repl_guidance 'nosuch'"));
        assertTrue(assertThrows(
                        MagicUsageException.class,
                        () -> s.magic("%probe 2 1 --candidate standin:x --harness loop/repl --vs-harness loop/repl"))
                .getMessage()
                .contains("two different candidates"));
        assertTrue(assertThrows(
                        MagicUsageException.class,
                        () -> s.magic("%probe 2 1 --candidate standin:x --harness claude-code"))
                .getMessage()
                .contains("claude-code"));
        // the reference harness stays what it was: no harness in the record, labelled against the record
        var gold = (ProbeMagics.ProbeView) s.magic("%probe 2 1 --candidate gold -n 2");
        assertTrue(gold.result().harness().isEmpty());
        assertNull(gold.result().expect());
        assertEquals(2, gold.result().matchesGold());
    }
}
