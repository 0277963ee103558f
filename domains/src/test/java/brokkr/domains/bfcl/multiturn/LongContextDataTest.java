package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongContextDataTest {
    @TempDir Path tmp;

    @Test
    void aFileThatIsNotThePinnedOneIsRefusedByName() throws IOException {
        Path f = tmp.resolve("long_context.py");
        Files.writeString(f, "A = [1, 2]\n");
        BfclData.BfclDataException e = assertThrows(BfclData.BfclDataException.class, () -> LongContextData.load(f));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("expected " + LongContextData.SHA256), e.getMessage());
        BfclData.BfclDataException missing = assertThrows(BfclData.BfclDataException.class,
                () -> LongContextData.load(tmp.resolve("absent.py")));
        assertTrue(missing.getMessage().contains("BROKKR_BFCL_LONG_CONTEXT"), missing.getMessage());
    }

    /** The pinned file's values, as upstream's module holds them (counts from CPython 3.11.7 importing it). */
    @Test
    void pinnedValues() {
        Path f;
        try {
            f = LongContextData.locate();
        } catch (RuntimeException e) {
            f = null;
        }
        assumeTrue(f != null && Files.isRegularFile(f), "long_context.py not available");
        LongContextData d = LongContextData.load(f);
        List<?> watch = (List<?>) d.value("WATCH_LIST_EXTENSION");
        assertEquals(1001, watch.size());
        assertEquals("JHGUN", watch.get(0));
        assertEquals("ellipsis", PyObjects.typeName(watch.get(1000)));
        assertEquals(22, ((Map<?, ?>) d.value("CREDIT_CARD_EXTENSION")).size());
        assertEquals(16, ((Map<?, ?>) d.value("BOOKING_RECORD_EXTENSION")).size());
        assertEquals(2000, ((List<?>) d.value("MA_5_EXTENSION")).size());
        assertEquals(9710, ((String) d.value("PARKING_BRAKE_INSTRUCTION")).length());
        assertEquals(15, ((Map<?, ?>) d.value("LONG_WEATHER_EXTENSION")).size());
        assertSame(d.value("INTERMEDIARY_CITIES"), d.value("INTERMEDIARY_CITIES"));
        assertThrows(IllegalArgumentException.class, () -> d.value("NO_SUCH_NAME"));
    }
}
