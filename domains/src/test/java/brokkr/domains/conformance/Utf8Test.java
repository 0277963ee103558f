package brokkr.domains.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Utf8's scans agree with the JDK's strict decoder and with a byte-by-byte search. */
class Utf8Test {
    /** Bytes around every boundary of UTF-8's table (lead bytes, continuation ranges, ASCII, newline). */
    private static final int[] INTERESTING = {
        0x00, 0x0a, 0x20, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed,
        0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff
    };

    @Test
    void wellFormedIsWhatTheStrictDecoderAccepts() {
        Random rnd = new Random(11);
        for (int iteration = 0; iteration < 40_000; iteration++) {
            byte[] b = new byte[rnd.nextInt(14)];
            for (int i = 0; i < b.length; i++)
                b[i] = (byte) (rnd.nextInt(4) == 0 ? 'a' : INTERESTING[rnd.nextInt(INTERESTING.length)]);
            assertEquals(decodes(b), Utf8.isWellFormed(b), () -> HexFormat.of().formatHex(b));
        }
        for (int cp = 0; cp <= 0x10ffff; cp += 31) {
            if (cp >= 0xd800 && cp <= 0xdfff) continue; // a lone surrogate has no UTF-8 form to encode
            byte[] b = ("ab" + Character.toString(cp) + "cdefghij").getBytes(StandardCharsets.UTF_8);
            assertEquals(true, Utf8.isWellFormed(b), "U+" + Integer.toHexString(cp));
        }
    }

    @Test
    void scansFindTheFirstByteAtEveryOffset() {
        Random rnd = new Random(7);
        for (int iteration = 0; iteration < 20_000; iteration++) {
            byte[] b = new byte[rnd.nextInt(40)];
            for (int i = 0; i < b.length; i++) b[i] = (byte) INTERESTING[rnd.nextInt(INTERESTING.length)];
            int from = rnd.nextInt(b.length + 1), to = from + rnd.nextInt(b.length - from + 1);
            int newline = -1, high = to;
            for (int i = to - 1; i >= from; i--) {
                if (b[i] == '\n') newline = i;
                if (b[i] < 0) high = i;
            }
            assertEquals(newline, Utf8.indexOf(b, (byte) '\n', from, to));
            assertEquals(high, Utf8.asciiPrefix(b, from, to));
        }
    }

    @Test
    void aLineThatIsNotUtf8IsACorpusErrorAtItsLineAndBlanksAreJavasWhiteSpace() {
        java.nio.file.Path file = java.nio.file.Path.of("c.jsonl");
        CorpusStream.RawLine bad = new CorpusStream.RawLine(file, 3, new byte[] {'{', '"', (byte) 0xe9, '"', '}'});
        Corpus.CorpusException e =
                org.junit.jupiter.api.Assertions.assertThrows(Corpus.CorpusException.class, bad::utf8);
        assertEquals("c.jsonl:3: not UTF-8 text", e.getMessage());
        org.junit.jupiter.api.Assertions.assertFalse(bad.isBlank()); // decided at its first byte
        CorpusStream.RawLine ideographicSpace =
                new CorpusStream.RawLine(file, 1, " \u3000\t".getBytes(StandardCharsets.UTF_8));
        org.junit.jupiter.api.Assertions.assertTrue(ideographicSpace.isBlank());
        CorpusStream.RawLine text =
                new CorpusStream.RawLine(file, 2, "{\"a\": \"é\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"a\": \"é\"}", text.text());
    }

    private static boolean decodes(byte[] b) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
