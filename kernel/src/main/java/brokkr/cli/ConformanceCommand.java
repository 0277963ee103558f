package brokkr.cli;

import brokkr.command.Command;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import brokkr.family.ConformanceSuite;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./brokkr conformance SUITE [--OPTION VALUE]... --corpus FILE}: replays an oracle corpus recorded from
 * upstream's Python with one of the families' {@link ConformanceSuite}s and compares every call or verdict;
 * exit 0 iff there is no mismatch.
 */
public final class ConformanceCommand implements Command {
    private final Map<String, ConformanceSuite> suites;

    /** The suites of {@code families}, by name; a name two suites take is an IllegalStateException. */
    public ConformanceCommand(Registry registry, List<BenchmarkFamily> families) {
        Map<String, ConformanceSuite> m = new LinkedHashMap<>();
        for (BenchmarkFamily f : families) {
            for (ConformanceSuite s : f.conformance(registry)) {
                if (m.putIfAbsent(s.name(), s) != null)
                    throw new IllegalStateException("two conformance suites named '" + s.name()
                            + "' (the second from family " + f.name() + ")");
            }
        }
        this.suites = m;
    }

    @Override
    public String name() {
        return "conformance";
    }

    @Override
    public String summary() {
        return "replay an upstream oracle corpus and count mismatches";
    }

    @Override
    public String usage() {
        StringBuilder sb = new StringBuilder();
        for (ConformanceSuite s : suites.values()) {
            sb.append(sb.isEmpty() ? "usage: " : "       ")
                    .append("./brokkr conformance ")
                    .append(s.name())
                    .append(' ')
                    .append(s.synopsis())
                    .append('\n');
        }
        for (ConformanceSuite s : suites.values())
            sb.append('\n').append(s.help().strip()).append('\n');
        return sb.append("""

                Exit status: 0 iff K = 0, 1 on mismatches, 2 for a usage error or a corpus that cannot be
                replayed (empty, not UTF-8, a line that is not a JSON object or lacks a field; the message
                names the file and line).""").toString();
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) throw new UsageException("missing benchmark (" + String.join(", ", suites.keySet()) + ")");
        ConformanceSuite suite = suites.get(args.getFirst());
        if (suite == null) throw new UsageException("unknown benchmark '" + args.getFirst() + "'");
        List<String> flags = new ArrayList<>(suite.options());
        flags.add("--corpus");
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            int eq = a.indexOf('=');
            if (flags.contains(a)) {
                if (++i >= args.size()) throw new UsageException(a + " needs a value");
                values.put(a, args.get(i));
            } else if (eq > 0 && flags.contains(a.substring(0, eq))) {
                values.put(a.substring(0, eq), a.substring(eq + 1));
            } else {
                throw new UsageException("unexpected argument '" + a + "'");
            }
        }
        for (String flag : flags) if (!values.containsKey(flag)) throw new UsageException("missing " + flag);
        String corpus = values.remove("--corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new UsageException("no such corpus file: " + corpus);
        return suite.replay(file, Map.copyOf(values), out, err).passed() ? 0 : 1;
    }
}
