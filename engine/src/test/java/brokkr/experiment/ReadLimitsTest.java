package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Readers with limits: an endless or huge prompt file and JSON nested without end are refused with errors naming them. */
class ReadLimitsTest {
    @TempDir
    Path tmp;

    private Path specWithPrompt(String promptFile) throws Exception {
        Path yaml = tmp.resolve("exp.yaml");
        Files.writeString(yaml, """
                name: limits
                domain: quiz
                tasks: [q0]
                candidates:
                  - {id: gold, provider: fake, model: gold, system_prompt_file: %s}
                """.formatted(promptFile));
        return yaml;
    }

    private String refused(String promptFile) throws Exception {
        Path yaml = specWithPrompt(promptFile);
        return assertThrows(ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(yaml))
                .getMessage();
    }

    @Test
    void aSystemPromptFileThatNeverEndsIsRefused() throws Exception {
        String e = refused("/dev/zero");
        assertTrue(e.contains("system_prompt_file /dev/zero") && e.contains("larger than 4 MiB"), e);
        Files.write(tmp.resolve("huge.txt"), new byte[ExperimentSpec.MAX_PROMPT_BYTES + 1]);
        assertTrue(refused("huge.txt").contains("larger than 4 MiB"));
        Files.write(tmp.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xe9});
        assertTrue(
                refused("latin1.txt").contains("cannot read system_prompt_file latin1.txt"),
                "bytes that are not UTF-8 are refused as before");
        Files.writeString(tmp.resolve("ok.txt"), "Be brief. ✓");
        assertEquals(
                "Be brief. ✓",
                ExperimentSpec.read(specWithPrompt("ok.txt"))
                        .candidates()
                        .getFirst()
                        .systemPrompt());
    }

    @Test
    void jsonNestedDeeperThanTheLimitIsAnErrorNotAStackOverflow() throws Exception {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        Json.JsonLimitException e = assertThrows(Json.JsonLimitException.class, () -> Json.parse(deep));
        assertTrue(e.getMessage().contains("nested deeper than " + Json.MAX_DEPTH), e.getMessage());
        Path file = tmp.resolve("deep.json");
        Files.writeString(file, deep);
        assertTrue(assertThrows(Json.JsonLimitException.class, () -> Json.read(file))
                .getMessage()
                .startsWith(file.toString()));
        String atTheLimit = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        assertNotNull(Json.parse(atTheLimit), "as deep as CPython's json reads is read");
    }
}
