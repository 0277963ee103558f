package brokkr.cli;

import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.magics.ExperimentTables;
import brokkr.magics.Tables;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./brokkr experiment run|show|attempts|checks|transcript}: runs an experiment file into a
 * directory (resuming what is there) and inspects a directory's store. Benchmarks and model providers
 * are found through {@code ServiceLoader} ({@link Registry#load()}).
 */
public final class ExperimentCommand implements Command {
    @Override public String name() { return "experiment"; }

    @Override public String summary() { return "run an experiment (tasks x candidates x repetitions), resume it, show its scorecard"; }

    @Override public String usage() {
        return """
                usage: ./brokkr experiment run FILE [--dir DIR] [--no-progress]
                       ./brokkr experiment show DIR
                       ./brokkr experiment attempts DIR [--all]
                       ./brokkr experiment checks DIR
                       ./brokkr experiment transcript DIR ATTEMPT_ID
                       ./brokkr experiment verify-world DIR [ATTEMPT_ID]

                  run         run the experiment in FILE (JSON, or YAML when it ends in .yaml/.yml) into DIR
                              (default .brokkr/experiments/NAME); running it again resumes: completed cells
                              are skipped, infrastructure failures are retried up to max_infra_retries
                  show        the scorecard: average reward, pass^k, per-check and per-task results, tokens
                  attempts    every attempt of the current cells (--all: also of earlier definitions)
                  checks      failures by check and candidate
                  transcript  one attempt's verdict and transcript
                  verify-world  replay the attempt's (without ID: every completed attempt's) tool calls
                              from the initial world and compare the final world's hash with the
                              recorded one (exit 1 on a mismatch)

                exit codes: 0 done (run: every cell has a verdict); 1 an error (the store is unreadable, not a
                  Brokkr store, corrupt, or was deleted or replaced during the run); 2 a usage error;
                  3 (run) the run ended with cells without a verdict: infrastructure failures (retried when the
                  experiment is run again, up to max_infra_retries) or cells out of retries. Inspection opens
                  the store read-only and changes nothing in DIR (a read-only directory is fine).

                experiment file keys: name, domain + split|tasks (or domains: [{name, split|tasks}]),
                  candidates: [{id, provider, model, action_space, options, system_prompt|system_prompt_file}],
                  repetitions, parallelism, providers: {NAME: {concurrency, rate_per_second}},
                  user / judge: {provider, model, options}, max_infra_retries, cell_timeout_seconds, progress""";
    }

    @Override public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty()) throw new UsageException("missing subcommand");
        List<String> rest = new ArrayList<>(args.subList(1, args.size()));
        return switch (args.getFirst()) {
            case "run" -> runExperiment(rest, out, err);
            case "show" -> withStore(rest, 1, "show DIR", (store, a) -> out.print(ExperimentTables.text(Scorecard.of(store))));
            case "attempts" -> {
                boolean all = rest.remove("--all");
                yield withStore(rest, 1, "attempts DIR [--all]", (store, a) -> out.print(Tables.aligned(ExperimentTables.attempts(Inspect.attempts(store, all)))));
            }
            case "checks" -> withStore(rest, 1, "checks DIR", (store, a) -> out.print(Tables.aligned(ExperimentTables.checks(Scorecard.of(store)))));
            case "transcript" -> withStore(rest, 2, "transcript DIR ATTEMPT_ID", (store, a) -> {
                long id = attemptId(a.get(1));
                try {
                    out.print(Inspect.transcript(store, id));
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            });
            case "verify-world" -> {
                int[] code = {0};
                if (rest.size() == 1) {
                    // Every completed attempt of the current cells.
                    withStore(rest, 1, "verify-world DIR [ATTEMPT_ID]", (store, a) -> {
                        Registry registry = Registry.load();
                        int ok = 0, bad = 0;
                        for (var attempt : store.attempts(true, false)) {
                            if (!attempt.completed()) continue;
                            Inspect.WorldCheck w;
                            try {
                                w = Inspect.verifyWorld(store, registry, attempt.id());
                            } catch (IllegalArgumentException e) {
                                throw new UsageException(e.getMessage());
                            }
                            if (w.matches()) ok++;
                            else {
                                bad++;
                                out.println("MISMATCH attempt " + attempt.id() + ": recorded " + w.recorded() + ", replayed " + w.replayed());
                            }
                        }
                        out.println(ok + " attempts verified, " + bad + " mismatches");
                        code[0] = bad == 0 ? 0 : 1;
                    });
                    yield code[0];
                }
                withStore(rest, 2, "verify-world DIR [ATTEMPT_ID]", (store, a) -> {
                    Inspect.WorldCheck w;
                    try {
                        w = Inspect.verifyWorld(store, Registry.load(), attemptId(a.get(1)));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                    out.println("recorded final world " + w.recorded());
                    out.println("replayed final world " + w.replayed());
                    out.println(w.matches() ? "verified: the replay reproduces the recorded world" : "MISMATCH: the record does not reproduce its world");
                    code[0] = w.matches() ? 0 : 1;
                });
                yield code[0];
            }
            default -> throw new UsageException("unknown subcommand '" + args.getFirst() + "'");
        };
    }

    private int runExperiment(List<String> args, PrintStream out, PrintStream err) {
        Path dir = null;
        boolean progress = true;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--dir" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--dir needs a directory");
                    dir = Path.of(args.get(++i));
                }
                case "--no-progress" -> progress = false;
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 1) throw new UsageException("run needs exactly one experiment FILE");
        Path file = Path.of(positional.getFirst());
        if (!Files.isRegularFile(file)) throw new UsageException("no experiment file " + file);
        ExperimentSpec spec;
        try {
            spec = ExperimentSpec.read(file);
        } catch (ExperimentSpec.SpecException e) {
            throw new UsageException(e.getMessage());
        }
        if (!progress) spec = spec.withProgress(false);
        if (dir == null) dir = Path.of(".brokkr", "experiments", spec.name());
        Experiments.Result r;
        try {
            r = Experiments.run(spec, dir, Registry.load(), spec.progress() ? new TerminalProgress() : ProgressListener.NONE);
        } catch (ExperimentSpec.SpecException e) {
            throw new UsageException(e.getMessage());
        }
        err.println(r.summary());
        out.println("experiment " + spec.name() + " in " + dir);
        out.print(ExperimentTables.text(r.scorecard()));
        if (r.complete()) return 0;
        err.println("brokkr experiment: " + r.withoutVerdict() + " of " + r.cells() + " cells have no verdict (" + r.exhausted()
                + " out of infrastructure retries" + (r.withoutVerdict() > r.exhausted()
                ? ", " + (r.withoutVerdict() - r.exhausted()) + " retried when the experiment is run again" : "") + ")");
        return EXIT_NO_VERDICT;
    }

    /** {@code experiment run}'s exit code when the run ended with cells that have no verdict. */
    static final int EXIT_NO_VERDICT = 3;

    private static long attemptId(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UsageException("ATTEMPT_ID must be a number, got '" + s + "'");
        }
    }

    private interface StoreWork { void run(ExperimentQuery store, List<String> args) throws Exception; }

    private static int withStore(List<String> args, int arity, String shape, StoreWork work) throws Exception {
        if (args.size() != arity) throw new UsageException("expected: " + shape);
        Path dir = Path.of(args.getFirst());
        if (!Files.isRegularFile(ExperimentStore.file(dir))) throw new UsageException(dir + " holds no experiment (no " + ExperimentStore.FILE + ")");
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            work.run(store, args);
        }
        return 0;
    }
}
