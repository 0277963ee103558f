package brokkr.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolSpec;
import brokkr.eval.AgentDef;
import brokkr.eval.ModelRef;
import brokkr.sandbox.SandboxConfig;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Harnesses as candidate content, and the Java a REPL candidate is given. */
class HarnessTest {
    static final ModelRef MODEL = new ModelRef("openai", "m");

    @Test
    void eachHarnessAndGuidanceIsADistinctCandidateAndReferenceKeepsOldIds() {
        AgentDef plain = AgentDef.of(MODEL, "tools", null);
        AgentDef reference = plain.withHarness(
                Harness.of(null, "tools", null, PyDict.empty()).toValue());
        assertEquals(plain.id(), reference.id(), "the reference harness is not in the content");
        Set<String> ids = new HashSet<>(List.of(plain.id()));
        ids.add(plain.withHarness(
                        Harness.of("loop", "tools", null, PyDict.empty()).toValue())
                .id());
        for (String g : ReplGuidance.names()) {
            ids.add(AgentDef.of(MODEL, "repl", null)
                    .withHarness(Harness.of("loop", "repl", g, PyDict.empty()).toValue())
                    .id());
        }
        ids.add(AgentDef.of(MODEL, "repl", null)
                .withHarness(Harness.of("loop", "repl", "shape", PyDict.of("output_limit", 100))
                        .toValue())
                .id());
        assertEquals(3 + ReplGuidance.names().size(), ids.size(), "every guidance (typed too) a candidate of its own");
        AgentDef repl = AgentDef.of(MODEL, "repl", null)
                .withHarness(
                        Harness.of("loop", "repl", "compute", PyDict.empty()).toValue());
        assertEquals(repl, AgentDef.fromValue(repl.toValue()));
        assertEquals("loop/repl:compute", Harness.fromValue(repl.harness()).label());
    }

    @Test
    void aPlainProcessSandboxIsAskedForByNameAndIsPartOfTheCandidate() {
        Harness contained = Harness.of("loop", "repl", "shape", PyDict.empty());
        assertEquals(SandboxConfig.Isolation.BWRAP, contained.sandboxConfig().isolation(), "never a fallback");
        assertFalse(contained.toValue().containsKey(Harness.SANDBOX), "other candidates keep their ids");
        Harness plain = Harness.of("loop", "repl", "shape", PyDict.of("sandbox", "process"));
        assertEquals(SandboxConfig.Isolation.PROCESS, plain.sandboxConfig().isolation());
        assertEquals(new PyStr("process"), plain.toValue().get(Harness.SANDBOX), "recorded with every attempt");
        assertEquals(plain, Harness.fromValue(plain.toValue()));
        AgentDef a = AgentDef.of(MODEL, "repl", null).withHarness(contained.toValue());
        AgentDef b = AgentDef.of(MODEL, "repl", null).withHarness(plain.toValue());
        assertNotEquals(a.id(), b.id());
        assertThrows(
                IllegalArgumentException.class, () -> Harness.of("loop", "repl", null, PyDict.of("sandbox", "none")));
        assertThrows(
                IllegalArgumentException.class,
                () -> Harness.of("loop", "tools", null, PyDict.of("sandbox", "process")));
    }

