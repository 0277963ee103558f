package brokkr.domains.tau2.cli;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.data.UpstreamData;
import brokkr.domains.conformance.Corpus;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.runner.Tau2ResultsExport;
import brokkr.domains.tau2.runner.Tau2ResultsImport;
import brokkr.domains.tau2.runner.Tau2Submission;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import brokkr.family.ConformanceSuite;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * tau2-bench as a family: its pinned upstream data ({@code data fetch tau2-bench}), conformance replay of
 * every registered tau2 domain ({@code conformance tau2 --domain D}), upstream's results files
 * ({@code experiment export|import --format tau2}) and {@code ./brokkr tau2 run|evaluate}.
 */
public final class Tau2Family implements BenchmarkFamily {
    @Override
    public String name() {
        return "tau2";
    }

    @Override
    public List<UpstreamData> upstreamData(Registry registry) {
        return List.of(Tau2Domains.upstream(registry));
    }

    /** The pinned commit without listing the domains' pins: {@code --version} stays as cheap as printing a constant. */
    @Override
    public List<String> upstreamRevisions(Registry registry) {
        return List.of("tau2-bench " + Tau2Domains.UPSTREAM_REVISION.substring(0, 7));
    }

    @Override
    public String dataNotes() {
        return """
                tau2-bench's airline db.json is a reconstruction (upstream's file at the pinned commit was not
                available when the domain was transcribed), so a copy fetched from upstream differs from its pin, as
                expected, and the airline domain refuses it (retail and the user simulator's files verify).""";
    }

    @Override
    public List<ConformanceSuite> conformance(Registry registry) {
        return List.of(new Replay(registry));
    }

