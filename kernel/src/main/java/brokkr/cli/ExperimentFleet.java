package brokkr.cli;

import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Fleet;
import brokkr.experiment.PostgresLocation;
import brokkr.experiment.Registry;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableText;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fleet's faces of {@code experiment}: {@code run FILE --store URL --workers 0 [--provider-limit P=N]...}
 * queues an experiment's cells for {@code brokkr worker}s and returns; {@code status --store URL [NAME]}
 * shows what the fleet is doing ({@link Fleet}).
 */
final class ExperimentFleet {
    private ExperimentFleet() {}

    static final String RUN_SYNOPSIS =
            "run FILE --store postgresql://HOST[:PORT]/DB[?schema=S] --workers 0" + " [--provider-limit PROVIDER=N]...";
    static final String STATUS_SYNOPSIS = "status --store postgresql://HOST[:PORT]/DB[?schema=S] [NAME]";

    static int register(Registry registry, List<String> args, PrintStream out, PrintStream err) {
        String store = null, workers = null;
        Map<String, Integer> limits = new TreeMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--store" -> store = value(args, ++i, a);
                case "--workers" -> workers = value(args, ++i, a);
                case "--provider-limit" -> {
                    String v = value(args, ++i, a);
                    int eq = v.indexOf('=');
                    int n;
                    try {
                        n = eq <= 0 ? -1 : Integer.parseInt(v.substring(eq + 1));
                    } catch (NumberFormatException e) {
                        n = -1;
                    }
                    if (n < 0 || n > ExperimentSpec.MAX_PARALLELISM)
                        throw new UsageException("--provider-limit takes PROVIDER=N (N from 0, no cap, to "
                                + ExperimentSpec.MAX_PARALLELISM + "), not '" + v + "'");
                    limits.put(v.substring(0, eq), n);
                }
                case "--no-progress" -> {
                    // nothing runs here to show progress of
                }
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a + " with --workers");
                    positional.add(a);
                }
            }
        }
        if (!"0".equals(workers))
            throw new UsageException("--workers takes 0 (queue the cells and return; start workers with ./brokkr worker"
                    + " --store URL), not '" + workers + "'");
        if (positional.size() != 1) throw new UsageException("expected: " + RUN_SYNOPSIS);
        Path file = Path.of(positional.getFirst());
        if (!Files.isRegularFile(file)) throw new InputException("no experiment file " + file);
        try {
            ExperimentSpec spec = ExperimentSpec.read(file);
            if (store == null) store = ExperimentSpec.store(file); // the file's store: when the command line names none
            if (store == null || !store.startsWith("postgres"))
                throw new UsageException("--workers 0 needs a PostgreSQL store: --store postgresql://HOST[:PORT]/DB"
                        + " (or store: in the file); workers on other machines cannot reach a directory");
            PostgresLocation location = location(store);
            out.println(Fleet.register(spec, location, registry, limits).summary());
            return 0;
        } catch (ExperimentSpec.SpecException e) {
            throw new InputException(e.getMessage());
        }
    }

    static int status(List<String> args, PrintStream out, PrintStream err) {
        String store = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--store")) store = value(args, ++i, a);
            else if (a.startsWith("-")) throw new UsageException("unknown option " + a);
            else if (store == null && a.startsWith("postgres")) store = a;
            else positional.add(a);
        }
        if (store == null || positional.size() > 1) throw new UsageException("expected: " + STATUS_SYNOPSIS);
        PostgresLocation location = location(store);
        List<Fleet.Status> all;
        try {
            all = Fleet.status(location, positional.isEmpty() ? null : positional.getFirst());
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        out.print(text(location, all));
        return 0;
    }

    /** The status as text: per experiment its cells' counts, then the workers and the providers' cells in flight. */
    static String text(PostgresLocation location, List<Fleet.Status> all) {
        StringBuilder sb = new StringBuilder();
        for (Fleet.Status s : all) {
            sb.append(String.format(
                    Locale.ROOT,
                    "experiment %s in %s: %d cells: %d done, %d running, %d pending (%d under an expired lease),"
                            + " %d out of infrastructure retries; %d infrastructure failures recorded%n",
                    s.experiment(),
                    location.display(),
                    s.cells(),
                    s.done(),
                    s.running(),
                    s.pending(),
                    s.expired(),
                    s.exhausted(),
                    s.infraFailures()));
        }
        if (all.isEmpty()) return sb.toString();
        List<Fleet.WorkerRow> workers = all.getFirst().workers();
        long live = workers.stream().filter(Fleet.WorkerRow::live).count();
        sb.append("\nworkers: ")
                .append(live)
                .append(" live of ")
                .append(workers.size())
                .append('\n');
        if (!workers.isEmpty()) {
            PlainTable.Builder id = PlainTable.text("worker"),
                    host = PlainTable.text("host"),
                    pid = PlainTable.longs("pid"),
                    slots = PlainTable.integers("slots"),
                    leases = PlainTable.integers("leases"),
                    recorded = PlainTable.integers("recorded"),
                    refused = PlainTable.integers("refused"),
                    beat = PlainTable.text("last_heartbeat"),
                    state = PlainTable.text("state");
            for (Fleet.WorkerRow w : workers) {
                id.append(w.id());
                host.append(w.host());
                pid.append(w.pid());
                slots.append(w.slots());
                leases.append(w.leases());
                recorded.append(w.recorded());
                refused.append(w.refused());
                beat.append(String.format(Locale.ROOT, "%.1f s ago", w.secondsSinceHeartbeat()));
                state.append(w.stopped() ? "stopped" : w.live() ? "live" : "lost (no heartbeat within its lease)");
            }
            sb.append(TableText.aligned(
                    PlainTable.of(null, id, host, pid, slots, leases, recorded, refused, beat, state)));
        }
        List<Fleet.ProviderRow> providers = all.getFirst().providers();
        if (!providers.isEmpty()) {
            sb.append("\nin flight per provider (cells leased across the fleet)\n");
            PlainTable.Builder p = PlainTable.text("provider"),
                    n = PlainTable.integers("in_flight"),
                    cap = PlainTable.text("cap");
            for (Fleet.ProviderRow r : providers) {
                p.append(r.provider());
                n.append(r.inFlight());
                cap.append(r.cap() == 0 ? "none" : Integer.toString(r.cap()));
            }
            sb.append(TableText.aligned(PlainTable.of(null, p, n, cap)));
        }
        return sb.toString();
    }

    private static PostgresLocation location(String store) {
        try {
            return PostgresLocation.parse(store);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    private static String value(List<String> args, int i, String flag) {
        if (i >= args.size()) throw new UsageException(flag + " needs a value");
        return args.get(i);
    }
}
