package brokkr.experiment.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * Makes a directory and the files in it read-only for this process until closed, as a read-only mount
 * would: {@code chmod a-w} for a normal user. Root ignores permissions (CI runs as root), so there the
 * files and the directory are made immutable with {@code chattr +i}, which binds root too; where that
 * is not available either (a file system without the attribute, no CAP_LINUX_IMMUTABLE) the calling
 * test is skipped, saying why.
 */
public final class ReadOnlyDirectory implements AutoCloseable {
    private final Path dir;
    private final List<Path> files;
    private final boolean immutable;
    private final Map<Path, Set<PosixFilePermission>> permissions = new HashMap<>();

    private ReadOnlyDirectory(Path dir, List<Path> files, boolean immutable) {
        this.dir = dir;
        this.files = files;
        this.immutable = immutable;
    }

    public static ReadOnlyDirectory of(Path dir) throws IOException, InterruptedException {
        List<Path> files;
        try (var l = Files.list(dir)) {
            files = l.toList();
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            ReadOnlyDirectory ro = new ReadOnlyDirectory(dir, files, false);
            for (Path p : all(dir, files)) {
                ro.permissions.put(p, Files.getPosixFilePermissions(p));
                Files.setPosixFilePermissions(
                        p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "r-xr-xr-x" : "r--r--r--"));
            }
            return ro;
        }
        ReadOnlyDirectory ro = new ReadOnlyDirectory(dir, files, true);
        if (chattr("+i", dir, files) != 0) {
            ro.close();
            Assumptions.abort("running as root, which ignores file permissions, and chattr +i is not available here");
        }
        return ro;
    }

    private static List<Path> all(Path dir, List<Path> files) {
        List<Path> out = new ArrayList<>(files);
        out.add(dir);
        return out;
    }

    private static int chattr(String flag, Path dir, List<Path> files) throws InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("chattr", flag));
        all(dir, files).forEach(p -> cmd.add(p.toString()));
        try {
            return new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (immutable) {
            chattr("-i", dir, files);
        } else {
            for (var e : permissions.entrySet()) Files.setPosixFilePermissions(e.getKey(), e.getValue());
        }
    }
}
