package brokkr.domains.tau2.cli;

import brokkr.command.Cells;
import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.conversation.Candidate;
import brokkr.domains.tau2.conformance.Tau2Regrade;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Evaluate;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code ./brokkr tau2 evaluate FILE [--judge-model M [--provider P]]}: upstream's {@code tau2 evaluate-trajs}
 * with Brokkr's grader. Prints the first difference of every simulation whose re-grade differs from the
 * recorded reward info (or judge request), then {@code N simulations, K mismatches}; exit 0 iff K = 0, 1
 * otherwise, 2 for a usage error or a file that cannot be read or is not an upstream file.
 */
final class Tau2Evaluation {
    private Tau2Evaluation() {}

    static final String USAGE = """
            usage: ./brokkr tau2 evaluate FILE [--judge-model M [--provider P]]

              FILE            an upstream results file (results.json as upstream's runner writes it) or a graded
                              trajectory corpus (one graded episode per line, .jsonl or .jsonl.gz)
              --judge-model   judge the NL assertions with this model and upstream's prompt; default: the verdicts
                              the file records (graded corpora: the judge's recorded answers, whose requests are
                              compared byte for byte with the ones Brokkr builds)
              --provider      the judge model's provider (default openai; keys from the environment)
            """;

    static int run(List<String> args, Registry registry, Map<String, String> env, PrintStream out, PrintStream err) {
        Path file = null;
        String judgeModel = null, provider = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--judge-model", "--provider" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    if (a.equals("--judge-model")) judgeModel = args.get(++i);
                    else provider = args.get(++i);
                }
                default -> {
                    if (a.startsWith("--")) throw new UsageException("unknown argument '" + a + "'");
                    if (file != null) throw new UsageException("one FILE, not '" + file + "' and '" + a + "'");
                    file = Path.of(a);
                }
            }
        }
        if (file == null) throw new UsageException("tau2 evaluate needs a FILE");
        if (provider != null && judgeModel == null)
            throw new UsageException("--provider is the judge model's provider; give --judge-model");
        if (!Files.isRegularFile(file)) throw new InputException("cannot read " + file + ": no such file");
        Candidate judge = null;
        String judgeName = null;
        if (judgeModel != null) {
            ModelRef ref = Tau2Benchmark.upstreamModel(provider == null ? "openai" : provider, judgeModel, "judge");
            try {
                judge = Cells.providers(registry, env).apply(ref);
            } catch (IllegalArgumentException e) {
                throw new InputException(e.getMessage());
            }
            judgeName = ref.toString();
        }
        Tau2Regrade.Report report;
        try {
            report = Tau2Evaluate.evaluate(file, judge, judgeName, out);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        } catch (UncheckedIOException e) {
            throw new InputException(e.getMessage());
        }
        out.println(report.summaryLine());
        return report.mismatches() == 0 ? 0 : 1;
    }
}
