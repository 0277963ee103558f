package brokkr.family;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.data.UpstreamData;
import brokkr.experiment.Registry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * A benchmark family (tau2-bench, BFCL, the synthetic benchmarks): what a family brings to {@code ./brokkr}
 * beside its {@link brokkr.eval.BenchmarkProvider}s, so the CLI names no family. A family is found through
 * {@code ServiceLoader<BenchmarkFamily>} (one line in {@code META-INF/services/brokkr.family.BenchmarkFamily});
 * every method but {@link #name} has a default of "nothing", so a family implements only what it has.
 *
 * <p>Methods that take the {@link Registry} get the process's one registry ({@link Registry#process()} in
 * {@code ./brokkr}); a family finds its own benchmarks there (by type or name) and never loads another.
 * A family returns values (data pins, files, attempts) and the caller acts on them: in particular a family
 * never opens an experiment store; the CLI reads and writes it ({@link StoredResults}).
 */
public interface BenchmarkFamily {
    /** The family's name ({@code tau2}, {@code bfcl}): unique among the families, lowercase, no spaces. */
    String name();

    /**
     * The upstream data the family reads, pinned by sha256, for {@code ./brokkr data fetch NAME}: each
     * source's name is what {@code data fetch} takes and the folder it fetches into, unique over all
     * families. Empty (the default) for a family with no upstream files. Computing it loads no data.
     */
    default List<UpstreamData> upstreamData(Registry registry) {
        return List.of();
    }

    /**
     * What {@code ./brokkr data --help} says about this family's pins beyond their list: pins that are not
     * upstream's own file and why a fetched copy differs from them. Text that follows
     * {@code "A pin that is not upstream's own file says so: "}, wrapped to lines of the help's width; {@code ""}
     * (the default) for none.
     */
    default String dataNotes() {
        return "";
    }

    /**
     * The upstream revisions {@code ./brokkr --version} prints for this family, each {@code NAME SHORT-COMMIT}
     * ({@code tau2-bench a2c0247}). The default: one per {@link #upstreamData} source, its name and the first
     * seven characters of its commit.
     */
    default List<String> upstreamRevisions(Registry registry) {
        return upstreamData(registry).stream()
                .map(u -> u.name() + " "
                        + u.commit().substring(0, Math.min(7, u.commit().length())))
                .toList();
    }

    /**
     * The oracle corpora this family replays ({@code ./brokkr conformance SUITE ...}); each suite's name is
     * unique over all families. Empty by default.
     */
    default List<ConformanceSuite> conformance(Registry registry) {
        return List.of();
    }

    /**
     * The result formats this family reads and writes ({@code ./brokkr experiment export|import --format F});
     * each format's name is unique over all families. Empty by default.
     */
    default List<ResultFormat> resultFormats(Registry registry) {
        return List.of();
    }

    /**
     * The family's own commands ({@code ./brokkr tau2 run ...}), made with the process's registry and
     * environment; the CLI adds them after its built-ins, and a name taken twice is an error at start-up.
     * Empty by default.
     */
    default List<Command> commands(CommandContext context) {
        return List.of();
    }

    /**
     * The registered families, in class-path order of their services files; IllegalStateException when two
     * share a name (a family is never silently replaced).
     */
    static List<BenchmarkFamily> load() {
        List<BenchmarkFamily> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (BenchmarkFamily f : ServiceLoader.load(BenchmarkFamily.class)) {
            if (!names.add(f.name()))
                throw new IllegalStateException("two benchmark families named '" + f.name() + "' (the second: "
                        + f.getClass().getName() + ")");
            out.add(f);
        }
        return List.copyOf(out);
    }
}
