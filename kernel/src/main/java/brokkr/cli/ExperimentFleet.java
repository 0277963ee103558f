package brokkr.cli;

import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Fleet;
import brokkr.experiment.PostgresLocation;
import brokkr.experiment.Registry;
import brokkr.render.experiment.FleetTables;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        out.print(FleetTables.text(location.display(), all));
        return 0;
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
