package brokkr.cli;

import brokkr.command.Command;
import brokkr.domains.bfcl.BfclConformance;
import brokkr.domains.conformance.Corpus;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.MultiTurnConformance;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.MultiTurnVerdicts;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ./brokkr conformance tau2 --domain D --corpus FILE} and {@code ./brokkr conformance bfcl
 * --corpus FILE}: replays an oracle corpus recorded from upstream's Python and compares every call or
 * verdict; exit 0 iff there is no mismatch.
 */
public record ConformanceCommand() implements Command {
    @Override public String name() { return "conformance"; }

    @Override public String summary() { return "replay an upstream oracle corpus and count mismatches"; }

    @Override public String usage() {
        return """
               usage: ./brokkr conformance tau2 --domain DOMAIN --corpus FILE
                      ./brokkr conformance bfcl --corpus FILE
                      ./brokkr conformance bfcl-multi-turn --corpus FILE

               Replays every sequence of a tau2 conformance corpus (gold.jsonl, fuzz-seed*.jsonl; the format
               of ../shared/conformance/tau2/README.md) from its initial world and compares each call's
               content, error flag and DB hashes with upstream's. Prints the first difference of each
               mismatching sequence, then a line "N sequences, M calls, K mismatches".
               Domains: %s.

               bfcl: grades every line of a verdict corpus (verdicts-*.jsonl, the format of
               ../shared/conformance/bfcl/README.md) and compares valid, error_type and the error list with
               upstream's. Prints the first mismatches, then a line "N checked, K mismatches". The data
               directory is -Dbrokkr.bfcl.data / BROKKR_BFCL_DATA, else ../shared/upstream/gorilla/...

               bfcl-multi-turn: replays a BFCL v4 multi-turn execution corpus (gold-exec, fuzz-seed*; the
               format of ../shared/conformance/bfcl/multi_turn/README.md; .jsonl or .jsonl.gz), each record
               from a pristine process, comparing every call result and per-turn state hash. Prints the
               first difference of each mismatching record, then "N records, M calls, K mismatches".

               Exit status: 0 iff K = 0, 1 on mismatches, 2 for a usage error or a corpus that cannot be
               replayed (empty, not UTF-8, a line that is not a JSON object or lacks a field; the message
               names the file and line)."""
                .formatted(String.join(", ", Tau2Domains.names()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) throw new UsageException("missing benchmark (tau2, bfcl, bfcl-multi-turn)");
        try {
            if (args.get(0).equals("bfcl")) return bfcl(args, out, err);
            if (args.get(0).equals("bfcl-multi-turn")) return bfclMultiTurn(args, out, err);
            if (args.get(0).equals("tau2")) return tau2(args, out, err);
        } catch (Corpus.CorpusException e) {
            // A corpus that proves nothing is never a pass; the message names the file and line.
            err.println("brokkr conformance: " + e.getMessage());
            return 2;
        }
        throw new UsageException("unknown benchmark '" + args.get(0) + "'");
    }

    private static int tau2(List<String> args, PrintStream out, PrintStream err) {
        String domain = null, corpus = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--domain" -> domain = value(args, ++i, a);
                case "--corpus" -> corpus = value(args, ++i, a);
                default -> {
                    if (a.startsWith("--domain=")) domain = a.substring(9);
                    else if (a.startsWith("--corpus=")) corpus = a.substring(9);
                    else throw new UsageException("unexpected argument '" + a + "'");
                }
            }
        }
        if (domain == null) throw new UsageException("missing --domain");
        if (corpus == null) throw new UsageException("missing --corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new UsageException("no such corpus file: " + corpus);
        Tau2Conformance.EnvironmentFactory factory = Tau2Domains.factory(domain);
        if (factory == null) throw new UsageException("unknown tau2 domain '" + domain + "' (known: "
                + String.join(", ", Tau2Domains.names()) + ")");
        Tau2Conformance.Report r = Tau2Conformance.run(factory, file, out);
        err.println("replayed in " + r.millis() + " ms (" + r.mismatchedSequences() + " sequences differ)");
        return r.mismatches() == 0 ? 0 : 1;
    }

    private static int bfcl(List<String> args, PrintStream out, PrintStream err) {
        String corpus = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--corpus")) corpus = value(args, ++i, a);
            else if (a.startsWith("--corpus=")) corpus = a.substring(9);
            else throw new UsageException("unexpected argument '" + a + "'");
        }
        if (corpus == null) throw new UsageException("missing --corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new UsageException("no such corpus file: " + corpus);
        List<BfclConformance.Line> lines = BfclConformance.read(file);
        BfclConformance.Report r = BfclConformance.run(BfclData.load(), lines, out, 20);
        err.println("graded in " + r.gradeNanos() / 1_000_000 + " ms");
        return r.mismatches() == 0 ? 0 : 1;
    }

    private static int bfclMultiTurn(List<String> args, PrintStream out, PrintStream err) {
        String corpus = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--corpus")) corpus = value(args, ++i, a);
            else if (a.startsWith("--corpus=")) corpus = a.substring(9);
            else throw new UsageException("unexpected argument '" + a + "'");
        }
        if (corpus == null) throw new UsageException("missing --corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new UsageException("no such corpus file: " + corpus);
        MultiTurnConformance.Report r = MultiTurnVerdicts.isVerdictCorpus(file) ? MultiTurnVerdicts.run(MultiTurnData.load(), file, out)
                : MultiTurnConformance.run(MultiTurnData.load(), file, out);
        err.println("replayed in " + r.nanos() / 1_000_000 + " ms");
        return r.mismatches() == 0 && r.skipped() == 0 ? 0 : 1;
    }

    private static String value(List<String> args, int i, String flag) {
        if (i >= args.size()) throw new UsageException(flag + " needs a value");
        return args.get(i);
    }
}
