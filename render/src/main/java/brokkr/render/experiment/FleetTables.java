package brokkr.render.experiment;

import brokkr.experiment.Fleet;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableText;
import java.util.List;
import java.util.Locale;

/** A fleet's status ({@link Fleet#status}) as text: {@code experiment status --store URL} and {@code %experiment status}. */
public final class FleetTables {
    private FleetTables() {}

    /** The status as text: per experiment its cells' counts, then the workers and the providers' cells in flight. */
    public static String text(String store, List<Fleet.Status> all) {
        StringBuilder sb = new StringBuilder();
        for (Fleet.Status s : all) {
            sb.append(String.format(
                    Locale.ROOT,
                    "experiment %s in %s: %d cells: %d done, %d running, %d pending (%d under an expired lease),"
                            + " %d out of infrastructure retries; %d infrastructure failures recorded%n",
                    s.experiment(),
                    store,
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

    /** Whether every experiment of the status has no cell pending or running. */
    public static boolean settled(List<Fleet.Status> all) {
        return all.stream().allMatch(s -> s.pending() == 0 && s.running() == 0);
    }
}
