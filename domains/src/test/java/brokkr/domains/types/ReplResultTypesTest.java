package brokkr.domains.types;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.harness.Tau2Harness;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.runner.Tau2ResultTypes;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.repl.ReplGuidance;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxConfig;
import brokkr.value.PyDict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** In a REPL snippet (a real sandbox): a tool's doc ends with its result type, types() lists them, check() finds violations. */
class ReplResultTypesTest {
    /** {@code repl_guidance: typed} shows the types in the prompt, a candidate of its own; the others never do. */
    @Test
    void onlyTheTypedGuidanceShowsTheTypesInThePrompt() {
        var tools = Tau2Domains.load("retail").environment().agentTools();
        var types = Tau2ResultTypes.of("retail");
        JavaApi api = Tau2Harness.api(tools, types);
        Harness typed = Harness.of("loop", "repl", "typed", PyDict.empty());
        Harness shape = Harness.of("loop", "repl", "shape", PyDict.empty());
        String prompt = Tau2Harness.replPrompt(typed, api, tools, types);
        assertTrue(
                prompt.contains("\n## Result types\ncalculate returns Number\ncancel_pending_order returns order\n"),
                prompt);
        assertTrue(
                prompt.contains("\nvariant = {item_id: String, options: Map<name, String>, available: Boolean"),
                prompt);
        assertTrue(prompt.contains("tau2.check(\"type\", value)"), prompt);
        assertEquals(Tau2Harness.replPrompt(shape, api), Tau2Harness.replPrompt(shape, api, tools, types));
        assertFalse(Tau2Harness.replPrompt(shape, api, tools, types).contains("Result types"));
        assertNotEquals(typed.toValue(), shape.toValue(), "a candidate of its own (its content differs)");
        var e = assertThrows(
                IllegalArgumentException.class, () -> ReplGuidance.TYPED.untypedText("", "BFCL's functions"));
        assertEquals("repl_guidance typed needs result types; BFCL's functions have none", e.getMessage());
    }

    @Test
    void docTypesAndCheckWorkInTheSandbox() {
        var tools = Tau2Domains.load("retail").environment().agentTools();
        JavaApi api = Tau2Harness.api(tools, Tau2ResultTypes.of("retail"));
        assertEquals(Tau2Harness.api(tools, null).reference(), api.reference(), "the prompt's reference has no types");
        SandboxConfig config = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(30));
        JavaRepl repl = JavaRepl.open(Sandbox.start(config), api, tools, 20_000, "", null);
        try {
            String code = """
                    System.out.println(tau2.doc("get_product_details"));
                    System.out.println("---");
                    System.out.println(tau2.types());
                    System.out.println("---");
                    System.out.println(tau2.check("variant", "{\\"item_id\\": \\"1\\", \\"options\\": {}, \\"available\\": \\"yes\\", \\"price\\": 1}"));
                    System.out.println(tau2.check("get_user_details", tau2.parse("{\\"user_id\\": \\"u\\"}")));
                    System.out.println(tau2.check("variant", Map.of("item_id", "1", "options", Map.of(), "available", true, "price", 2.5)));
                    """;
            ToolCall call = new ToolCall("c1", JavaRepl.TOOL, PyDict.of("code", code), null, null);
            String out = repl.execute(List.of(call), new Message.Assistant(null, List.of(call)), m -> List.of())
                    .getFirst()
                    .content();
            String[] parts = out.split("---\n");
            assertEquals(3, parts.length, out);
            assertTrue(
                    parts[0].contains(
                            "returns product\nproduct = {name: String, product_id: String, variants: Map<id, variant>}"),
                    parts[0]);
            assertTrue(
                    parts[0].contains(
                            "variant = {item_id: String, options: Map<name, String>, available: Boolean, price: Number}"),
                    parts[0]);
            assertTrue(parts[0].contains("// available: Whether this variant can be ordered now"), parts[0]);
            assertTrue(parts[1].startsWith("order = {order_id: String"), parts[1]);
            assertTrue(parts[1].contains("\npayment_method = "), parts[1]);
            assertTrue(parts[2].contains("$.available: expected boolean, got string \"yes\"\n"), parts[2]);
            assertTrue(parts[2].contains("$: missing key \"name\"\n"), parts[2]);
            assertTrue(parts[2].endsWith("null\n") || parts[2].contains("null"), parts[2]);
        } finally {
            repl.close();
        }
    }
}
