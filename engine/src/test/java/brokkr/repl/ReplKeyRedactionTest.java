package brokkr.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.provider.EnvironmentKeys;
import brokkr.provider.Secret;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxConfig;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No key of the harness's environment, of any provider, reaches the model or the store through a tool result. */
class ReplKeyRedactionTest {

    @Test
    void everyProvidersKeyIsRedactedFromTextsAndValues() {
        EnvironmentKeys keys = EnvironmentKeys.of(Map.of(
                "OPENAI_API_KEY", "sk-proj-abcdefgh12345",
                "ANTHROPIC_API_KEY", "sk-ant-zyxwvut98765",
                "PATH", "/usr/local/bin:/usr/bin"));
        assertEquals(
                "a [REDACTED] b [REDACTED] /usr/local/bin:/usr/bin",
                keys.redact("a sk-proj-abcdefgh12345 b sk-ant-zyxwvut98765 /usr/local/bin:/usr/bin"));
        Value v =
                keys.redact(PyDict.of("sk-ant-zyxwvut98765", PyList.of(List.of(new PyStr("x sk-proj-abcdefgh12345")))));
        assertEquals(PyDict.of(Secret.REDACTED, PyList.of(List.of(new PyStr("x " + Secret.REDACTED)))), v);
        String clean = "nothing secret";
        assertSame(clean, keys.redact(clean));
    }

    @Test
    void aReplToolMessageKeepsNoKeyOfTheHarnessEnvironment() {
        String openai = System.getenv("BROKKR_TEST_OPENAI_API_KEY"),
                anthropic = System.getenv("BROKKR_TEST_ANTHROPIC_API_KEY");
        assumeTrue(openai != null && anthropic != null, "the fake keys are set by engine/pom.xml");
        // The snippet cannot read them (SandboxTest); a model can still write them into its code.
        SandboxConfig config = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(20));
        JavaRepl repl = JavaRepl.open(Sandbox.start(config), new JavaApi("", "", Map.of()), List.of(), 4000, "", null);
        try {
            String code = "System.out.println(\"" + openai + "\"); \"" + anthropic + "\"";
            ToolCall call = new ToolCall("c1", JavaRepl.TOOL, PyDict.of("code", code), null, null);
            List<Message.Tool> out =
                    repl.execute(List.of(call), new Message.Assistant(null, List.of(call)), m -> List.of());
            String content = out.getFirst().content();
            assertFalse(content.contains(openai) || content.contains(anthropic), content);
            assertTrue(content.contains(Secret.REDACTED), content);
        } finally {
            repl.close();
        }
    }
}
