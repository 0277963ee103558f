package brokkr.bench;

import brokkr.command.Command;
import brokkr.domains.conformance.Corpus;
import brokkr.domains.tau2.runner.Tau2Domains;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./brokkr bench ...}: performance measurements, never timed tests. {@code world} runs the
 * world-value benchmarks (load, fork, updates, hashing); {@code replay} times a tau2 corpus replay
 * against upstream's recorded time and the SHA-256 floor ({@link ReplayBench}); {@code loop}, pointer
 * chasing by depth.
 */
public record BenchCommand() implements Command {
    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "benchmarks: world values (JMH), tau2 corpus replay vs upstream, loop depth scaling, KB search, REPL sandbox, probes and branches, BFCL multi-turn replay/grading and fork cost, key redaction, interrupt latency, start-up, OpenTelemetry span cost";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr bench world [--quick | --long] [--db DOMAIN] [--only NAME] [--no-jmh]
                      ./brokkr bench replay --domain DOMAIN --corpus FILE [--repeat N] [--threads T]
                      ./brokkr bench loop [--depths 1000,4000,16000,64000,100000] [--max-seconds S]
                      ./brokkr bench kb-search [--rounds N] [--corpus FILE]
                      ./brokkr bench sandbox [--runs N] [--warmup N]
                      ./brokkr bench probe [--domain DOMAIN] [--task ID] [--rounds N]
                      ./brokkr bench multi-turn [--repeat N] [--threads T] [--forks F] [--tasks ID,ID] [--dir DIR]
                      ./brokkr bench redact [--mib 1,8] [--rounds N]
                      ./brokkr bench interrupt [--units N] [--parallelism P] [--rounds N]
                      ./brokkr bench startup [--runs N] [--experiment DIR]
                      ./brokkr bench fleet --store URL [--cells N] [--latency-ms MS] [--cap N] [--slots N] [--workers 1,2,4]
                      ./brokkr bench mcp [--domain D] [--task ID] [--tool T --args JSON] [--calls N] [--rounds R]
                      ./brokkr bench otel [--domain D] [--tasks N] [--rounds R]

