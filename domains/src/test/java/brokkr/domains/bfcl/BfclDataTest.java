package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BfclDataTest {
    @TempDir
    Path tmp;

    @Test
    void thirteenCategories3641Tasks() {
        BfclData d = Shared.data();
        assertEquals(3641, d.all().size());
        assertEquals(13, BfclCategory.values().length);
        assertEquals(100, d.tasks(BfclCategory.SIMPLE_JAVA).size());
        assertEquals(50, d.tasks(BfclCategory.SIMPLE_JAVASCRIPT).size());
        assertEquals(400, d.tasks(BfclCategory.SIMPLE_PYTHON).size());
        assertEquals(1053, d.tasks(BfclCategory.LIVE_MULTIPLE).size());
        assertEquals(884, d.tasks(BfclCategory.LIVE_IRRELEVANCE).size());
        assertEquals(null, d.tasks(BfclCategory.IRRELEVANCE).getFirst().possibleAnswer());
    }

    @Test
    void aChangedFileIsAnErrorNamingItAndBothDigests() throws Exception {
        Path src = Shared.data().dir();
        Path copy = tmp.resolve("data");
        Files.createDirectories(copy.resolve("possible_answer"));
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path to = copy.resolve(src.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
        Path victim = copy.resolve("possible_answer/BFCL_v4_parallel.json");
        Files.writeString(victim, "\n", StandardOpenOption.APPEND);
        String actual = BfclData.sha256(Files.readAllBytes(victim));
        var e = assertThrows(BfclData.BfclDataException.class, () -> BfclData.load(copy));
        assertTrue(e.getMessage().contains("BFCL_v4_parallel.json"), e.getMessage());
        assertTrue(e.getMessage().contains(actual), e.getMessage());
        assertTrue(
                e.getMessage().contains("8a6aa19c1adddc6a5a2f7e40f9dbf30cc7e95815e7b830c90589ab318229e0f0"),
                e.getMessage());
    }
}
