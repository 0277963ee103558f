package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The frame key's tags: the JDK's own HMAC-SHA256 over each frame's number, header and bytes. */
class SandboxWireTest {
    private static final byte[] KEY = new byte[SandboxWire.KEY_BYTES];

    static {
        for (int i = 0; i < KEY.length; i++) KEY[i] = (byte) (i * 7 + 3);
    }

    @Test
    void tagsAreTheJdksHmacSha256OfTheFrameNumberHeaderAndBytes() throws Exception {
        SandboxWire.FrameKey key = new SandboxWire.FrameKey(KEY);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        byte[] head = {'O', 0, 0, 0, 5};
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        for (long n = 0; n < 3; n++) {
            mac.update(ByteBuffer.allocate(8).putLong(n).array());
            mac.update(head);
            byte[] expected = Arrays.copyOf(mac.doFinal(body), SandboxWire.TAG_BYTES);
            assertArrayEquals(expected, key.next(head, body, 0, body.length), "frame " + n);
        }
    }

    @Test
    void aFrameIsReadOnlyWithTheKeyItWasSentWithAndNotTwice() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        SandboxWire.Framer framer = new SandboxWire.Framer(wire, new SandboxWire.FrameKey(KEY));
        framer.send(SandboxWire.OUTPUT, "one".getBytes(StandardCharsets.UTF_8));
        byte[] frame = wire.toByteArray();
        List<String> read = new ArrayList<>();
        SandboxWire.readFrames(
                new ByteArrayInputStream(frame),
                SandboxWire.FROM_SANDBOX_MAX,
                new SandboxWire.FrameKey(KEY),
                (c, b) -> read.add(new String(b, StandardCharsets.UTF_8)));
        assertArrayEquals(new Object[] {"one"}, read.toArray());
        byte[] otherKey = KEY.clone();
        otherKey[0] ^= 1;
        assertThrows(
                IOException.class,
                () -> SandboxWire.readFrames(
                        new ByteArrayInputStream(frame),
                        SandboxWire.FROM_SANDBOX_MAX,
                        new SandboxWire.FrameKey(otherKey),
                        (c, b) -> {}));
        // The same frame twice: the second is tagged for frame 0, the reader expects frame 1.
        byte[] twice =
                ByteBuffer.allocate(frame.length * 2).put(frame).put(frame).array();
        List<String> replayed = new ArrayList<>();
        assertThrows(
                IOException.class,
                () -> SandboxWire.readFrames(
                        new ByteArrayInputStream(twice),
                        SandboxWire.FROM_SANDBOX_MAX,
                        new SandboxWire.FrameKey(KEY),
                        (c, b) -> replayed.add(new String(b, StandardCharsets.UTF_8))));
        assertFalse(replayed.size() > 1);
    }
}