    @Override
    public List<ResultFormat> resultFormats(Registry registry) {
        return List.of(new Results(), new Submission());
    }

    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new Tau2Command(context));
    }

    /** {@code conformance tau2 --domain D --corpus FILE}: a tau2 corpus replayed call by call against one domain's environment. */
    private record Replay(Registry registry) implements ConformanceSuite {
        @Override
        public String name() {
            return "tau2";
        }

        @Override
        public List<String> options() {
            return List.of("--domain");
        }

        @Override
        public String synopsis() {
            return "--domain DOMAIN --corpus FILE";
        }

        @Override
        public String help() {
            return """
                    Replays every sequence of a tau2 conformance corpus (gold.jsonl, fuzz-seed*.jsonl; the format
                    of ../shared/conformance/tau2/README.md) from its initial world and compares each call's
                    content, error flag and DB hashes with upstream's. Prints the first difference of each
                    mismatching sequence, then a line "N sequences, M calls, K mismatches".
                    Domains: %s.""".formatted(String.join(", ", Tau2Domains.names(registry)));
        }

        @Override
        public ConformanceSuite.Replay replay(
                Path corpus, Map<String, String> options, PrintStream out, PrintStream err) {
            String domain = options.get("--domain");
            Tau2Conformance.EnvironmentFactory factory = Tau2Domains.factory(registry, domain);
            if (factory == null)
                throw new Command.UsageException("unknown tau2 domain '" + domain + "' (known: "
                        + String.join(", ", Tau2Domains.names(registry)) + ")");
            Tau2Conformance.Report r;
            try {
                r = Tau2Conformance.run(factory, corpus, out);
            } catch (Corpus.CorpusException e) {
                throw new Command.InputException(e.getMessage()); // a corpus that proves nothing is never a pass
            }
            err.println("replayed in " + r.millis() + " ms (" + r.mismatchedSequences() + " sequences differ)");
            return new ConformanceSuite.Replay(r.mismatches(), 0);
        }
    }

    /**
     * {@code --format tau2-submission}: a submission to upstream's leaderboard, {@code submission.json} with the
     * trajectory files beside it ({@link Tau2Submission}); the names the experiment does not know are options.
     */
    private record Submission() implements ResultFormat {
        static final ExportOption CANDIDATE =
                new ExportOption("--candidate", "ID", false, "the candidate submitted (default: the only one)");
        static final ExportOption MODEL_NAME = new ExportOption(
                "--model-name",
                "NAME",
                false,
                "the model's name (default: the agent's model as the trajectories name it)");
        static final ExportOption MODEL_ORGANIZATION =
                new ExportOption("--model-organization", "ORG", true, "who developed the model");
        static final ExportOption SUBMITTING_ORGANIZATION = new ExportOption(
                "--submitting-organization",
                "ORG",
                false,
                "who ran the evaluation (default: the model's organization)");
        static final ExportOption CONTACT_EMAIL =
                new ExportOption("--contact-email", "EMAIL", true, "contact for questions about the submission");
        static final ExportOption CONTACT_NAME =
                new ExportOption("--contact-name", "NAME", false, "the submitter's name");
        static final ExportOption CONTACT_GITHUB =
                new ExportOption("--contact-github", "USER", false, "the submitter's GitHub user name");
        static final ExportOption SUBMISSION_DATE = new ExportOption(
                "--submission-date", "YYYY-MM-DD", false, "the submission's date (default: today, UTC)");

        /** submission.json as upstream writes it: model_dump_json(indent=2, ensure_ascii=False) and a newline. */
        private static final PyJson.DumpOptions SUBMISSION_JSON =
                PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false);

        @Override
        public String name() {
            return "tau2-submission";
        }

        @Override
        public String exportHelp() {
            return """
                    tau2-submission: one candidate's tau2 results as a submission to upstream's leaderboard
                    (taubench.com): DIR/submission.json (upstream's schema; pass^1..4 in percent, cost per
                    trajectory when every model is priced) and DIR/trajectories/DOMAIN_results.json (the tau2
                    format); refused, with the reason, for what the leaderboard refuses: fewer than 4 trials, not
                    every task of the base split, unfinished cells, cell-budget stops, or different user simulators
                    across domains. A harness other than reference makes it a custom submission.""";
        }

        @Override
        public String directoryTree() {
            return "submission.json and trajectories/";
        }

        @Override
        public List<ExportOption> exportOptions() {
            return List.of(
                    CANDIDATE,
                    MODEL_NAME,
                    MODEL_ORGANIZATION,
                    SUBMITTING_ORGANIZATION,
                    CONTACT_EMAIL,
                    CONTACT_NAME,
                    CONTACT_GITHUB,
                    SUBMISSION_DATE);
        }

        @Override
        public Exported export(List<ResultCell> cells, ExportContext context) {
            Map<String, String> o = context.options();
            for (var e : o.entrySet())
                if (e.getValue().isBlank()) throw new Command.UsageException(e.getKey() + " needs a value, not ''");
            LocalDate date;
            String d = o.get(SUBMISSION_DATE.name());
            try {
                date = d == null ? LocalDate.now(ZoneOffset.UTC) : LocalDate.parse(d);
            } catch (DateTimeParseException e) {
                throw new Command.UsageException("--submission-date must be a date YYYY-MM-DD, not '" + d + "'");
            }
            Tau2Submission.Submission s = Tau2Submission.build(
                    cells,
                    context.registry(),
                    context.prices(),
                    new Tau2Submission.Metadata(
                            o.get(CANDIDATE.name()),
                            o.get(MODEL_NAME.name()),
                            o.get(MODEL_ORGANIZATION.name()),
                            o.get(SUBMITTING_ORGANIZATION.name()),
                            o.get(CONTACT_EMAIL.name()),
                            o.get(CONTACT_NAME.name()),
                            o.get(CONTACT_GITHUB.name()),
                            date));
            List<ExportedFile> files = new java.util.ArrayList<>();
            files.add(new ExportedFile(
                    "submission.json", PyJson.dumps(s.submission(), SUBMISSION_JSON) + "\n", null, s.warnings()));
            for (Tau2Submission.Trajectory t : s.trajectories())
                files.add(
                        new ExportedFile(t.path(), PyJson.dumps(t.results(), Results.UPSTREAM), t.domain(), List.of()));
            PyDict sub = s.submission();
            return new Exported(
                    files,
                    "wrote a " + sub.get("submission_type").asStr() + " leaderboard submission of "
                            + sub.get("model_name").asStr() + " ("
                            + String.join(", ", sub.get("results").asDict().keys())
                            + "; " + s.trajectories().size() + " trajectory files)");
        }
    }

    /** Upstream's {@code Results} JSON ({@code results.json}), one file per tau2 domain and candidate; and such a file as an experiment. */
    private record Results() implements ResultFormat {
        /** Upstream's runner writes results.json with json.dump(indent=2): ASCII, 2-space indent. */
        private static final PyJson.DumpOptions UPSTREAM = PyJson.DumpOptions.DEFAULT.withIndent(2);

        @Override
        public String name() {
            return "tau2";
        }

        @Override
        public String exportHelp() {
            return """
                    tau2: per tau2 domain and candidate, upstream's Results JSON as its runner writes
                    results.json (upstream's viewer and metrics read it); one file goes to --out FILE (or
                    to stdout), several into the directory --out DIR as BENCHMARK.CANDIDATE.json.""";
        }

        @Override
        public Exported export(List<ResultCell> cells, ExportContext context) {
            List<ExportedFile> files = Tau2ResultsExport.export(cells, context.registry(), context.prices()).stream()
                    .map(e -> new ExportedFile(
                            e.fileName(),
                            PyJson.dumps(e.results(), UPSTREAM),
                            e.benchmark() + ", " + e.candidate(),
                            e.warnings()))
                    .toList();
            return new Exported(files, null);
        }

        @Override
        public String importHelp() {
            return """
                    an upstream tau2 results file or graded corpus (.json, .jsonl, .jsonl.gz) as a new
                    experiment store in DIR: scorecards, pass^k, transcripts and report of upstream's runs""";
        }

        @Override
        public Imported importFile(Path file, Registry registry) {
            return Tau2ResultsImport.read(file, registry);
        }
    }
}
