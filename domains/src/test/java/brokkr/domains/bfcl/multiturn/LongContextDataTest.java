package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyObjects;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongContextDataTest {
    @TempDir
    Path tmp;

    @Test
    void aFileThatIsNotThePinnedOneIsRefusedByName() throws IOException {
        Path f = tmp.resolve("long_context.py");
        Files.writeString(f, "A = [1, 2]\n");
        BfclData.BfclDataException e = assertThrows(BfclData.BfclDataException.class, () -> LongContextData.load(f));
        assertTrue(
                e.getMessage().contains(f.toString()) && e.getMessage().contains("expected " + LongContextData.SHA256),
                e.getMessage());
        BfclData.BfclDataException missing =
                assertThrows(BfclData.BfclDataException.class, () -> LongContextData.load(tmp.resolve("absent.py")));
        assertTrue(missing.getMessage().contains("BROKKR_BFCL_LONG_CONTEXT"), missing.getMessage());
    }

    /** A resource whose bytes differ from the pinned ones (one value changed) is refused, naming it. */
    @Test
    void aChangedResourceIsRefusedByName() throws IOException {
        String text = new String(resourceBytes(), StandardCharsets.UTF_8).replaceFirst("\"JHGUN\"", "\"JHGUM\"");
        BfclData.BfclDataException e = assertThrows(
                BfclData.BfclDataException.class,
                () -> LongContextData.fromResourceBytes(
                        "long_context.json (edited)", text.getBytes(StandardCharsets.UTF_8)));
        assertTrue(
                e.getMessage().contains("long_context.json (edited)")
                        && e.getMessage().contains("expected " + LongContextData.RESOURCE_SHA256),
                e.getMessage());
    }

    /** The transcription's values, as upstream's module holds them (counts from CPython 3.11.7 importing it). */
    @Test
    void pinnedValues() {
        LongContextData d = LongContextData.fromResource();
        assertEquals(LongContextData.RESOURCE, d.source());
        List<?> watch = (List<?>) d.value("WATCH_LIST_EXTENSION");
        assertEquals(1001, watch.size());
        assertEquals("JHGUN", watch.get(0));
        assertEquals("ellipsis", PyObjects.typeName(watch.get(1000)));
        assertEquals(22, ((Map<?, ?>) d.value("CREDIT_CARD_EXTENSION")).size());
        assertEquals(16, ((Map<?, ?>) d.value("BOOKING_RECORD_EXTENSION")).size());
        assertEquals(2000, ((List<?>) d.value("MA_5_EXTENSION")).size());
        assertEquals(9710, ((String) d.value("PARKING_BRAKE_INSTRUCTION")).length());
        assertEquals(15, ((Map<?, ?>) d.value("LONG_WEATHER_EXTENSION")).size());
        assertEquals(16, d.values().size());
        assertSame(d.value("INTERMEDIARY_CITIES"), d.value("INTERMEDIARY_CITIES"));
        assertThrows(IllegalArgumentException.class, () -> d.value("NO_SUCH_NAME"));
    }

    /** The generator's encoding of the decoded values reproduces the resource byte for byte (int/float, Ellipsis, order kept). */
    @Test
    void resourceRoundTrips() throws IOException {
        assertEquals(
                new String(resourceBytes(), StandardCharsets.UTF_8),
                LongContextResource.encode(LongContextData.fromResource().values()));
    }

    /** With an upstream checkout named (-Dbrokkr.bfcl.long_context / BROKKR_BFCL_LONG_CONTEXT), its values are the resource's. */
    @Test
    void upstreamFileWhenNamedEqualsTheResource() {
        LongContextData.override()
                .ifPresent(f -> assertEquals(
                        LongContextResource.encode(
                                LongContextData.fromResource().values()),
                        LongContextResource.encode(LongContextData.load(f).values())));
    }

    private static byte[] resourceBytes() throws IOException {
        try (InputStream in = LongContextData.class.getResourceAsStream(LongContextData.RESOURCE)) {
            return in.readAllBytes();
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
