package brokkr.sandbox;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;

/**
 * The one pipe pair between the harness and a sandbox JVM, carrying several channels as frames
 * ({@code channel byte, length int, bytes}): JShell's execution protocol (commands one way, responses
 * the other), the snippets' output, tool calls and their answers, the stop signal and the leftover-thread
 * report. JShell's own multiplexer ({@code jdk.jshell.execution.Util}) carries only output streams the
 * child writes and inputs it pulls a byte at a time; a stop must reach the child while it executes, and a
 * tool's answer is one message, so both ends use this instead. Used by both JVMs: keep it dependency-free.
 */
final class SandboxWire {
    private SandboxWire() {}

    /** Harness to sandbox: JShell command bytes. Sandbox to harness: command response bytes. */
    static final byte COMMAND = 'C';
    /** Sandbox to harness: what snippets printed. */
    static final byte OUTPUT = 'O';
    /** Sandbox to harness: a tool call (JSON {@code {name, args}}). */
    static final byte CALL = 'T';
    /** Harness to sandbox: a tool call's answer (JSON {@code {value} | {error}}). */
    static final byte RETURN = 'R';
    /** Harness to sandbox: stop the running evaluation (JShell's stop). */
    static final byte STOP = 'S';
    /** Sandbox to harness: threads a snippet left running (JSON list of names), sent before the invocation's response. */
    static final byte LEFTOVER = 'L';

    private static final int MAX_FRAME = 64 << 20;

    /** Thrown by {@link Pipe#read} once the other JVM has gone: unchecked, so JShell's stream code does not print it. */
    static final class Ended extends RuntimeException {
        Ended() {
            super("the sandbox JVM ended", null, false, false);
        }
    }

    /** Writes whole frames; one frame at a time whichever thread writes. */
    static final class Framer {
        private final OutputStream out;

        Framer(OutputStream out) {
            this.out = out;
        }

        synchronized void send(byte channel, byte[] b, int off, int len) throws IOException {
            byte[] head = {channel, (byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len};
            out.write(head);
            out.write(b, off, len);
            out.flush();
        }

        void send(byte channel, byte[] b) throws IOException {
            send(channel, b, 0, b.length);
        }
    }

    /** An output stream onto one channel: bytes are buffered and sent as a frame on flush or when the buffer is full. */
    static final class ChannelOut extends OutputStream {
        private final Framer framer;
        private final byte channel;
        private final byte[] buf;
        private int len;

        ChannelOut(Framer framer, byte channel, int bufferSize) {
            this.framer = framer;
            this.channel = channel;
            this.buf = new byte[bufferSize];
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (len == buf.length) flush();
            buf[len++] = (byte) b;
        }

        @Override
        public synchronized void write(byte[] b, int off, int n) throws IOException {
            while (n > 0) {
                if (len == buf.length) flush();
                int k = Math.min(n, buf.length - len);
                System.arraycopy(b, off, buf, len, k);
                len += k;
                off += k;
                n -= k;
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            if (len == 0) return;
            framer.send(channel, buf, 0, len);
            len = 0;
        }
    }

    /** An input stream fed with chunks by the frame reader; {@link #end()} makes reads throw {@link Ended}. */
    static final class Pipe extends InputStream {
        private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
        private byte[] current;
        private int pos;
        private boolean ended;

        synchronized void feed(byte[] chunk) {
            if (chunk.length == 0) return;
            chunks.addLast(chunk);
            notifyAll();
        }

        synchronized void end() {
            ended = true;
            notifyAll();
        }

        private boolean await() {
            while (current == null || pos == current.length) {
                current = chunks.pollFirst();
                pos = 0;
                if (current != null) continue;
                if (ended) throw new Ended();
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Ended();
                }
            }
            return true;
        }

        @Override
        public synchronized int read() {
            await();
            return current[pos++] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int n) {
            if (n == 0) return 0;
            await();
            int k = Math.min(n, current.length - pos);
            System.arraycopy(current, pos, b, off, k);
            pos += k;
            return k;
        }

        @Override
        public synchronized int available() {
            return current == null ? 0 : current.length - pos;
        }
    }

    /**
     * Reads frames until the stream ends, handing each to {@code sink}; returns normally at the end and
     * throws {@link IOException} for bytes that are not a frame (a snippet that wrote to the JVM's own
     * standard output, or a frame beyond the size limit).
     */
    static void readFrames(InputStream in, BiConsumer<Byte, byte[]> sink) throws IOException {
        DataInputStream data = new DataInputStream(in);
        while (true) {
            int channel = data.read();
            if (channel < 0) return;
            int len;
            try {
                len = data.readInt();
            } catch (EOFException e) {
                throw new IOException("the wire ended inside a frame header");
            }
            if (!known((byte) channel) || len < 0 || len > MAX_FRAME) {
                throw new IOException("not a frame: channel " + channel + ", length " + len);
            }
            byte[] b = new byte[len];
            data.readFully(b);
            sink.accept((byte) channel, b);
        }
    }

    private static boolean known(byte c) {
        return c == COMMAND || c == OUTPUT || c == CALL || c == RETURN || c == STOP || c == LEFTOVER;
    }
}
