package brokkr.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/**
 * The stdio transport's streams, so that the end of the client's input ends the server only once every request
 * read has been answered: the SDK's reader closes the session when its input ends, and a client that writes its
 * requests and closes its end at once ({@code printf ... | brokkr mcp serve --stdio}) would otherwise get no answers.
 * The input's end is held back (at most {@link #DRAIN_SECONDS} s) while a request read has no response written.
 */
final class StdioDrain {
    static final int DRAIN_SECONDS = 30;
    private static final JsonFactory JSON = new JsonFactory();

    private long requests, responses;
    private boolean ended;

    final InputStream in;
    final OutputStream out;

    StdioDrain(InputStream in, OutputStream out) {
        this.in = new Lines(in);
        this.out = new Answers(out);
    }

    /** Whether the client's input has ended (and every request read was answered, or the wait ran out). */
    synchronized boolean ended() {
        return ended;
    }

    synchronized void awaitEnd() throws InterruptedException {
        while (!ended) wait();
    }

    private synchronized void request() {
        requests++;
    }

    private synchronized void response() {
        responses++;
        notifyAll();
    }

    private synchronized void end() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        try {
            while (responses < requests) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ended = true;
        notifyAll();
    }

    /** The top-level keys of one JSON-RPC line: a request has an id and a method, a response an id and none. */
    private static int kind(byte[] line, int len) {
        boolean id = false, method = false;
        try (JsonParser p = JSON.createParser(line, 0, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (name.equals("id") && v != JsonToken.VALUE_NULL) id = true;
                if (name.equals("method")) method = true;
                p.skipChildren();
            }
        } catch (IOException e) {
            return 0; // not JSON: the SDK answers it (a parse error) or drops it; nothing to wait for
        }
        return !id ? 0 : method ? 1 : 2;
    }

    /** Splits bytes into lines and hands each finished one to {@code line}. */
    private abstract static class LineBuffer {
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();

        void bytes(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    line(current.toByteArray(), current.size());
                    current.reset();
                } else current.write(b[i]);
            }
        }

        abstract void line(byte[] line, int len);
    }

    private final class Lines extends FilterInputStream {
        private final LineBuffer lines = new LineBuffer() {
            @Override
            void line(byte[] line, int len) {
                if (kind(line, len) == 1) request();
            }
        };

        Lines(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n < 0) end();
            else lines.bytes(b, off, n);
            return n;
        }
    }

    private final class Answers extends FilterOutputStream {
        private final LineBuffer lines = new LineBuffer() {
            @Override
            void line(byte[] line, int len) {
                if (kind(line, len) == 2) response();
            }
        };

        Answers(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            // Counted once written: the answer is on its way before the input's end is let through.
            lines.bytes(b, off, len);
        }
    }
}
