package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.eval.ModelRef;
import brokkr.provider.OpenAiResponses;
import brokkr.provider.ProviderOptions;
import brokkr.value.PyDict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Responses wire's model options: read by that wire, checked when the spec is read, refused elsewhere. */
class ResponsesOptionsTest {
    static ProviderOptions options(String provider, Object... kv) {
        return ProviderModels.options(new ModelRef(provider, "m", PyDict.of(kv)));
    }

    @Test
    void reasoningAndStrictOptionsGoToTheWireInTheirOwnPlaces() {
        ProviderOptions o = options(
                "openai-responses", "reasoning_effort", "xhigh", "reasoning_summary", "auto", "strict_tools", true);
        PyDict body = OpenAiResponses.request(List.of(), List.of(), o);
        assertEquals(PyDict.of("effort", "xhigh", "summary", "auto"), body.get("reasoning"));
        assertNull(body.get("reasoning_effort"), "read by the wire, not sent as a top-level field");
        assertNull(body.get("strict_tools"));
        // On the chat wire reasoning_effort is the API's own top-level field, sent as before.
        assertEquals(
                PyDict.of("reasoning_effort", "low"),
                options("openai", "reasoning_effort", "low").extra());
    }

    @Test
    void badValuesAndOptionsOfAnotherWireAreRefusedBeforeAnythingRuns() {
        assertEquals(
                "model option reasoning_effort must be a word such as low, medium or high, got 3",
                assertThrows(IllegalArgumentException.class, () -> options("openai-responses", "reasoning_effort", 3))
                        .getMessage());
        assertEquals(
                "model option strict_tools must be true or false",
                assertThrows(IllegalArgumentException.class, () -> options("openai-responses", "strict_tools", "yes"))
                        .getMessage());
        assertEquals(
                "model option strict_tools is read only by provider openai-responses, not openai",
                assertThrows(IllegalArgumentException.class, () -> options("openai", "strict_tools", true))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> options("anthropic", "reasoning_summary", "auto"));
    }
}
