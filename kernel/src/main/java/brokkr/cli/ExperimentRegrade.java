package brokkr.cli;

import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.experiment.Regrade;
import brokkr.experiment.StoreLocation;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code ./brokkr experiment regrade DIR --judge PROVIDER:MODEL [--parallelism N] [--cache]}: judges the
 * model-judged checks of every completed attempt in DIR again from its record ({@link Regrade}),
 * stores the new verdicts beside the recorded ones and prints how far they agree. Exit 0 when every
 * attempt with judged checks got a new verdict, 3 when the judge gave some none (they are listed).
 */
final class ExperimentRegrade {
    static final String SYNOPSIS = "regrade DIR --judge PROVIDER:MODEL [--parallelism N] [--cache]";

    private final Supplier<Registry> registry;

    ExperimentRegrade(Supplier<Registry> registry) {
        this.registry = registry;
    }

    int run(List<String> args, PrintStream out, PrintStream err) {
        String judge = null;
        int parallelism = Regrade.DEFAULT_PARALLELISM;
        boolean cached = false;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--judge" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--judge needs PROVIDER:MODEL");
                    judge = args.get(++i);
                }
                case "--cache" -> cached = true;
                case "--parallelism" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--parallelism needs a number");
                    parallelism = count(args.get(++i));
                }
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 1) throw new UsageException("expected: " + SYNOPSIS);
        if (judge == null) throw new UsageException("--judge PROVIDER:MODEL is required (e.g. --judge openai:gpt-4.1)");
        ModelRef judgeRef;
        try {
            judgeRef = Planner.providerModel("--judge", judge);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        StoreLocation dir = ExperimentCommand.storeArg(positional.getFirst());
        Regrade.Result r;
        try {
            r = Regrade.run(dir, judgeRef.provider(), judgeRef.model(), registry.get(), parallelism, cached);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage()); // an unknown provider, a key that is not set
        }
        out.print(r.text());
        if (r.complete()) return 0;
        err.println(
                "brokkr experiment regrade: " + r.failures().size() + " attempts got no new verdict from the judge");
        return ExperimentCommand.EXIT_NO_VERDICT;
    }

    private static int count(String s) {
        try {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= 10_000) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        throw new UsageException("--parallelism must be a whole number from 1 to 10000, got '" + s + "'");
    }
}
