package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * The kernel over real ZeroMQ sockets in this JVM: a client signing with the connection key gets
 * replies; a wrongly signed, unsigned or replayed request gets none, is not run, and the kernel keeps
 * serving; a thread's output reaches the running cell, else the last one.
 */
class KernelProtocolTest {
    static final String KEY = "a0436f6c-1916-498b-8eb9-e81ab9368e84";
    static BrokkrKernel kernel;
    static BrokkrConnection connection;
    static ZMQ.Context ctx;
    static ZMQ.Socket shell, iopub;
    static Thread server;
    static int shellPort;

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        shellPort = freePort();
        int iopubPort = freePort(), stdinPort = freePort(), controlPort = freePort(), hbPort = freePort();
        KernelConnectionProperties props = new KernelConnectionProperties(
                "127.0.0.1", controlPort, shellPort, stdinPort, hbPort, iopubPort, "tcp", "hmac-sha256", KEY);
        kernel = BrokkrKernelBuilder.builder().build();
        connection = new BrokkrConnection(props);
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        kernel.onStartup();
        ctx = ZMQ.context(1);
        shell = ctx.socket(SocketType.DEALER);
        shell.connect("tcp://127.0.0.1:" + shellPort);
        iopub = ctx.socket(SocketType.SUB);
        iopub.subscribe(new byte[0]);
        iopub.connect("tcp://127.0.0.1:" + iopubPort);
        Thread.sleep(300);
    }

    @AfterAll
    static void stop() {
        kernel.onShutdown(false);
        shell.close();
        iopub.close();
        ctx.close();
        connection.close();
    }

    static String sign(String key, List<String> parts) throws Exception {
        if (key.isEmpty()) return "";
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        for (String p : parts) mac.update(p.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(mac.doFinal());
    }

    /** Sends a request signed with {@code key}; returns its msg_id. */
    static String send(String key, String type, String content) throws Exception {
        List<String> frames = frames(key, type, content);
        sendFrames(frames);
        return Json.parse(frames.get(1)).asDict().get("msg_id").asStr();
    }

    /** A request's frames after the delimiter: signature, header, parent header, metadata, content. */
    static List<String> frames(String key, String type, String content) throws Exception {
        String id = UUID.randomUUID().toString();
        String header = "{\"msg_id\":\"" + id
                + "\",\"username\":\"test\",\"session\":\"s1\",\"date\":\"2026-01-01T00:00:00.000Z\","
                + "\"msg_type\":\"" + type + "\",\"version\":\"5.3\"}";
        List<String> parts = List.of(header, "{}", "{}", content);
        List<String> frames = new ArrayList<>();
        frames.add(sign(key, parts));
        frames.addAll(parts);
        return frames;
    }

    static void sendFrames(List<String> frames) {
        shell.sendMore("<IDS|MSG>");
        for (int i = 0; i < frames.size() - 1; i++) shell.sendMore(frames.get(i));
        shell.send(frames.getLast());
    }

    /** The next shell reply within the timeout (its header and content), or null. */
    static List<PyDict> reply(int timeoutMs) {
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(shell, ZMQ.Poller.POLLIN);
        if (poller.poll(timeoutMs) <= 0) return null;
        List<String> frames = new ArrayList<>();
        do frames.add(shell.recvStr());
        while (shell.hasReceiveMore());
        int d = frames.indexOf("<IDS|MSG>");
        return List.of(
                Json.parse(frames.get(d + 2)).asDict(),
                Json.parse(frames.get(d + 3)).asDict(),
                Json.parse(frames.get(d + 5)).asDict());
    }

    static String execute(String key, String code) throws Exception {
        return send(key, "execute_request", executeContent(code));
    }

    static String executeContent(String code) {
        return "{\"code\":" + PyJson.dumps(Value.str(code))
                + ",\"silent\":false,\"store_history\":true,\"user_expressions\":{},\"allow_stdin\":false,\"stop_on_error\":true}";
    }

    /** The execute_result text of a request, read from iopub. */
    static String result(String msgId) {
        long end = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < end) {
            List<String> frames = new ArrayList<>();
            String f = iopub.recvStr(ZMQ.DONTWAIT);
            if (f == null) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                continue;
            }
            frames.add(f);
            while (iopub.hasReceiveMore()) frames.add(iopub.recvStr());
            int d = frames.indexOf("<IDS|MSG>");
            PyDict header = Json.parse(frames.get(d + 2)).asDict();
            PyDict parent = Json.parse(frames.get(d + 3)).asDict();
            if (header.get("msg_type").asStr().equals("execute_result")
                    && parent.get("msg_id").asStr().equals(msgId)) {
                return Json.parse(frames.get(d + 5))
                        .asDict()
                        .get("data")
                        .asDict()
                        .get("text/plain")
                        .asStr();
            }
        }
        return null;
    }

    /** The text of the {@code stream} messages of a request on {@code name}, read until it contains {@code expected}. */
    static String stream(String msgId, String name, String expected) {
        StringBuilder text = new StringBuilder();
        long end = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < end && !text.toString().contains(expected)) {
            String f = iopub.recvStr(ZMQ.DONTWAIT);
            if (f == null) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                continue;
            }
            List<String> frames = new ArrayList<>();
            frames.add(f);
            while (iopub.hasReceiveMore()) frames.add(iopub.recvStr());
            int d = frames.indexOf("<IDS|MSG>");
            PyDict header = Json.parse(frames.get(d + 2)).asDict();
            PyDict parent = Json.parse(frames.get(d + 3)).asDict();
            PyDict content = Json.parse(frames.get(d + 5)).asDict();
            if (header.get("msg_type").asStr().equals("stream")
                    && parent.get("msg_id") != null
                    && parent.get("msg_id").asStr().equals(msgId)
                    && content.get("name").asStr().equals(name)) {
                text.append(content.get("text").asStr());
            }
        }
        return text.toString();
    }

    @Test
    void signedRequestsAreAnsweredBadlySignedOnesDropped() throws Exception {
        String info = send(KEY, "kernel_info_request", "{}");
        List<PyDict> r = reply(30_000);
        assertNotNull(r);
        assertEquals("kernel_info_reply", r.get(0).get("msg_type").asStr());
        assertEquals(info, r.get(1).get("msg_id").asStr());
        assertEquals("java", r.get(2).get("language_info").asDict().get("name").asStr());

        String ok = execute(KEY, "int x = 20; x + 1");
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        assertEquals("21", result(ok));

        int before = connection.rejected();
        execute("wrong-key", "x = 99;");
        assertNull(reply(1500), "a reply to a wrongly signed request");
        execute("", "x = 98;");
        assertNull(reply(1500), "a reply to an unsigned request");
        assertEquals(before + 2, connection.rejected());

        String after = execute(KEY, "x");
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        assertEquals("20", result(after), "the rejected requests must not have run");
    }

    /** An unsigned frame over the cap is dropped by ZeroMQ before it is buffered: the shell channel never reads it. */
    @Test
    void aFrameOverTheSizeCapIsDroppedBeforeItIsRead() throws Exception {
        int before = connection.rejected();
        ZMQ.Socket flood = ctx.socket(SocketType.DEALER);
        try {
            flood.setLinger(0);
            flood.connect("tcp://127.0.0.1:" + shellPort);
            flood.send(new byte[(int) BrokkrConnection.MAX_FRAME_BYTES + 1]);
            Thread.sleep(2000);
        } finally {
            flood.close();
        }
        String info = send(KEY, "kernel_info_request", "{}");
        List<PyDict> r = reply(30_000);
        assertNotNull(r, "the kernel stopped answering after an oversized frame");
        assertEquals(info, r.get(1).get("msg_id").asStr());
        assertEquals(before, connection.rejected(), "the oversized frame was read (and then rejected)");
    }

    @Test
    void aSignedMessageReplayedIsDroppedAndRunsOnce() throws Exception {
        execute(KEY, "int replays = 0;");
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        List<String> once = frames(KEY, "execute_request", executeContent("replays++;"));
        sendFrames(once);
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        int before = connection.rejected();
        sendFrames(once);
        assertNull(reply(1500), "a reply to a replayed message");
        assertEquals(before + 1, connection.rejected());
        String after = execute(KEY, "replays");
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        assertEquals("1", result(after), "the replayed request must not have run again");
    }

    @Test
    void aBackgroundThreadPrintsToTheRunningCellElseTheLastOne() throws Exception {
        String starter = execute(KEY, """
                var go = new java.util.concurrent.CountDownLatch(1);
                var printed = new java.util.concurrent.CountDownLatch(1);
                new Thread(() -> {
                    try {
                        Thread.sleep(300);
                        System.out.println("after its cell ended");
                        go.await();
                        System.err.println("while another cell runs");
                        printed.countDown();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).start();
                """);
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        assertEquals(
                "after its cell ended\n",
                stream(starter, "stdout", "\n"),
                "printed when no cell runs: the last cell's");
        String other = execute(KEY, "go.countDown(); printed.await();");
        assertEquals("ok", reply(60_000).get(2).get("status").asStr());
        assertEquals(
                "while another cell runs\n", stream(other, "stderr", "\n"), "printed while a cell runs: that cell's");
    }
}
