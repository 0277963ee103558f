package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import java.util.List;

/**
 * The arguments the synthetic benchmark commands share: one optional positive size, and the flags
 * {@code --model M}, {@code --provider P} (with a model only; default {@code openai}) and
 * {@code --candidate NAME} (scripted; not with a model). Both {@code --flag value} and
 * {@code --flag=value} are accepted. Anything else is a {@link Command.UsageException}.
 */
record BenchmarkArgs(int size, String model, String provider, String candidate) {
    static final String DEFAULT_PROVIDER = "openai";

    static BenchmarkArgs parse(
            List<String> args, String sizeName, int defaultSize, String defaultCandidate, List<String> candidates) {
        Integer size = null;
        String model = null, provider = null, candidate = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                int eq = a.indexOf('=');
                String flag = eq < 0 ? a : a.substring(0, eq);
                if (!List.of("--model", "--provider", "--candidate").contains(flag)) {
                    throw new Command.UsageException("unknown option '" + flag + "'");
                }
                String value;
                if (eq >= 0) {
                    value = a.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new Command.UsageException(flag + " needs a value");
                }
                if (value.isBlank()) throw new Command.UsageException(flag + " needs a value");
                switch (flag) {
                    case "--model" -> model = once(flag, model, value);
                    case "--provider" -> provider = once(flag, provider, value);
                    default -> candidate = once(flag, candidate, value);
                }
            } else {
                if (size != null) throw new Command.UsageException("unexpected argument '" + a + "'");
                try {
                    size = Integer.parseInt(a);
                } catch (NumberFormatException e) {
                    throw new Command.UsageException(sizeName + " must be an integer, got '" + a + "'");
                }
                if (size < 1) throw new Command.UsageException(sizeName + " must be at least 1, got " + size);
            }
        }
        if (provider != null && model == null) throw new Command.UsageException("--provider needs --model");
        if (candidate != null && model != null)
            throw new Command.UsageException("--candidate and --model exclude each other");
        if (candidate != null && !candidates.contains(candidate)) {
            throw new Command.UsageException(
                    "unknown candidate '" + candidate + "' (one of " + String.join(", ", candidates) + ")");
        }
        return new BenchmarkArgs(
                size == null ? defaultSize : size,
                model,
                model == null ? null : provider == null ? DEFAULT_PROVIDER : provider,
                model == null && candidate == null ? defaultCandidate : candidate);
    }

    private static String once(String flag, String previous, String value) {
        if (previous != null) throw new Command.UsageException(flag + " given twice");
        return value;
    }
}
