package brokkr.domains.bfcl.cli;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.data.UpstreamData;
import brokkr.domains.bfcl.BfclConformance;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.BfclResultsExport;
import brokkr.domains.bfcl.BfclToolSpecs;
import brokkr.domains.bfcl.memory.MemoryConformance;
import brokkr.domains.bfcl.memory.MemoryData;
import brokkr.domains.bfcl.multiturn.MultiTurnConformance;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.MultiTurnVerdicts;
import brokkr.domains.conformance.Corpus;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import brokkr.family.ConformanceSuite;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * BFCL (gorilla's Berkeley Function-Calling Leaderboard) as a family: its pinned upstream data
 * ({@code data fetch gorilla}), the single-turn verdict and multi-turn execution corpora ({@code conformance
 * bfcl}, {@code conformance bfcl-multi-turn}), upstream's result and score files ({@code experiment export
 * --format bfcl}) and {@code ./brokkr bfcl run}.
 */
public final class BfclFamily implements BenchmarkFamily {
    @Override
    public String name() {
        return "bfcl";
    }

    @Override
    public List<UpstreamData> upstreamData(Registry registry) {
        return List.of(BfclData.upstream());
    }

    /** The pinned commit without building the pins (a constant: BfclData's digests are not loaded for {@code --version}). */
    @Override
    public List<String> upstreamRevisions(Registry registry) {
        return List.of("gorilla " + BfclData.UPSTREAM_COMMIT.substring(0, 7));
    }

    @Override
    public List<ConformanceSuite> conformance(Registry registry) {
        return List.of(new Verdicts(), new MultiTurn(), new Memory());
    }

