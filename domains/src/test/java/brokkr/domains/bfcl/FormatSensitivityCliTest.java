package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.cli.BfclCommand;
import brokkr.experiment.Registry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code bfcl run --agent gold-prompting --categories simple_java,format_sensitivity --sample 1}: both reports. */
class FormatSensitivityCliTest {
    @Test
    void bfclRunPrintsTheConfigurationsApartFromTheCategories() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new BfclCommand(Registry.load(), Map.of())
                .run(
                        List.of(
                                "run",
                                "--agent",
                                "gold-prompting",
                                "--categories",
                                "simple_java,format_sensitivity",
                                "--sample",
                                "1",
                                "--seed",
                                "3"),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        assertTrue(text.contains("27 tasks"), text);
        assertTrue(text.contains("simple_java"), text);
        assertTrue(text.contains("format_sensitivity (not in the overall)"), text);
        assertTrue(
                text.contains(
                        "ret_fmt=concise_xml&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic"),
                text);
        assertTrue(text.contains("accuracy_max_delta: 0.00"), text);
        System.out.println(text);
    }
}
