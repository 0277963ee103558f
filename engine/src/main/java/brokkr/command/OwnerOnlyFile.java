package brokkr.command;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * An output file of records (model requests, answers) that only its owner may read: created 0600, or
 * an existing file set to 0600 before anything is written into it, then written anew.
 */
public final class OwnerOnlyFile {
    private OwnerOnlyFile() {}

    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    public static BufferedWriter create(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) throw new IOException("cannot write " + file + ": no directory " + dir);
        boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
        if (posix && Files.exists(file)) Files.setPosixFilePermissions(file, OWNER_ONLY);
        var options =
                EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        var channel = posix
                ? Files.newByteChannel(file, options, PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.newByteChannel(file, options);
        return new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel), StandardCharsets.UTF_8));
    }
}
