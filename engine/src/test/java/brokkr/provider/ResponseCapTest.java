package brokkr.provider;

import static brokkr.provider.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A response body is read up to {@code maxResponseBytes}: over it, the call fails at once and the rest is never read. */
@Timeout(60)
class ResponseCapTest {
    /** {@link Fixtures#OPENAI_TEXT} with its answer padded to {@code bytes} or more. */
    static String padded(int bytes) {
        String pad = "x".repeat(Math.max(0, bytes - OPENAI_TEXT.length()));
        String body = OPENAI_TEXT.replaceFirst("\"content\": \"", "\"content\": \"" + pad);
        assertNotEquals(OPENAI_TEXT, body);
        return body;
    }

    @Test
    void aBodyOverTheCapIsAProviderErrorNotRetriedAndNotKept() {
        String big = padded(5_000);
        try (var server =
                ScriptedModelServer.sequence(Reply.json(200, big), Reply.json(200, big), Reply.json(200, big))) {
            var provider = openai(server, fast("m").withMaxResponseBytes(1_000), new FakeEffects());
            var e = assertThrows(InfrastructureFailure.class, () -> provider.next(ASK, List.of()));
            assertTrue(
                    e.getMessage()
                            .contains("response body over the 1000-byte cap (max_response_bytes); not read further"),
                    e.getMessage());
            assertEquals(1, server.requestCount(), "over the cap is not retried");
            ModelCall call = e.attempts().getFirst();
            assertEquals(200, call.status());
            assertNull(call.responseBody(), "the body over the cap is not recorded");
        }
    }

    @Test
    void aBodyUpToTheCapIsRead() throws Exception {
        String body = padded(3_000);
        int size = body.getBytes(StandardCharsets.UTF_8).length;
        try (var server = ScriptedModelServer.sequence(Reply.json(200, body))) {
            var t = openai(server, fast("m").withMaxResponseBytes(size), new FakeEffects())
                    .next(ASK, List.of());
            assertTrue(t.message().content().startsWith("xxx"), t.message().content());
            assertEquals(body, t.calls().getFirst().responseBody());
        }
        assertEquals(
                ProviderOptions.DEFAULT_MAX_RESPONSE_BYTES,
                ProviderOptions.defaults("m").maxResponseBytes());
    }

    /**
     * A server that streams an endless body (no length, or a declared gigabyte): the client stops
     * reading at the cap and closes the connection, so the server's writes fail long before it has
     * sent what it meant to.
     */
    @Test
    void anEndlessBodyIsNotReadFurther() throws Exception {
        for (boolean declared : List.of(false, true)) {
            AtomicLong written = new AtomicLong();
            try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> {
                    try (Socket s = ss.accept()) {
                        s.getInputStream().read(new byte[65536]);
                        OutputStream out = s.getOutputStream();
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                        + (declared ? "Content-Length: 1073741824\r\n" : "Connection: close\r\n")
                                        + "\r\n{\"choices\": [{\"message\": {\"content\": \"")
                                .getBytes(StandardCharsets.US_ASCII));
                        byte[] chunk = "y".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);
                        while (written.get() < (1L << 30)) {
                            out.write(chunk);
                            written.addAndGet(chunk.length);
                        }
                        return "wrote all of it";
                    } catch (IOException e) {
                        return "closed by the client";
                    }
                });
                var provider = openai(
                        "http://127.0.0.1:" + ss.getLocalPort() + "/v1",
                        fast("m").withMaxResponseBytes(64 * 1024),
                        new FakeEffects());
                var e = assertThrows(InfrastructureFailure.class, () -> provider.next(ASK, List.of()));
                assertTrue(e.getMessage().contains("over the 65536-byte cap"), e.getMessage());
                assertEquals("closed by the client", server.get(30, TimeUnit.SECONDS));
                assertTrue(
                        written.get() < (256L << 20),
                        "the server got to write " + written.get() + " bytes (declared length: " + declared + ")");
            }
        }
    }
}
