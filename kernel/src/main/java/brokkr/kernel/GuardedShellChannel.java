package brokkr.kernel;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.dflib.jjava.jupyter.channels.JupyterConnection;
import org.dflib.jjava.jupyter.channels.Loop;
import org.dflib.jjava.jupyter.channels.ShellChannel;
import org.dflib.jjava.jupyter.channels.ShellHandler;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;
import org.dflib.jjava.jupyter.messages.HMACGenerator;
import org.dflib.jjava.jupyter.messages.Header;
import org.dflib.jjava.jupyter.messages.KernelTimestamp;
import org.dflib.jjava.jupyter.messages.Message;
import org.dflib.jjava.jupyter.messages.MessageType;
import org.dflib.jjava.jupyter.messages.adapters.HeaderAdapter;
import org.dflib.jjava.jupyter.messages.adapters.HistoryRequestAdapter;
import org.dflib.jjava.jupyter.messages.adapters.KernelTimestampAdapter;
import org.dflib.jjava.jupyter.messages.adapters.MessageTypeAdapter;
import org.dflib.jjava.jupyter.messages.request.HistoryRequest;
import org.zeromq.ZMQ;

/**
 * A shell or control channel that survives bad input. JJava 1.0-a6's {@code ShellChannel} throws its
 * {@code SecurityException} for a wrongly signed or unsigned message out of the channel's loop, which
 * ends the loop thread and leaves the kernel deaf; here such a message is dropped (logged to stderr,
 * never answered) and the loop goes on. Messages are read here rather than by JJava, which compares
 * signatures with {@code String.equals} and accepts a replayed message: {@link Signatures} compares in
 * constant time and refuses a signature seen before. A message is read whole before it is looked at, so a
 * malformed one cannot leave the socket in the middle of the next. It also waits on the socket instead of
 * polling every 50 ms.
 */
final class GuardedShellChannel extends ShellChannel {
    private static final byte[] DELIMITER = "<IDS|MSG>".getBytes(StandardCharsets.US_ASCII);
    private static final Type METADATA = new TypeToken<Map<String, Object>>() {}.getType();
    /** JJava's wire format for requests: its own type adapters, on Gson as JJava uses it. */
    private static final Gson GSON = new GsonBuilder()
            .registerTypeAdapter(KernelTimestamp.class, KernelTimestampAdapter.INSTANCE)
            .registerTypeAdapter(Header.class, HeaderAdapter.INSTANCE)
            .registerTypeAdapter(MessageType.class, MessageTypeAdapter.INSTANCE)
            .registerTypeAdapter(HistoryRequest.class, HistoryRequestAdapter.INSTANCE)
            .create();

    private final JupyterConnection connection;
    private final Signatures signatures;
    private final boolean control;
    private volatile Loop loop;
    private volatile int rejected;
    private final AtomicBoolean socketClosed = new AtomicBoolean();

    GuardedShellChannel(
            ZMQ.Context ctx, HMACGenerator hmac, Signatures signatures, boolean control, JupyterConnection connection) {
        super(ctx, hmac, control, connection);
        this.connection = connection;
        this.signatures = signatures;
        this.control = control;
    }

    /** The next message, whole; a {@link SecurityException} for a bad or replayed signature. */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public synchronized Message<?> readMessage() {
        if (closed) return null;
        List<byte[]> frames = new ArrayList<>();
        do frames.add(recv());
        while (hasReceiveMore());
        int d = 0;
        while (d < frames.size() && !Arrays.equals(frames.get(d), DELIMITER)) d++;
        if (frames.size() < d + 6) {
            throw new IllegalArgumentException(
                    frames.size() + " frames, not the identities, <IDS|MSG>, signature, header,"
                            + " parent header, metadata and content of a message");
        }
        byte[] header = frames.get(d + 2),
                parent = frames.get(d + 3),
                metadata = frames.get(d + 4),
                content = frames.get(d + 5);
        switch (signatures.check(
                new String(frames.get(d + 1), StandardCharsets.US_ASCII), header, parent, metadata, content)) {
            case BAD_SIGNATURE -> throw new SecurityException("bad or missing HMAC signature");
            case REPLAYED ->
                throw new SecurityException("replayed message: its signature was seen before in this session");
            case OK -> {}
        }
        Header<?> h = GSON.fromJson(utf8(header), Header.class);
        JsonElement p = JsonParser.parseString(utf8(parent));
        Header<?> parentHeader =
                p.isJsonObject() && !p.getAsJsonObject().isEmpty() ? GSON.fromJson(p, Header.class) : null;
        Map<String, Object> meta = GSON.fromJson(utf8(metadata), METADATA);
        Object body = GSON.fromJson(utf8(content), h.getType().getContentType());
        return new Message(
                List.copyOf(frames.subList(0, d)),
                h,
                parentHeader,
                meta,
                body,
                List.copyOf(frames.subList(d + 6, frames.size())));
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    int rejected() {
        return rejected;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void bind(KernelConnectionProperties p) {
        if (loop != null) throw new IllegalStateException("channel already bound");
        String address = p.getTransport() + "://" + p.getIp() + ":" + (control ? p.getControlPort() : p.getShellPort());
        super.bind(address);
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(this, ZMQ.Poller.POLLIN);
        String name = control ? "brokkr-control" : "brokkr-shell";
        loop = new Loop(name, 0, () -> {
            if (poller.poll(50) <= 0) return;
            Message<?> message;
            try {
                message = readMessage();
            } catch (SecurityException e) {
                rejected++;
                CellOutput.kernelErr()
                        .println("brokkr kernel: rejected a message on the " + (control ? "control" : "shell")
                                + " channel: " + e.getMessage());
                return;
            } catch (RuntimeException e) {
                rejected++;
                CellOutput.kernelErr().println("brokkr kernel: rejected a malformed message: " + e.getMessage());
                return;
            }
            if (message == null) return;
            ShellHandler handler = connection.getHandler(message.getHeader().getType());
            if (handler == null) return;
            ShellReplyEnvironment env = connection.prepareReplyEnv(this, message);
            try {
                handler.handle(env, message);
            } catch (Exception e) {
                CellOutput.kernelErr()
                        .println("brokkr kernel: error handling "
                                + message.getHeader().getType().getName() + ": " + e);
            } finally {
                env.resolveDeferrals();
            }
            if (env.isMarkedForShutdown()) connection.close();
        });
        loop.onClose(this::closeSocket);
        loop.start();
    }

    /**
     * Stops the loop. A ZeroMQ socket belongs to one thread: the loop closes it when it ends (within one
     * poll when idle); closing it from here while the loop polls it broke JeroMQ's pipes at shutdown.
     */
    @Override
    public void close() {
        Loop l = loop;
        if (l == null) {
            closeSocket();
            return;
        }
        l.shutdown();
        if (Thread.currentThread() == l || !l.isAlive()) closeSocket();
    }

    private void closeSocket() {
        if (socketClosed.compareAndSet(false, true)) super.close();
    }

    @Override
    public void waitUntilClose() {
        Loop l = loop;
        if (l == null) return;
        try {
            l.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
