package brokkr.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fetches the pinned files of an {@link UpstreamData} with git and checks each against its pin. Only
 * the pinned commit is fetched (shallow, blobs filtered where the server allows, a sparse checkout of
 * exactly the pinned paths), into a scratch folder beside the destination; the files are then moved to
 * {@code DIR/NAME/<their repository paths>} (the layout of {@code shared/upstream/NAME}) and the scratch
 * folder removed. Each file is reported as it is: verified, its digest different from the pin (a pin
 * with a note is expected to differ), or absent from the commit.
 */
public final class DataFetch {
    private DataFetch() {}

    public enum Status {
        VERIFIED,
        DIFFERS,
        MISSING,
        /** The commit has a symbolic link at the path (or on the way to it): never followed, never moved. */
        REFUSED
    }

    /** One pinned file after the fetch; {@code actual} is null when the commit has no such file. */
    public record FileResult(String path, Status status, String pinned, String actual, String note) {
        /** A difference the pin's note documents (a reconstructed or substituted pin). */
        public boolean expected() {
            return status == Status.DIFFERS && note != null;
        }
    }

    /** What a fetch did: where the data directory is, and every pinned file's result in path order. */
    public record Result(UpstreamData source, String url, String commit, Path dataDir, List<FileResult> files) {
        public long count(Status s) {
            return files.stream().filter(f -> f.status() == s).count();
        }
        /** Every file verified, or differing only as its pin documents. */
        public boolean ok() {
            return files.stream().allMatch(f -> f.status() == Status.VERIFIED || f.expected());
        }
    }

    /** git failed (no git, an unreachable repository, a commit it does not have); the message has git's own words. */
    public static final class FetchException extends RuntimeException {
        public FetchException(String message) {
            super(message);
        }
    }

    /**
     * Fetches {@code source}'s pinned files from {@code url} at {@code commit} (null: the source's own)
     * into {@code into/NAME}; files already there are replaced.
     */
    public static Result fetch(UpstreamData source, Path into, String url, String commit) {
        String from = url == null ? source.url() : url;
        String at = commit == null ? source.commit() : commit;
        // git reads an argument starting with '-' as an option wherever it stands (--upload-pack=CMD runs CMD):
        // refused here, and both go after "--" besides.
        if (from.startsWith("-")) throw new IllegalArgumentException("a repository cannot start with '-': " + from);
        if (at.startsWith("-")) throw new IllegalArgumentException("a commit cannot start with '-': " + at);
        Path target = into.resolve(source.name());
        Path scratch = into.resolve(
                "." + source.name() + ".fetch-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(into);
            deleteTree(scratch);
            git(into, "init", "-q", scratch.toString());
            List<String> sparse = new ArrayList<>(List.of("sparse-checkout", "set", "--no-cone"));
            for (String p : source.pins().keySet()) sparse.add("/" + escapePattern(source.repositoryPath(p)));
            git(scratch, sparse.toArray(String[]::new));
            git(scratch, "fetch", "-q", "--depth", "1", "--filter=blob:none", "--", from, at);
            git(scratch, "checkout", "-q", "--detach", "FETCH_HEAD");
            List<FileResult> results = new ArrayList<>();
            for (var e : source.pins().entrySet()) {
                String repoPath = source.repositoryPath(e.getKey());
                Path fetched = scratch.resolve(repoPath);
                UpstreamData.Pin pin = e.getValue();
                if (linkOnTheWay(scratch, repoPath)) {
                    results.add(new FileResult(repoPath, Status.REFUSED, pin.sha256(), null, pin.note()));
                    continue;
                }
                if (!Files.isRegularFile(fetched, LinkOption.NOFOLLOW_LINKS)) {
                    results.add(new FileResult(repoPath, Status.MISSING, pin.sha256(), null, pin.note()));
                    continue;
                }
                String actual = sha256(fetched);
                Path dest = target.resolve(repoPath);
                Files.createDirectories(dest.getParent());
                move(fetched, dest);
                results.add(new FileResult(
                        repoPath,
                        actual.equals(pin.sha256()) ? Status.VERIFIED : Status.DIFFERS,
                        pin.sha256(),
                        actual,
                        pin.note()));
            }
            Path dataDir = source.dataRoot().isEmpty() ? target : target.resolve(source.dataRoot());
            return new Result(source, from, at, dataDir, List.copyOf(results));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                deleteTree(scratch);
            } catch (IOException ignored) {
                // a scratch folder left behind is named .NAME.fetch-PID and replaced by the next fetch of this process
                // id
            }
        }
    }

    /**
     * Whether {@code repoPath} under {@code root}, or a folder on the way to it, is a symbolic link: a commit can hold
     * one pointing anywhere (/etc/passwd, the user's keys), which a digest would follow and a move would plant in
     * the data folder.
     */
    private static boolean linkOnTheWay(Path root, String repoPath) {
        Path p = root;
        for (String part : repoPath.split("/")) {
            p = p.resolve(part);
            if (Files.isSymbolicLink(p)) return true;
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return false;
        }
        return false;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A path as a literal sparse-checkout (gitignore) pattern. */
    static String escapePattern(String path) {
        StringBuilder sb = new StringBuilder();
        for (char c : path.toCharArray()) {
            if ("*?[]\\!#".indexOf(c) >= 0) sb.append('\\');
            sb.append(c);
        }
        return sb.toString();
    }

    private static final long GIT_TIMEOUT_MINUTES = 30;

    /** Runs git in {@code dir} without prompting for anything; its output is kept for the error message. */
    private static void git(Path dir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        pb.environment().put("GIT_ASKPASS", "");
        pb.environment().put("LC_ALL", "C");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new FetchException("cannot run git (is it installed?): " + e.getMessage());
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(GIT_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new FetchException(
                        "git " + args[0] + " did not finish within " + GIT_TIMEOUT_MINUTES + " minutes");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new FetchException("interrupted while git " + args[0] + " ran");
        }
        if (p.exitValue() != 0) {
            throw new FetchException(
                    "git " + String.join(" ", args.length > 6 ? List.of(args).subList(0, 6) : List.of(args))
                            + (args.length > 6 ? " ..." : "") + " failed (exit " + p.exitValue() + "): " + out.strip());
        }
    }

    static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                Files.delete(f);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
