package brokkr.cli;

import brokkr.command.Command;
import brokkr.experiment.Fleet;
import brokkr.experiment.FleetWorker;
import brokkr.experiment.PostgresLocation;
import brokkr.experiment.Registry;
import brokkr.run.Cancellation;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./brokkr worker --store URL [--slots N] [--experiment NAME]}: one worker of a fleet
 * ({@link FleetWorker}): claims the queued cells of a PostgreSQL store, runs them, records their
 * attempts, and exits when no cell is left to run. SIGTERM (systemd's stop, a pod's deletion) gives its
 * unrecorded leases back before it exits; a worker killed outright leaves leases that expire.
 */
final class WorkerCommand implements Command {
    static final String SYNOPSIS =
            "worker --store postgresql://HOST[:PORT]/DB[?schema=S] [--slots N] [--experiment NAME]"
                    + " [--lease-seconds S] [--heartbeat-seconds S] [--store-wait-seconds S]";

    private final Registry registry;

    WorkerCommand(Registry registry) {
        this.registry = registry;
    }

    @Override
    public String name() {
        return "worker";
    }

    @Override
    public String summary() {
        return "run the queued cells of a PostgreSQL experiment store, as one of a fleet of workers";
    }

    @Override
    public String usage() {
        return """
                usage: ./brokkr %s

                  Claims cells of the experiments queued in the store (experiment run FILE --store URL
                  --workers 0 queues one) one free slot at a time, runs each as experiment run does
                  (same evaluation, timeouts, retries of provider calls), records its attempt, and exits
                  0 when no cell is pending or leased. Start one per machine (deploy/ has a systemd unit
                  and a Kubernetes Job); watch them with experiment status --store URL.
                  Each claim is a lease: extended by a heartbeat while the cell runs, and, when it
                  expires (the worker was killed or lost the store for longer), claimed again by another
                  worker; a result that comes back after its lease was claimed again is refused, so every
                  cell has one recorded attempt per lease. Provider caps (the spec's providers
                  concurrency, experiment run --provider-limit P=N) hold for the whole fleet: a cell is
                  leased only while its providers have room.
                  The password comes from PGPASSWORD or ~/.pgpass, never from the URL.

                  --slots N              cells at once in this worker (default: the experiment's parallelism)
                  --experiment NAME      only this experiment of the store (default: every queued one)
                  --lease-seconds S      how long a claim holds without a heartbeat (default 300)
                  --heartbeat-seconds S  how often leases are extended (default 30; less than the lease)
                  --store-wait-seconds S how long the store may be unreachable before the worker gives up
                                         (default 900); meanwhile it waits and then goes on

                exit: 0 nothing left to run, 1 a store error (unreachable for longer than the wait, another
                schema version, not a Brokkr store), 2 a usage error or nothing queued""".formatted(SYNOPSIS);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        String store = null, experiment = null;
        int slots = 0;
        double lease = FleetWorker.Options.LEASE.toSeconds(),
                heartbeat = FleetWorker.Options.HEARTBEAT.toSeconds(),
                storeWait = 900;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--store" -> store = value(args, ++i, a);
                case "--experiment" -> experiment = value(args, ++i, a);
                case "--slots" -> slots = (int) number(value(args, ++i, a), a, 1, 10_000);
                case "--lease-seconds" -> lease = number(value(args, ++i, a), a, 0.2, 86_400);
                case "--heartbeat-seconds" -> heartbeat = number(value(args, ++i, a), a, 0.05, 86_400);
                case "--store-wait-seconds" -> storeWait = number(value(args, ++i, a), a, 0, 7 * 86_400);
                default -> throw new UsageException(a.startsWith("-") ? "unknown option " + a : "unexpected " + a);
            }
        }
        if (store == null) throw new UsageException("--store postgresql://HOST[:PORT]/DB is required");
        PostgresLocation location;
        try {
            location = PostgresLocation.parse(store);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        FleetWorker.Options options;
        try {
            options = new FleetWorker.Options(
                    experiment,
                    slots,
                    millis(lease),
                    millis(heartbeat),
                    millis(storeWait),
                    Duration.ofMillis(Math.max(20, Math.min(100, (long) (heartbeat * 1000)))));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Cancellation cancellation = new Cancellation();
        CountDownLatch finished = new CountDownLatch(1);
        // SIGTERM: stop claiming, abandon the cells in flight and give their leases back, then let the JVM exit.
        Thread hook = new Thread(() -> {
            cancellation.cancel();
            try {
                finished.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting either way
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            FleetWorker.Result r = Fleet.work(location, registry, options, err, cancellation);
            err.println(r.summary());
            err.println(r.profile());
            return 0;
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // the JVM is shutting down: the hook is running
            }
        }
    }

    private static Duration millis(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    private static String value(List<String> args, int i, String flag) {
        if (i >= args.size()) throw new UsageException(flag + " needs a value");
        return args.get(i);
    }

    private static double number(String s, String flag, double min, double max) {
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " takes a number, not '" + s + "'");
        }
        if (!(v >= min && v <= max))
            throw new UsageException(flag + " must be from " + min + " to " + max + ", not " + s);
        return v;
    }
}
