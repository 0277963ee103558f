package brokkr.data.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A local git repository made in a test, standing in for an upstream repository (no network in
 * tests): files committed at known paths, each commit's id returned; fetched through its file:// URL.
 */
public final class GitFixture {
    private final Path dir;

    private GitFixture(Path dir) {
        this.dir = dir;
    }

    public static GitFixture init(Path dir) throws IOException {
        Files.createDirectories(dir);
        GitFixture g = new GitFixture(dir);
        g.git("init", "-q");
        return g;
    }

    public Path dir() {
        return dir;
    }

    public String url() {
        return dir.toAbsolutePath().toUri().toString();
    }

    /** Writes (or, for a null content, deletes) files and commits them; returns the commit id. */
    public String commit(Map<String, byte[]> files) throws IOException {
        for (var e : files.entrySet()) {
            Path f = dir.resolve(e.getKey());
            if (e.getValue() == null) {
                Files.deleteIfExists(f);
                continue;
            }
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        git("add", "-A");
        git(
                "-c",
                "user.email=fixture@brokkr.test",
                "-c",
                "user.name=fixture",
                "-c",
                "commit.gpgsign=false",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "fixture");
        return git("rev-parse", "HEAD").strip();
    }

    /** Copies {@code paths} (relative) from {@code source} into the repository and commits them. */
    public String commitCopies(Path source, List<String> paths) throws IOException {
        Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        for (String p : paths) files.put(p, Files.readAllBytes(source.resolve(p)));
        return commit(files);
    }

    public static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String git(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0)
                throw new IOException("git " + String.join(" ", args) + ": " + out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return out;
    }
}
