package brokkr.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;
import org.sqlite.util.OSInfo;

/**
 * Where sqlite-jdbc's native library is loaded from. Left alone, the driver copies it into
 * {@code java.io.tmpdir} under a fresh random name at every start and removes it only at a clean JVM
 * exit ({@code deleteOnExit}), so every {@code kill -9}, crash or {@code Runtime.halt} leaves a 1 MB
 * file in {@code /tmp}. Instead it is extracted once per driver version and platform into the
 * per-user cache, {@code CACHE/native/sqlite-jdbc-VERSION/OS/ARCH/}, where CACHE is
 * {@code -Dbrokkr.cache.dir}, else {@code $XDG_CACHE_HOME/brokkr}, else {@code ~/.cache/brokkr};
 * the driver is pointed at it with {@code org.sqlite.lib.path} / {@code org.sqlite.lib.name}, its
 * documented way to load the library from a given place. A file already there is reused when its
 * bytes are the driver's own (the size and CRC-32 its jar records for the entry); otherwise it is replaced atomically (a concurrent process either sees
 * the old complete file or the new one). A user's own {@code org.sqlite.lib.path} is respected; when
 * the cache cannot be written the driver falls back to its default.
 */
final class SqliteLibrary {
    private SqliteLibrary() {}

    private static final System.Logger LOG = System.getLogger("brokkr.experiment");
    private static boolean prepared;

    /** Points the driver at the cached library, extracting it first when needed; once per JVM. */
    static synchronized void prepare() {
        if (prepared) return;
        prepared = true;
        if (System.getProperty("org.sqlite.lib.path") != null) return;
        String name = LibraryLoaderUtil.getNativeLibName();
        // The platform's folder asked once: the driver's OSInfo starts `uname -o` (its Android check) every time,
        // and LibraryLoaderUtil.getNativeLibResourcePath() is "/org/sqlite/native/" + that same folder.
        String platform = OSInfo.getNativeLibFolderPathForCurrentOS();
        URL resource = SQLiteJDBCLoader.class.getResource(
                "/" + SQLiteJDBCLoader.class.getPackageName().replace('.', '/') + "/native/" + platform + "/" + name);
        if (resource == null) return; // no bundled library for this platform: the driver says so
        Path dir = cacheDir(System.getenv())
                .resolve("native")
                .resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())
                .resolve(platform);
        try {
            extract(resource, dir, name);
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "cannot cache sqlite-jdbc''s native library in {0} ({1}); "
                            + "the driver extracts it to java.io.tmpdir",
                    dir,
                    String.valueOf(e));
            return;
        }
        System.setProperty("org.sqlite.lib.path", dir.toString());
        System.setProperty("org.sqlite.lib.name", name);
    }

    /** The per-user cache directory of Brokkr. */
    static Path cacheDir(Map<String, String> env) {
        String own = System.getProperty("brokkr.cache.dir");
        if (own != null && !own.isBlank()) return Path.of(own);
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return Path.of(xdg, "brokkr");
        return Path.of(System.getProperty("user.home"), ".cache", "brokkr");
    }

    private static void extract(URL resource, Path dir, String name) throws IOException {
        Path lib = dir.resolve(name);
        if (sameAsEntry(resource, lib)) return;
        byte[] wanted;
        try (InputStream in = resource.openStream()) {
            wanted = in.readAllBytes();
        }
        if (Files.isRegularFile(lib)
                && Files.size(lib) == wanted.length
                && Arrays.equals(Files.readAllBytes(lib), wanted)) return;
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        if (posix)
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        else Files.createDirectories(dir);
        Path part = Files.createTempFile(dir, name, ".part");
        try {
            Files.write(part, wanted);
            if (posix) Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rwx------"));
            Files.move(part, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /**
     * Whether {@code lib} holds the bytes of the jar entry {@code resource}, by the size and CRC-32 the jar records
     * for it: the start-up of every command that opens a store then reads the cached file once instead of also
     * inflating the 1 MB entry to compare. False when the resource is not a jar entry (then the bytes decide).
     */
    private static boolean sameAsEntry(URL resource, Path lib) throws IOException {
        if (!Files.isRegularFile(lib) || !(resource.openConnection() instanceof JarURLConnection jar)) return false;
        jar.setUseCaches(false);
        JarEntry entry;
        try (JarFile file = jar.getJarFile()) {
            entry = jar.getJarEntry();
        }
        if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0 || Files.size(lib) != entry.getSize())
            return false;
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(lib));
        return crc.getValue() == entry.getCrc();
    }
}