    @Test
    void claudeCodeIsACandidateOfItsOwnWithItsTurnStepsAndOnlyTheTools() {
        ModelRef cli = new ModelRef("claude-code", "sonnet");
        Harness cc = Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.empty());
        assertTrue(cc.claudeCode());
        assertFalse(cc.loop());
        assertEquals("claude-code", cc.label());
        assertEquals(cc, Harness.fromValue(cc.toValue()));
        Set<String> ids = new HashSet<>();
        for (Harness h : List.of(
                Harness.DEFAULT_REFERENCE,
                Harness.of("loop", "tools", null, PyDict.empty()),
                cc,
                Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.of("max_turn_steps", 5))))
            ids.add(AgentDef.of(cli, "tools", null).withHarness(h.toValue()).id());
        assertEquals(4, ids.size(), "the harness and its turn steps are part of the candidate's content id");
        assertEquals(
                5,
                Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.of("max_turn_steps", 5))
                        .maxTurnSteps());
        IllegalArgumentException repl = assertThrows(
                IllegalArgumentException.class, () -> Harness.of(Harness.CLAUDE_CODE, "repl", null, PyDict.empty()));
        assertEquals(
                "harness claude-code takes action_space tools (the domain's tools over MCP), not 'repl'",
                repl.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.of("heap_mb", 256)));
        assertThrows(
                IllegalArgumentException.class,
                () -> Harness.of(Harness.CLAUDE_CODE, "tools", "shape", PyDict.empty()));
    }

    @Test
    void badCombinationsAreErrors() {
        assertThrows(IllegalArgumentException.class, () -> Harness.of("loop", "repl", "nope", PyDict.empty()));
        assertThrows(IllegalArgumentException.class, () -> Harness.of("loop", "tools", "shape", PyDict.empty()));
        assertThrows(IllegalArgumentException.class, () -> Harness.of("reference", "tools", "shape", PyDict.empty()));
        assertThrows(IllegalArgumentException.class, () -> Harness.of("spiral", "tools", null, PyDict.empty()));
        assertThrows(
                IllegalArgumentException.class, () -> Harness.of("loop", "repl", null, PyDict.of("max_turn_steps", 0)));
        assertThrows(IllegalArgumentException.class, () -> Harness.of("loop", "repl", null, PyDict.of("colour", 1)));
    }

    static ToolSpec tool() {
        return new ToolSpec(
                "exchange_items",
                "Exchange items of a delivered order.\nCheck with the user first.",
                PyDict.of(
                        "type",
                        "object",
                        "properties",
                        PyDict.of(
                                "order_id",
                                        PyDict.of(
                                                "type", "string", "description", "The order id, such as '#W0000000'."),
                                "item_ids",
                                        PyDict.of(
                                                "type",
                                                "array",
                                                "items",
                                                PyDict.of("type", "string"),
                                                "description",
                                                "Items to exchange."),
                                "count", PyDict.of("type", "integer", "description", "How many."),
                                "note", PyDict.of("type", "string", "description", "An optional note.")),
                        "required",
                        PyList.of(List.of(new PyStr("order_id"), new PyStr("item_ids"), new PyStr("count")))));
    }

    @Test
    void namespaceMethodsCarrySignaturesDescriptionsAndOverloadsForOptionalTails() {
        JavaApi api = JavaApi.namespace("tau2", "Tau2Tools", List.of(tool()));
        assertTrue(
                api.source()
                        .contains(
                                "public String exchange_items(String order_id, List<?> item_ids, long count, String note)"),
                api.source());
        assertTrue(
                api.source().contains("public String exchange_items(String order_id, List<?> item_ids, long count)"),
                api.source());
        String ref = api.reference();
        assertTrue(
                ref.startsWith(
                        "String tau2.exchange_items(String order_id, List<?> item_ids, long count, String note)\n"),
                ref);
        assertTrue(ref.contains("Exchange items of a delivered order.\n    Check with the user first."), ref);
        assertTrue(ref.contains("- order_id (String, required): The order id, such as '#W0000000'."), ref);
        assertTrue(ref.contains("- note (String, optional: null leaves it out): An optional note."), ref);
        assertTrue(ref.contains("items: {\"type\": \"string\"}"), ref);
    }

    @Test
    void literalsKeepPythonTypes() {
        assertEquals(
                "map(\"a\", 5, \"b\", 5.0, \"c\", list(\"x\\\"y\", true, null), \"d\", 5000000000L)",
                JavaApi.literal(PyDict.of(
                        "a", 5, "b", 5.0, "c", List.of("x\"y", true, brokkr.value.PyNone.NONE), "d", 5_000_000_000L)));
        assertEquals("list((Object) null)", JavaApi.literal(PyList.of(List.of(brokkr.value.PyNone.NONE))));
        assertEquals("class_", JavaApi.javaName("class"));
        assertEquals("math_factorial", JavaApi.javaName("math.factorial"));
    }
}
