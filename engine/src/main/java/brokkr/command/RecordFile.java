package brokkr.command;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A JSON-lines file the CLI appends records to ({@code tau2 run --out}): transcripts and model requests,
 * private data, so a new file is created owner-only (0600). Each record goes out as one write of its line
 * and its newline, so a killed run leaves at worst its last line cut short; appending to such a file
 * first ends that line (and says so), so the cut record stays one bad line and the next record is whole.
 * A file that exists is refused unless the caller says to add to it or to replace it ({@link Existing}):
 * two runs mixed in one file silently is never what was meant.
 */
public final class RecordFile implements Closeable {
    /** What to do with a file that already exists: refuse it, add to it ({@code --append}), replace it ({@code --force}). */
    public enum Existing {
        REFUSE,
        APPEND,
        REPLACE
    }

    private final FileChannel channel;

    private RecordFile(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Opens {@code file} for appending (creating it 0600); {@code flag} names the option in messages.
     * A file that cannot be opened is an {@link Command.InputException} naming it; a repaired last line
     * is reported on {@code warnings}.
     */
    public static RecordFile open(Path file, String flag, PrintStream warnings) {
        return open(file, flag, Existing.APPEND, warnings);
    }

    /** {@link #open(Path, String, PrintStream)}, with what to do when {@code file} exists already. */
    public static RecordFile open(Path file, String flag, Existing existing, PrintStream warnings) {
        String what = flag + " " + file;
        if (Files.isDirectory(file)) throw new Command.InputException(what + " is a directory, not a file");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent))
            throw new Command.InputException(what + ": no directory " + parent);
        if (existing == Existing.REFUSE && Files.exists(file))
            throw new Command.InputException(what
                    + " exists; give --append to add to it or --force to replace it (refused: two runs in one file)");
        try {
            if (existing == Existing.REPLACE && Files.exists(file)) {
                OwnerOnlyFile.create(file).close(); // 0600 before it is emptied, as a new one would be
            }
            create(file);
            long cut;
            try (FileChannel read = FileChannel.open(file, StandardOpenOption.READ)) {
                cut = bytesAfterLastNewline(read);
            }
            FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            if (cut > 0) {
                ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
                warnings.println("brokkr: " + file + " ended in an incomplete line (" + cut
                        + " bytes after the last newline: a record"
                        + " cut short); it is left as it is, and new records start on the next line");
            }
            return new RecordFile(ch);
        } catch (IOException e) {
            throw new Command.InputException("cannot append to " + what + ": " + ErrorMessages.describe(e));
        }
    }

    /** A new file owner-only from the start (not chmod after: the records are never readable by others). */
    private static void create(Path file) throws IOException {
        if (Files.exists(file)) return;
        try {
            if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException raced) {
            // another process created it meanwhile: append to theirs
        }
    }

    private static long bytesAfterLastNewline(FileChannel ch) throws IOException {
        long size = ch.size();
        ByteBuffer buf = ByteBuffer.allocate(8192);
        for (long end = size; end > 0; ) {
            long start = Math.max(0, end - buf.capacity());
            buf.clear().limit((int) (end - start));
            while (buf.hasRemaining() && ch.read(buf, start + buf.position()) >= 0) {}
            for (int i = (int) (end - start) - 1; i >= 0; i--) if (buf.get(i) == '\n') return size - (start + i + 1);
            end = start;
        }
        return size;
    }

    /**
     * Appends one JSON record as one line. U+0085, U+2028 and U+2029 (raw only inside JSON strings, where
     * the escape means the same) are escaped: Python's {@code splitlines} and others break lines there.
     */
    public void append(String json) throws IOException {
        if (json.indexOf('\n') >= 0) throw new IllegalArgumentException("a record is one line of JSON");
        String line =
                json.replace("\u0085", "\\u0085").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
        ByteBuffer b = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) channel.write(b);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
