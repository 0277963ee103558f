package brokkr.domains.conformance;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * A corpus checked record by record on several threads, its results handed back in file order: one reader thread
 * decompresses and splits the file into lines while {@code threads} workers check them (each line's decoding,
 * parsing and check are the worker's), and the calling thread receives each result in file order, so what it prints
 * is the same whatever the thread count. The corpus is read as strictly as {@link Corpus#lines}: bytes that are not
 * UTF-8, a corrupt gzip stream and a file without records are each a {@link Corpus.CorpusException} (raised when
 * the consumer reaches that line, after every earlier line's result), and an exception a worker's check throws is
 * raised at its line the same way. One thread: everything on the calling thread, in order (no reader, no pool).
 */
public final class CorpusStream {
    private CorpusStream() {}

    /** The worker count for corpus checks: {@code -Dbrokkr.corpus.threads=N}, else the cores of the machine. */
    public static int defaultThreads() {
        String p = System.getProperty("brokkr.corpus.threads");
        if (p != null) {
            try {
                int n = Integer.parseInt(p.trim());
                if (n >= 1) return n;
            } catch (NumberFormatException e) {
                // not a number: the default, as for an absent property
            }
            throw new IllegalArgumentException("brokkr.corpus.threads must be a positive integer, got '" + p + "'");
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** One line of a corpus as its bytes (without the newline), not yet decoded. */
    public record RawLine(Path file, int number, byte[] bytes) {
        /** The line decoded strictly as UTF-8 (ASCII, what the corpora hold, without a decoder). */
        public String text() {
            if (isAscii(bytes)) return new String(bytes, StandardCharsets.ISO_8859_1);
            if (!Utf8.isWellFormed(bytes)) throw notUtf8();
            return new String(bytes, StandardCharsets.UTF_8); // well-formed: nothing is replaced
        }

        /** Whether the bytes are UTF-8 ({@link #text} succeeds); the bytes themselves for a parser that reads UTF-8. */
        public byte[] utf8() {
            if (!Utf8.isWellFormed(bytes)) throw notUtf8();
            return bytes;
        }

        private Corpus.CorpusException notUtf8() {
            return new Corpus.CorpusException(file + ":" + number + ": not UTF-8 text");
        }

        /**
         * Nothing but white space (Java's, as {@link String#isBlank}). A record line starts with '{': the bytes up to
         * the first one that is not ASCII white space decide, and only a line whose first such byte is not ASCII
         * (it may start a non-ASCII space) is decoded.
         */
        public boolean isBlank() {
            for (byte b : bytes) {
                if (b < 0) return text().isBlank();
                if (!Character.isWhitespace((char) b)) return false;
            }
            return true;
        }

        /** The line as {@link Corpus#lines} gives it. */
        public Corpus.Line line() {
            return new Corpus.Line(file, number, text());
        }

        private static boolean isAscii(byte[] b) {
            return Utf8.asciiPrefix(b, 0, b.length) == b.length;
        }
    }

    /**
     * {@code work} on every non-blank line of {@code file} on {@code threads} workers; {@code inOrder} gets each
     * result on the calling thread in file order. A CorpusException when the file cannot be read or has no records.
     */
    public static <R> void forEach(Path file, int threads, Function<RawLine, R> work, Consumer<R> inOrder) {
        if (threads <= 1) {
            sequential(file, work, inOrder);
            return;
        }
        new Pipeline<>(file, threads, work, inOrder).run();
    }

    private static <R> void sequential(Path file, Function<RawLine, R> work, Consumer<R> inOrder) {
        int[] records = {0};
        read(file, line -> {
            if (line.isBlank()) return;
            records[0]++;
            inOrder.accept(work.apply(line));
        });
        if (records[0] == 0) throw empty(file);
    }

    private static Corpus.CorpusException empty(Path file) {
        return new Corpus.CorpusException(file + ": no records (the corpus is empty)");
    }

    /** Lines handed to a worker at once (fewer hand-overs; the last batch of a small corpus still splits). */
    private static final int BATCH = 16;

    /** A run of consecutive lines and, once a worker is done with it, each one's result or the first failure. */
    private static final class Batch {
        final List<RawLine> lines;
        final Object[] results;
        final boolean[] blank;
        final CountDownLatch done = new CountDownLatch(1);
        /** The index of the line whose check threw ({@code failure}), or -1. */
        int failedAt = -1;

        RuntimeException failure;

        Batch(List<RawLine> lines) {
            this.lines = lines;
            this.results = new Object[lines.size()];
            this.blank = new boolean[lines.size()];
        }
    }

    /** The end of the file (or the reader's failure, raised after every line before it). */
    private static final Batch END = new Batch(List.of());

    private static final class Pipeline<R> {
        final Path file;
        final int threads;
        final Function<RawLine, R> work;
        final Consumer<R> inOrder;
        final BlockingQueue<Batch> todo;
        final BlockingQueue<Batch> ordered = new LinkedBlockingQueue<>();
        volatile RuntimeException readFailure;
        volatile boolean stop;

        Pipeline(Path file, int threads, Function<RawLine, R> work, Consumer<R> inOrder) {
            this.file = file;
            this.threads = threads;
            this.work = work;
            this.inOrder = inOrder;
            this.todo = new ArrayBlockingQueue<>(threads * 8); // the reader waits for the workers, bounding memory
        }

        @SuppressWarnings("unchecked")
        void run() {
            List<Thread> started = new ArrayList<>();
            Thread reader = Thread.ofPlatform().name("corpus-reader").daemon().unstarted(this::readAll);
            started.add(reader);
            for (int i = 0; i < threads; i++)
                started.add(
                        Thread.ofPlatform().name("corpus-worker-" + i).daemon().unstarted(this::workAll));
            started.forEach(Thread::start);
            try {
                int records = 0;
                while (true) {
                    Batch b = ordered.take();
                    if (b == END) {
                        if (readFailure != null) throw readFailure;
                        break;
                    }
                    b.done.await();
                    for (int i = 0; i < b.lines.size(); i++) {
                        if (i == b.failedAt) throw b.failure;
                        if (b.blank[i]) continue;
                        records++;
                        inOrder.accept((R) b.results[i]);
                    }
                }
                if (records == 0) throw empty(file);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking " + file, e);
            } finally {
                stop = true;
                for (Thread t : started) t.interrupt();
                for (Thread t : started) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }

        void readAll() {
            List<RawLine> batch = new ArrayList<>(BATCH);
            try {
                read(file, line -> {
                    batch.add(line);
                    if (batch.size() == BATCH) {
                        hand(new Batch(List.copyOf(batch)));
                        batch.clear();
                    }
                });
                if (!batch.isEmpty()) hand(new Batch(List.copyOf(batch)));
            } catch (RuntimeException e) {
                if (!stop) readFailure = e;
            } finally {
                for (int i = 0; i < threads; i++) todo.offer(END); // room: END needs no worker, see workAll
                ordered.add(END);
            }
        }

        private void hand(Batch b) {
            if (stop) throw new Stopped();
            ordered.add(b);
            try {
                todo.put(b);
            } catch (InterruptedException e) {
                throw new Stopped();
            }
        }

        void workAll() {
            try {
                while (!stop) {
                    Batch b = todo.take();
                    if (b == END) return;
                    try {
                        for (int i = 0; i < b.lines.size() && !stop; i++) {
                            RawLine line = b.lines.get(i);
                            try {
                                if (line.isBlank()) b.blank[i] = true;
                                else b.results[i] = work.apply(line);
                            } catch (RuntimeException e) {
                                b.failedAt = i;
                                b.failure = e;
                                break;
                            }
                        }
                    } finally {
                        b.done.countDown();
                    }
                }
            } catch (InterruptedException e) {
                // stopped by the consumer
            }
        }
    }

    /** The consumer stopped early (a failure at an earlier line): the reader ends quietly. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    /** Reads {@code file} (gunzipped when it starts with gzip's magic number) line by line into {@code sink}. */
    static void read(Path file, Consumer<RawLine> sink) {
        InputStream raw;
        try {
            raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        } catch (NoSuchFileException e) {
            throw new Corpus.CorpusException(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new Corpus.CorpusException(file + ": permission denied");
        } catch (IOException e) {
            throw new Corpus.CorpusException(file + ": cannot read: " + e.getMessage());
        }
        boolean gzip = false;
        try (InputStream closing = raw) {
            raw.mark(2);
            int b0 = raw.read(), b1 = raw.read();
            raw.reset();
            gzip = b0 == 0x1f && b1 == 0x8b;
            InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw;
            split(file, in, sink);
        } catch (IOException e) {
            throw new Corpus.CorpusException(
                    file + (gzip ? ": corrupt gzip data: " : ": cannot read: ") + e.getMessage());
        } catch (UncheckedIOException e) {
            throw new Corpus.CorpusException(file + ": cannot read: " + e.getMessage());
        }
    }

    private static void split(Path file, InputStream in, Consumer<RawLine> sink) throws IOException {
        byte[] buf = new byte[1 << 16];
        byte[] pending = new byte[1 << 12]; // the start of a line that continues in the next read
        int pendingLength = 0, number = 0, n;
        while ((n = in.read(buf)) > 0) {
            int start = 0;
            for (int i = Utf8.indexOf(buf, (byte) '\n', 0, n); i >= 0; i = Utf8.indexOf(buf, (byte) '\n', i + 1, n)) {
                byte[] line;
                if (pendingLength == 0) line = Arrays.copyOfRange(buf, start, i);
                else {
                    line = Arrays.copyOf(pending, pendingLength + i - start);
                    System.arraycopy(buf, start, line, pendingLength, i - start);
                    pendingLength = 0;
                }
                sink.accept(new RawLine(file, ++number, line));
                start = i + 1;
            }
            if (start < n) {
                if (pendingLength + n - start > pending.length)
                    pending = Arrays.copyOf(pending, Math.max(2 * pending.length, pendingLength + n - start));
                System.arraycopy(buf, start, pending, pendingLength, n - start);
                pendingLength += n - start;
            }
        }
        if (pendingLength > 0) sink.accept(new RawLine(file, ++number, Arrays.copyOf(pending, pendingLength)));
    }
}
