package brokkr.cli;

import brokkr.command.Command;
import brokkr.data.DataFetch;
import brokkr.data.UpstreamData;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./brokkr data fetch [tau2-bench|gorilla]... [--dir DIR] [--from URL] [--commit SHA]}: the
 * upstream data files Brokkr reads, fetched with git at the commits they were transcribed against and
 * checked against the pins in the code ({@link DataFetch}), for a user outside this repository's
 * {@code ../shared} layout. The sources are the benchmark families' own {@link UpstreamData}
 * ({@link BenchmarkFamily#upstreamData}).
 */
public record DataCommand(Map<String, String> env, Registry registry, List<BenchmarkFamily> families)
        implements Command {
    public DataCommand {
        env = Map.copyOf(env);
        families = List.copyOf(families);
    }

    /**
     * The fetchable sources by name, in the order {@code data fetch} without a name fetches them (the families'
     * order); IllegalStateException for a name two sources take.
     */
    Map<String, UpstreamData> sources() {
        Map<String, UpstreamData> m = new LinkedHashMap<>();
        for (BenchmarkFamily f : families) {
            for (UpstreamData u : f.upstreamData(registry)) {
                if (m.putIfAbsent(u.name(), u) != null)
                    throw new IllegalStateException("two upstream data sources named '" + u.name()
                            + "' (the second from family " + f.name() + ")");
            }
        }
        return m;
    }

    /** What the families say about their pins (pins that are not upstream's own file), or that a pin would say so. */
    private String notes() {
        List<String> notes = families.stream()
                .map(BenchmarkFamily::dataNotes)
                .filter(n -> !n.isBlank())
                .map(String::strip)
                .toList();
        return notes.isEmpty()
                ? "A pin that is not upstream's own file says so."
                : "A pin that is not upstream's own file\nsays so: " + String.join("\n", notes);
    }

    @Override
    public String name() {
        return "data";
    }

    @Override
    public String summary() {
        return "fetch the pinned upstream data (" + String.join(", ", sources().keySet()) + ") with git and verify it";
    }

    @Override
    public String usage() {
        StringBuilder list = new StringBuilder();
        for (UpstreamData u : sources().values()) {
            list.append(String.format(
                    "  %-11s %s at %s (%d pinned files) into DIR/%s; %s=DIR/%s%n",
                    u.name(),
                    u.url(),
                    u.commit().substring(0, 7),
                    u.pins().size(),
                    u.name(),
                    u.envVar(),
                    u.dataRoot().isEmpty() ? u.name() : u.name() + "/" + u.dataRoot()));
        }
        return """
                usage: ./brokkr data fetch [%s]... [--dir DIR] [--from URL] [--commit SHA]

                Fetches the upstream data files Brokkr reads (all sources without a name), at the commits they were
                transcribed against, with git: a shallow fetch of that one commit and a sparse checkout of exactly the
                pinned files. Checks every file's sha256 against its pin in the code and says how to point Brokkr at it.
                %s  --dir DIR     where to put them (default %s)
                  --from URL    another clone or mirror of the repository (a path or file:// URL too); one source only
                  --commit SHA  another commit (its files are still checked against the pins); one source only
                Each file is reported verified, DIFFERS (both digests) or MISSING. %s
                exit codes: 0 every file verified, or differing only where its pin says it will; 1 a file differs
                  unexpectedly or is missing, or git failed; 2 a usage error""".formatted(String.join("|", sources().keySet()), list, defaultDir(), notes());
    }

    /** {@code $XDG_DATA_HOME/brokkr/upstream}, else {@code ~/.local/share/brokkr/upstream}. */
    Path defaultDir() {
        String xdg = env.get("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("brokkr").resolve("upstream");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || !args.getFirst().equals("fetch")) throw new UsageException("expected 'fetch'");
        Map<String, UpstreamData> sources = sources();
        Path dir = null;
        String from = null, commit = null;
        List<String> names = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--dir", "--from", "--commit" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    String v = args.get(++i);
                    switch (a) {
                        case "--dir" -> dir = Path.of(v);
                        case "--from" -> {
                            // git would read it as an option (--upload-pack=CMD runs CMD)
                            if (v.startsWith("-"))
                                throw new UsageException("--from takes a repository URL or path, not '" + v + "'");
                            from = v;
                        }
                        default -> {
                            if (!v.matches("[0-9a-fA-F]{7,40}"))
                                throw new UsageException("--commit takes a commit id (hex), not '" + v + "'");
                            commit = v;
                        }
                    }
                }
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    if (!sources.containsKey(a))
                        throw new UsageException(
                                "unknown source '" + a + "' (" + String.join(", ", sources.keySet()) + ")");
                    if (!names.contains(a)) names.add(a);
                }
            }
        }
        if (names.isEmpty()) names.addAll(sources.keySet());
        if ((from != null || commit != null) && names.size() != 1)
            throw new UsageException("--from and --commit apply to one source: name it");
        Path into = (dir == null ? defaultDir() : dir).toAbsolutePath().normalize();
        boolean ok = true;
        for (String n : names) {
            UpstreamData u = sources.get(n);
            out.printf(
                    "%s: %s at %s, %d pinned files%n",
                    u.name(),
                    from == null ? u.url() : from,
                    commit == null ? u.commit() : commit,
                    u.pins().size());
            DataFetch.Result r;
            try {
                r = DataFetch.fetch(u, into, from, commit);
            } catch (DataFetch.FetchException e) {
                err.println("brokkr data: " + u.name() + ": " + e.getMessage());
                ok = false;
                continue;
            }
            report(r, out);
            ok &= r.ok();
        }
        return ok ? 0 : 1;
    }

    private static void report(DataFetch.Result r, PrintStream out) {
        int unexpected = 0;
        for (DataFetch.FileResult f : r.files()) {
            switch (f.status()) {
                case VERIFIED -> out.println("  verified  " + f.path());
                case DIFFERS -> {
                    out.println("  DIFFERS   " + f.path());
                    out.println("            sha256 " + f.actual() + ", pinned " + f.pinned());
                    if (f.expected()) out.println("            expected: " + f.note());
                    else unexpected++;
                }
                case MISSING -> {
                    out.println("  MISSING   " + f.path() + " (not in the commit)");
                    unexpected++;
                }
                case REFUSED -> {
                    out.println("  REFUSED   " + f.path() + " (a symbolic link in the commit: not followed, not kept)");
                    unexpected++;
                }
            }
        }
        long expected =
                r.files().stream().filter(DataFetch.FileResult::expected).count();
        out.printf(
                "%s: %d verified, %d differing as documented, %d differing unexpectedly, %d missing%s; in %s%n",
                r.source().name(),
                r.count(DataFetch.Status.VERIFIED),
                expected,
                r.count(DataFetch.Status.DIFFERS) - expected,
                r.count(DataFetch.Status.MISSING),
                r.count(DataFetch.Status.REFUSED) == 0
                        ? ""
                        : ", " + r.count(DataFetch.Status.REFUSED) + " refused (symbolic links)",
                r.dataDir());
        if (unexpected > 0) {
            out.println("  " + unexpected
                    + " file(s) are not the ones Brokkr was proven against: Brokkr refuses them when it reads them"
                    + " (each read is checked against its pin)");
        }
        if (expected > 0)
            out.println(
                    "  the files that differ as documented are refused by the code that reads them; everything else is usable");
        out.println("point Brokkr at it:");
        out.println("  export " + r.source().envVar() + "=" + r.dataDir() + "      (or java -D"
                + r.source().property() + "=" + r.dataDir() + ")");
    }
}