               world   loads the db.json world of each tau2 domain that has one (%s; or --db DOMAIN) as
                       the domain does (the tau2 data directory: -Dbrokkr.tau2.data, BROKKR_TAU2_DATA, else
                       ../shared/upstream/tau2-bench; every file checked against its pinned sha256) and
                       measures load, fork, 1,000 random updates and full / incremental hashing (JMH plus an
                       in-process CPU-time table).
               replay  replays a conformance corpus of any tau2 domain (%s) N times (default 5) per thread
                       count (1 and T, default T: the number of cores) in one warm JVM, as conformance does,
                       and prints per run and for the best run of each thread count: wall time, time per
                       call, the bytes its world hashes fed to SHA-256, the SHA-256 floor (MessageDigest's
                       time for as many bytes on as many threads, measured right after the run) and the
                       replay's ratio to it, and the ratio to upstream's recorded replay of that corpus
                       (shared/conformance/tau2/README.md, "Upstream timings"; retail gold and fuzz-seed11,
                       airline gold, telecom gold and fuzz-seed11, banking_knowledge gold, fuzz-seed11 and
                       kb-search-seed11).
               loop    pointer chasing with the scripted ideal follower at each depth: wall time, time per
                       hop, bytes allocated and heap retained, for the agent loop (./brokkr loop N) and for
                       the evaluation path of a loop cell (depths up to 10000); a depth slower than S
                       seconds (default 120) ends the series.
               kb-search  banking_knowledge's KB_search beside upstream's figures: BM25 index build (median of 10)
                       and the latency of every assistant KB_search call of kb-search-seed11.jsonl (p50, p99,
                       mean, max; N rounds, default 5, after a warm-up round).
               sandbox the REPL sandbox (brokkr.sandbox), with and without its JVM's AOT cache side by side:
                       an episode's sandbox end to end (start, prelude, three evaluations, close: wall time
                       and CPU of the harness plus the sandbox JVM) and its cold start; REPL episodes shaped
                       like the proofs' (BFCL multi-turn's 30-method prelude, the same every episode, and 8
                       calls; single-turn's 3 methods named anew every episode and 2 calls) with the prelude
                       precompiled as one class and as JShell snippets, alternating; then a warm one from
                       the pool and per evaluation a trivial expression, a method declaration and ten tool
                       calls (median and best of N runs, default 20, after N warm-up episodes, default 20).
               probe   the engine's own cost of decision-point probes and branches with scripted candidates
                       (default retail, its first test task with gold actions): per probe sample the world
                       rebuilt at the cut from the record, the fork and the dispatch of the answer; per branch
                       the O(1) fork and a branch run; and the heap of 1,000 unrun branches of one checkpoint
                       against one world.
               multi-turn  the BFCL multi-turn corpora (DIR, default ../shared/conformance/bfcl/multi_turn):
                       gold-exec and fuzz-seed11 replayed, verdicts-seed7 graded, as conformance does, best of N
                       (default 3) in one warm JVM, beside upstream's timings in that folder's README (as ratios),
                       on T worker threads (default: the cores; records are independent) and on one thread;
                       then the fork cost of each task's world (default multi_turn_base_0,multi_turn_long_context_0):
                       F (default 1000) forks each running the first ground-truth turn, time per fork and the
                       heap the forks retain against one world.
               redact  the API-key redactor on adversarial bodies of 1 and 8 MiB (default; an 8 MiB reply is just
                       under the response cap): backslash runs, with and without the key escaped at the end,
                       runs of \\u escapes, the key's first character; for a key without and one with
                       backslashes: best of N (default 3) and ms per MiB (flat: linear).
               interrupt  interrupt-to-idle latency of %%probe and %%branch (unstored and --dir) on tau2 retail
                       with a 200 ms model: N units (default 1000) queued, P (default 8) at a time, the calling
                       thread interrupted after 2P calls began: time to return, time until no call is in
                       flight, calls made (median of N rounds, default 5).
               startup start-up, cold (a new ./brokkr process per run), with the launcher's AOT cache and without
                       (BROKKR_AOT=0), alternating: --version and experiment show DIR (with --experiment) to the
                       first byte of output and to exit; the kernel to its first reply, then %%domain load
                       tau2-retail in that fresh process and once more (median and best of N, default 5).
               fleet   cells/s of 1, 2 and 4 brokkr worker processes (--slots 64 each) on a PostgreSQL store (a
                       schema brokkr_bench_fleet_wN of --store's database per run, dropped after) against a loopback
                       model answering after 200 ms under a fleet cap of 64, 10,000 cells of loop depth 1 (two
                       calls each), as a ratio to the ideal min(cap, slots) / 400 ms; and the store's cost per cell
                       (claim + record + heartbeat time in the workers) against SQLite's per attempt in one process.
               mcp     one tool call (default tau2-retail task 0, calculate) through ./brokkr mcp serve against %%call
                       on the same fork, rounds interleaved: %%call, the binding alone, the MCP SDK's client over
                       HTTP to the in-process server and over stdio to a real mcp serve process; median us/call,
                       the MCP paths' overhead over %%call, CPU us/call of the in-process paths (N calls, default
                       1000, R rounds, default 5).
               otel    what OpenTelemetry GenAI spans cost a run: N tau2 gold episodes (default retail, 20) of the
                       scripted agent and user through the runner with tracing off (the default), on (--otel: the
                       SDK's batch processor to an exporter that drops the spans) and on with content captured
                       (--otel-content), interleaved in each of R rounds (default 7); best µs/episode, spans per
                       run, and each mode's ratio to off.""".formatted(String.join(", ", WorldBench.domains()), String.join(", ", Tau2Domains.names()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty())
            throw new UsageException(
                    "missing benchmark (world, replay, loop, kb-search, sandbox, probe, multi-turn, redact, interrupt, startup, fleet, mcp or otel)");
        List<String> rest = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "world" -> usage(() -> WorldBench.run(rest, out));
            case "replay" -> usage(() -> ReplayBench.run(rest, out));
            case "loop" -> usage(() -> LoopBench.run(rest, out));
            case "kb-search" -> usage(() -> KbSearchBench.run(rest, out));
            case "sandbox" -> usage(() -> SandboxBench.run(rest, out));
            case "probe" -> usage(() -> ProbeBench.run(rest, out));
            case "multi-turn" -> usage(() -> MultiTurnBench.run(rest, out));
            case "redact" -> usage(() -> RedactBench.run(rest, out));
            case "interrupt" -> usage(() -> InterruptBench.run(rest, out));
            case "startup" -> usage(() -> StartupBench.run(rest, out));
            case "fleet" -> usage(() -> FleetBench.run(rest, out));
            case "mcp" -> usage(() -> McpBench.run(rest, out));
            case "otel" -> usage(() -> OtelBench.run(rest, out));
            default -> throw new UsageException("unknown benchmark '" + args.get(0) + "'");
        };
    }

    private interface Bench {
        int run() throws Exception;
    }

    /** The benches refuse bad arguments with IllegalArgumentException: here, usage errors; a corpus that cannot be replayed, an input error. */
    private static int usage(Bench bench) throws Exception {
        try {
            return bench.run();
        } catch (Corpus.CorpusException e) {
            throw new InputException(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