    @Override
    public List<ResultFormat> resultFormats(Registry registry) {
        return List.of(new Results());
    }

    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new BfclCommand(context));
    }

    /** {@code conformance bfcl --corpus FILE}: upstream's checker verdicts, line by line. */
    private record Verdicts() implements ConformanceSuite {
        @Override
        public String name() {
            return "bfcl";
        }

        @Override
        public String synopsis() {
            return "--corpus FILE";
        }

        @Override
        public String help() {
            return """
                    bfcl: grades every line of a verdict corpus (verdicts-*.jsonl, the format of
                    ../shared/conformance/bfcl/README.md) and compares valid, error_type and the error list with
                    upstream's; first the tool specs against the corpus's tools.jsonl[.gz] beside it (a line "N tool specs
                    checked against tools.jsonl.gz, K mismatches"). Prints the first mismatches, then a line
                    "N checked, K mismatches" (exit 1 on any mismatch, specs included). The data
                    directory is -Dbrokkr.bfcl.data / BROKKR_BFCL_DATA, else ../shared/upstream/gorilla/...""";
        }

        @Override
        public Replay replay(Path corpus, Map<String, String> options, PrintStream out, PrintStream err) {
            BfclConformance.Report r;
            BfclToolSpecs.Report specs = new BfclToolSpecs.Report(0, 0);
            try {
                BfclData data = BfclData.load();
                List<BfclConformance.Line> lines = BfclConformance.read(corpus);
                // The corpus's tools file (tools.jsonl[.gz] beside it): the specs its candidates were made for.
                Path tools = BfclToolSpecs.besides(corpus);
                if (tools != null) specs = BfclToolSpecs.check(data, tools, out, 5);
                else err.println("no tools.jsonl[.gz] beside " + corpus + ": tool specs not checked");
                r = BfclConformance.run(data, lines, out, 20);
            } catch (Corpus.CorpusException e) {
                throw new Command.InputException(e.getMessage());
            }
            err.println("graded in " + r.gradeNanos() / 1_000_000 + " ms");
            return new Replay(r.mismatches() + specs.mismatches(), 0);
        }
    }

    /** {@code conformance bfcl-multi-turn --corpus FILE}: a multi-turn execution (or verdict) corpus, each record from a pristine process. */
    private record MultiTurn() implements ConformanceSuite {
        @Override
        public String name() {
            return "bfcl-multi-turn";
        }

        @Override
        public String synopsis() {
            return "--corpus FILE";
        }

        @Override
        public String help() {
            return """
                    bfcl-multi-turn: replays a BFCL v4 multi-turn execution corpus (gold-exec, fuzz-seed*; the
                    format of ../shared/conformance/bfcl/multi_turn/README.md; .jsonl or .jsonl.gz), each record
                    from a pristine process, comparing every call result and per-turn state hash. Prints the
                    first difference of each mismatching record, then "N records, M calls, K mismatches".""";
        }

        @Override
        public Replay replay(Path corpus, Map<String, String> options, PrintStream out, PrintStream err) {
            MultiTurnConformance.Report r;
            try {
                r = MultiTurnVerdicts.isVerdictCorpus(corpus)
                        ? MultiTurnVerdicts.run(MultiTurnData.load(), corpus, out)
                        : MultiTurnConformance.run(MultiTurnData.load(), corpus, out);
            } catch (Corpus.CorpusException e) {
                throw new Command.InputException(e.getMessage());
            }
            err.println("replayed in " + r.nanos() / 1_000_000 + " ms");
            return new Replay(r.mismatches(), r.skipped());
        }
    }

    /** {@code conformance bfcl-memory --corpus FILE}: the memory backends' executions, each record from an empty result directory. */
    private record Memory() implements ConformanceSuite {
        @Override
        public String name() {
            return "bfcl-memory";
        }

        @Override
        public String synopsis() {
            return "--corpus FILE";
        }

        @Override
        public String help() {
            return """
                    bfcl-memory: replays a BFCL v4 memory-backend execution corpus (exec-seed*; the format of
                    ../shared/conformance/bfcl/memory/README.md; .jsonl or .jsonl.gz): each record's prerequisite
                    entries call by call from an empty result directory, comparing every result and state hash,
                    the context dumps, snapshot files and what the questions see. Prints the first difference
                    of each mismatching record, then "N records, M calls, K mismatches".""";
        }

        @Override
        public Replay replay(Path corpus, Map<String, String> options, PrintStream out, PrintStream err) {
            MemoryConformance.Report r;
            try {
                r = MemoryConformance.run(MemoryData.load(), corpus, out);
            } catch (Corpus.CorpusException e) {
                throw new Command.InputException(e.getMessage());
            }
            err.println("replayed in " + r.nanos() / 1_000_000 + " ms");
            return new Replay(r.mismatches(), 0);
        }
    }

    /** Upstream's {@code result/} files per candidate and {@code score/} CSVs: a directory tree. */
    private record Results() implements ResultFormat {
        @Override
        public String name() {
            return "bfcl";
        }

        @Override
        public String exportHelp() {
            return """
                    bfcl: upstream's result/MODEL/GROUP/BFCL_v4_CATEGORY_result.json files per candidate
                    and score/data_overall.csv, data_non_live.csv, data_live.csv with upstream's columns,
                    under --out DIR (required)""";
        }

        @Override
        public String directoryTree() {
            return "a directory tree (result/, score/)";
        }

        @Override
        public Exported export(List<ResultCell> cells, Registry registry) {
            BfclResultsExport.Export e = BfclResultsExport.export(cells, registry);
            if (e.candidates().isEmpty()) return new Exported(List.of(), null);
            List<ExportedFile> files = new ArrayList<>();
            e.files()
                    .forEach((path, text) -> files.add(
                            new ExportedFile(path, text, null, e.warnings().getOrDefault(path, List.of()))));
            return new Exported(
                    files,
                    "wrote " + (e.files().size() - 3) + " result files of "
                            + e.candidates().size()
                            + " candidate(s) and score/data_overall.csv, data_non_live.csv, data_live.csv");
        }
    }
}
