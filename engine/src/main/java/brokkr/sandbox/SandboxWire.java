package brokkr.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.function.BiConsumer;

/**
 * The one pipe pair between the harness and a sandbox JVM, carrying several channels as frames
 * ({@code channel byte, length int, bytes}): the execution protocol (one command per frame one way, one
 * response per frame the other), the snippets' output, tool calls and their answers, the stop signal and
 * the leftover-thread report. JShell's own multiplexer ({@code jdk.jshell.execution.Util}) carries only
 * output streams the child writes and inputs it pulls a byte at a time; a stop must reach the child while
 * it executes, and a tool's answer is one message, so both ends use this instead. Used by both JVMs: keep
 * it dependency-free.
 *
 * <p>Nothing on this wire is Java serialization: JShell's own remote protocol
 * ({@code jdk.jshell.execution.StreamingExecutionControl}) reads the child's responses with
 * {@code ObjectInputStream.readObject()}, and what the child sends is written by code a snippet can reach
 * (a nested-HashSet payload pinned a harness core). Commands and responses here are plain data
 * ({@link Data}, {@link Reader}): strings, ints and byte arrays, each length checked against what is left
 * of its frame, and a frame from the sandbox is refused before it is buffered when it is over
 * {@link #FROM_SANDBOX_MAX}.
 *
 * <p>Every frame the sandbox sends carries a tag ({@link FrameKey}): HMAC-SHA256 over its number, header
 * and bytes under a key the harness made for that one JVM and wrote as the first bytes of its stdin
 * (never on its command line or in its environment). The key lives in a private field of a package its
 * module does not open ({@link SandboxImage}), so snippet code, which can write raw bytes to the JVM's
 * file descriptor 1 or read what the agent sent there, cannot make a frame the harness accepts.
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
    /**
     * Sandbox to harness: how many bytes of output an invocation printed beyond the harness's cap (a long),
     * counted instead of sent: the harness keeps only the cap's bytes, and tagging 100 MB of output it
     * drops would cost the sandbox more than its time limit.
     */
    static final byte SKIPPED = 'N';

    /** Frames the sandbox reads (class files of a large prelude fit). */
    static final int TO_SANDBOX_MAX = 64 << 20;
    /** Frames the harness reads: output comes in 8 KiB frames, a response's value is cut to fit. */
    static final int FROM_SANDBOX_MAX = 1 << 20;

    // The execution protocol: a command is {int sequence, byte op, operands}, its response {int sequence,
    // byte status, payload}; the harness takes a response only with the sequence number it expects.
    static final byte OP_LOAD = 1, OP_REDEFINE = 2, OP_INVOKE = 3, OP_VAR_VALUE = 4, OP_ADD_CLASSPATH = 5, OP_CLOSE = 6;
    static final byte OK = 0,
            OK_VALUE = 1,
            USER_EXCEPTION = 2,
            RESOLUTION_EXCEPTION = 3,
            STOPPED = 4,
            CLASS_INSTALL_EXCEPTION = 5,
            NOT_IMPLEMENTED = 6,
            ENGINE_TERMINATION = 7,
            INTERNAL_EXCEPTION = 8;
    /** Stack frames a user exception carries (JShell shows a few; the rest would only cost frame space). */
    static final int MAX_STACK = 64;
    /** Characters of a value or message the sandbox sends (longer ones are cut, so the frame stays under the cap). */
    static final int MAX_TEXT = 200_000;

    /** Bytes of a sandbox JVM's frame key. */
    static final int KEY_BYTES = 32;
    /** Bytes of a frame's tag (HMAC-SHA256 cut to 128 bits). */
    static final int TAG_BYTES = 16;

    /**
     * The tags of one direction of one wire: HMAC-SHA256 (RFC 2104) under the JVM's key over the frame's
     * number (so a frame seen once cannot be sent again), its header and its bytes. Written over
     * {@link MessageDigest} rather than {@code javax.crypto.Mac}: loading the JCE provider cost every
     * sandbox JVM's start some 40 ms of CPU. Not thread-safe: the framer's lock or the one reader thread
     * holds it.
     */
    static final class FrameKey {
        private static final int BLOCK = 64;
        private final byte[] innerPad = new byte[BLOCK];
        private final byte[] outerPad = new byte[BLOCK];
        private final MessageDigest inner;
        private final MessageDigest outer;
        private long frames;

        FrameKey(byte[] key) {
            if (key.length != KEY_BYTES) throw new IllegalArgumentException("a frame key of " + key.length + " bytes");
            for (int i = 0; i < BLOCK; i++) {
                byte k = i < key.length ? key[i] : 0;
                innerPad[i] = (byte) (k ^ 0x36);
                outerPad[i] = (byte) (k ^ 0x5c);
            }
            try {
                inner = MessageDigest.getInstance("SHA-256");
                outer = MessageDigest.getInstance("SHA-256");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("no SHA-256 in this JDK", e);
            }
        }

        /** The tag of the next frame. */
        byte[] next(byte[] head, byte[] b, int off, int len) {
            long n = frames++;
            inner.update(innerPad);
            for (int i = 56; i >= 0; i -= 8) inner.update((byte) (n >>> i));
            inner.update(head);
            inner.update(b, off, len);
            outer.update(outerPad);
            outer.update(inner.digest());
            return java.util.Arrays.copyOf(outer.digest(), TAG_BYTES);
        }
    }

    /** Writes whole frames; one frame at a time whichever thread writes. */
    static final class Framer {
        private final OutputStream out;
        /** Tags each frame, or null for frames to the sandbox (a snippet writing there only disturbs its own JVM). */
        private final FrameKey key;

        Framer(OutputStream out, FrameKey key) {
            this.out = out;
            this.key = key;
        }

        synchronized void send(byte channel, byte[] b, int off, int len) throws IOException {
            byte[] head = {channel, (byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len};
            out.write(head);
            out.write(b, off, len);
            if (key != null) out.write(key.next(head, b, off, len));
            out.flush();
        }

        void send(byte channel, byte[] b) throws IOException {
            send(channel, b, 0, b.length);
        }
    }

    /**
     * An output stream onto one channel: bytes are buffered and sent as a frame on flush or when the
     * buffer is full; past {@code budget} bytes since {@link #renew()} they are only counted, and the
     * count goes as a {@link #SKIPPED} frame on flush.
     */
    static final class ChannelOut extends OutputStream {
        private final Framer framer;
        private final byte channel;
        private final byte[] buf;
        private final long budget;
        private int len;
        private long left;
        private long skipped;

        ChannelOut(Framer framer, byte channel, int bufferSize, long budget) {
            this.framer = framer;
            this.channel = channel;
            this.buf = new byte[bufferSize];
            this.budget = budget;
            this.left = budget;
        }

        /** A new invocation: its output is sent again, up to the budget. */
        synchronized void renew() {
            left = budget;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (len == buf.length) spill();
            buf[len++] = (byte) b;
        }

        @Override
        public synchronized void write(byte[] b, int off, int n) throws IOException {
            while (n > 0) {
                if (len == buf.length) spill();
                int k = Math.min(n, buf.length - len);
                System.arraycopy(b, off, buf, len, k);
                len += k;
                off += k;
                n -= k;
            }
        }

        /** The buffer's bytes sent (what the budget allows) or counted. */
        private void spill() throws IOException {
            int send = (int) Math.min(len, left);
            if (send > 0) framer.send(channel, buf, 0, send);
            left -= send;
            skipped += len - send;
            len = 0;
        }

        @Override
        public synchronized void flush() throws IOException {
            spill();
            if (skipped == 0) return;
            byte[] count = new byte[8];
            for (int i = 0; i < 8; i++) count[i] = (byte) (skipped >>> (56 - 8 * i));
            framer.send(SKIPPED, count);
            skipped = 0;
        }
    }

    /** A message being written: plain data only (see the class comment). */
    static final class Data {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        Data(int sequence, byte opOrStatus) {
            integer(sequence);
            write(() -> out.writeByte(opOrStatus));
        }

        private Data write(IoAction a) {
            try {
                a.run();
            } catch (IOException e) {
                throw new IllegalStateException(e); // a ByteArrayOutputStream does not fail
            }
            return this;
        }

        private interface IoAction {
            void run() throws IOException;
        }

        Data integer(int v) {
            return write(() -> out.writeInt(v));
        }

        Data bytes(byte[] b) {
            return write(() -> {
                out.writeInt(b.length);
                out.write(b);
            });
        }

        /** A string (null allowed), cut at {@link #MAX_TEXT} characters. */
        Data text(String s) {
            return text(s, MAX_TEXT);
        }

        private Data text(String s, int max) {
            if (s == null) return integer(-1);
            return bytes((s.length() > max ? s.substring(0, max) : s).getBytes(StandardCharsets.UTF_8));
        }

        Data booleans(boolean[] b) {
            integer(b.length);
            for (boolean x : b) write(() -> out.writeBoolean(x));
            return this;
        }

        Data stack(StackTraceElement[] stack) {
            int n = Math.min(stack.length, MAX_STACK);
            integer(n);
            for (int i = 0; i < n; i++) {
                StackTraceElement e = stack[i];
                text(e.getClassName(), 1000)
                        .text(e.getMethodName(), 1000)
                        .text(e.getFileName(), 1000)
                        .integer(e.getLineNumber());
            }
            return this;
        }

        byte[] toBytes() {
            return bytes.toByteArray();
        }
    }

    /**
     * Reads one message from untrusted bytes: every length and count is checked against what is left
     * before anything is allocated, and any violation is an {@link IllegalArgumentException}.
     */
    static final class Reader {
        private final byte[] b;
        private int p;

        Reader(byte[] b) {
            this.b = b;
        }

        private void need(long n) {
            if (n < 0 || n > b.length - p) throw new IllegalArgumentException("a message ended early");
        }

        int integer() {
            need(4);
            int v = ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
            p += 4;
            return v;
        }

        byte small() {
            need(1);
            return b[p++];
        }

        byte[] bytes() {
            int n = integer();
            need(n);
            byte[] out = java.util.Arrays.copyOfRange(b, p, p + n);
            p += n;
            return out;
        }

        String text() {
            int n = integer();
            if (n == -1) return null;
            need(n);
            String s = new String(b, p, n, StandardCharsets.UTF_8);
            p += n;
            return s;
        }

        boolean[] booleans() {
            int n = integer();
            need(n);
            boolean[] out = new boolean[n];
            for (int i = 0; i < n; i++) out[i] = b[p++] != 0;
            return out;
        }

        StackTraceElement[] stack() {
            int n = integer();
            if (n < 0 || n > MAX_STACK) throw new IllegalArgumentException("a stack of " + n + " frames");
            StackTraceElement[] out = new StackTraceElement[n];
            for (int i = 0; i < n; i++) {
                String cls = text(), method = text(), file = text();
                int line = integer();
                if (cls == null || method == null) throw new IllegalArgumentException("a stack frame without a name");
                out[i] = new StackTraceElement(cls, method, file, line);
            }
            return out;
        }

        /** Fails unless the whole message was read. */
        void end() {
            if (p != b.length) throw new IllegalArgumentException((b.length - p) + " bytes after a message");
        }
    }

    /**
     * Reads frames until the stream ends, handing each to {@code sink}; returns normally at the end and
     * throws {@link IOException} for bytes that are not a frame (a snippet that wrote to the JVM's own
     * standard output, or a frame beyond {@code maxFrame}, refused before its bytes are read). With a
     * {@code key}, each frame's tag must be the one that key gives it, or the frame is refused.
     */
    static void readFrames(InputStream in, int maxFrame, FrameKey key, BiConsumer<Byte, byte[]> sink)
            throws IOException {
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
            if (!known((byte) channel) || len < 0 || len > maxFrame) {
                throw new IOException("not a frame: channel " + channel + ", length " + len);
            }
            byte[] b = new byte[len];
            data.readFully(b);
            if (key != null) {
                byte[] head = {(byte) channel, (byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len
                };
                byte[] tag = new byte[TAG_BYTES];
                data.readFully(tag);
                if (!MessageDigest.isEqual(tag, key.next(head, b, 0, len)))
                    throw new IOException("a frame without the sandbox's key (channel " + channel + ")");
            }
            sink.accept((byte) channel, b);
        }
    }

    private static boolean known(byte c) {
        return c == COMMAND || c == OUTPUT || c == CALL || c == RETURN || c == STOP || c == LEFTOVER || c == SKIPPED;
    }
}
