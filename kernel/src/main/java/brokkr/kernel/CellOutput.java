package brokkr.kernel;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.messages.Message;
import org.dflib.jjava.jupyter.messages.publish.PublishStream;

/**
 * The kernel process's {@code System.out} and {@code System.err} while it serves: whatever writes to them,
 * the cell's own code or a thread it started that prints after the cell ended, is published as a
 * {@code stream} message of the cell that is running, else of the last one that ran (ipykernel's rule).
 * Before the first cell, output goes to the process's own streams, as do the kernel's diagnostics
 * ({@link #kernelErr()}), which belong in the Jupyter server's log and not in a notebook.
 */
final class CellOutput {
    private static volatile PrintStream kernelErr;

    private final PrintStream processOut = System.out, processErr = System.err;
    private final InputStream processIn = System.in;
    private volatile ShellReplyEnvironment cell;

    /** The process's standard error, even while the streams are routed to cells. */
    static PrintStream kernelErr() {
        PrintStream e = kernelErr;
        return e != null ? e : System.err;
    }

    /** Routes {@code System.out}, {@code System.err} (and {@code System.in}, for input requests) to the cells. */
    void install(InputStream cellInput) {
        kernelErr = processErr;
        System.setOut(
                new PrintStream(new Routed(PublishStream.StreamType.OUT, processOut), true, StandardCharsets.UTF_8));
        System.setErr(
                new PrintStream(new Routed(PublishStream.StreamType.ERR, processErr), true, StandardCharsets.UTF_8));
        System.setIn(cellInput);
    }

    /** Gives the process its own streams back. */
    void uninstall() {
        System.out.flush();
        System.err.flush();
        System.setOut(processOut);
        System.setErr(processErr);
        System.setIn(processIn);
        kernelErr = null;
    }

    /** A cell starts: output goes to it from now on, until the next one starts. */
    void attach(ShellReplyEnvironment env) {
        cell = env;
    }

    /** Whether output goes to a cell (one has started). */
    boolean routing() {
        return cell != null;
    }

    /**
     * Bytes collected until a flush (a {@code PrintStream} with auto-flush flushes at every line), then one
     * {@code stream} message. Sent on the iopub socket directly, not through the cell's reply environment,
     * whose defer mode the shell thread may be switching while a background thread writes.
     */
    private final class Routed extends OutputStream {
        private final PublishStream.StreamType type;
        private final PrintStream process;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        Routed(PublishStream.StreamType type, PrintStream process) {
            this.type = type;
            this.process = process;
        }

        @Override
        public synchronized void write(int b) {
            pending.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            pending.write(b, off, len);
        }

        @Override
        public synchronized void flush() {
            byte[] bytes = pending.toByteArray();
            int end = completeUtf8(bytes);
            if (end == 0) return;
            pending.reset();
            pending.write(bytes, end, bytes.length - end);
            ShellReplyEnvironment env = cell;
            if (env == null) {
                process.write(bytes, 0, end);
                process.flush();
                return;
            }
            PublishStream content = new PublishStream(type, new String(bytes, 0, end, StandardCharsets.UTF_8));
            env.getIopub().sendMessage(new Message<>(env.getContext(), content.getType(), content));
        }
    }

    /** The length of the longest prefix that does not end inside a UTF-8 sequence (a write may split one). */
    static int completeUtf8(byte[] b) {
        int n = b.length;
        for (int back = 1; back <= Math.min(3, n); back++) {
            int c = b[n - back] & 0xFF;
            if (c < 0x80) return n; // ASCII: complete
            if (c >= 0xC0) { // lead byte: complete if its sequence fits
                int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
                return back >= len ? n : n - back;
            }
        }
        return n; // only continuation bytes: not UTF-8 we can mend
    }
}
