package brokkr.cli;

import brokkr.bench.LoopBench;
import brokkr.bench.ReplayBench;
import brokkr.bench.WorldBench;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./brokkr bench ...}: performance measurements, never timed tests. {@code world} runs the
 * world-value benchmarks (load, fork, updates, hashing); {@code replay} times a tau2 corpus replay and
 * compares it with upstream's own replay time recorded in the conformance README, side by side.
 */
public record BenchCommand() implements Command {
    @Override public String name() { return "bench"; }

    @Override public String summary() { return "benchmarks: world values (JMH), tau2 corpus replay vs upstream, loop depth scaling"; }

    @Override public String usage() {
        return """
               usage: ./brokkr bench world [--quick | --long] [--db retail|airline] [--only NAME] [--no-jmh]
                      ./brokkr bench replay --domain DOMAIN --corpus FILE [--repeat N] [--threads T]
                      ./brokkr bench loop [--depths 1000,4000,16000,64000,100000] [--max-seconds S]

               world   loads tau2 db.json worlds and measures load, fork, 1,000 random updates and full /
                       incremental hashing (JMH plus an in-process CPU-time table).
               replay  replays a tau2 conformance corpus N times (default 5) in one warm JVM with T worker
                       threads (default: the number of cores) and prints the best wall time, time per call,
                       the hashing share, and the ratio to upstream's recorded replay time for that corpus
                       (the timing table of the corpus folder's README).
               loop    pointer chasing with the scripted ideal follower at each depth: wall time, time per
                       hop, bytes allocated and heap retained, for the agent loop (./brokkr loop N) and for
                       the evaluation path of a loop cell (depths up to 10000); a depth slower than S
                       seconds (default 120) ends the series.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty()) throw new UsageException("missing benchmark (world, replay or loop)");
        List<String> rest = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "world" -> WorldBench.run(rest, out);
            case "replay" -> usage(() -> ReplayBench.run(rest, out));
            case "loop" -> usage(() -> LoopBench.run(rest, out));
            default -> throw new UsageException("unknown benchmark '" + args.get(0) + "'");
        };
    }

    private interface Bench { int run() throws Exception; }

    /** The benches refuse bad arguments with IllegalArgumentException: here, usage errors. */
    private static int usage(Bench bench) throws Exception {
        try {
            return bench.run();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
