package brokkr.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the CLI's AOT cache ({@code ./brokkr} makes {@code kernel/target/brokkr-commands.aot} with it once
 * per build, JDK 25 JEP 514/515): {@code help} and {@code --version} (every family and command constructed, what
 * every command does first), then what a researcher runs most, {@code experiment run} of a small tau2 retail
 * experiment (scripted gold and stop-at-once) and {@code experiment show} of its store, so the cache holds the
 * store's driver, the scorecard, the statistics and the tau2 report classes loaded and linked, with their profiles.
 * Trained on {@code help} alone, {@code experiment show} loaded about 950 classes from the jars at every start (the
 * SQLite driver, the scorecard's statistics, the report): ./brokkr bench startup's {@code experiment show} row.
 * Output goes nowhere; a step that fails (no tau2 data on this machine: then the synthetic loop domain) leaves
 * the cache with less in it, never broken.
 */
public final class CliAotTraining {
    private CliAotTraining() {}

    public static void main(String[] args) throws IOException {
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        Main.run(List.of("help"), none, none);
        Main.run(List.of("--version"), none, none);
        Path tmp = Files.createTempDirectory("brokkr-aot-training");
        try {
            if (!showExperiment(tmp, "tau2-retail", "test", none)) showExperiment(tmp, "loop", "smoke", System.err);
        } finally {
            try (Stream<Path> walk = Files.walk(tmp)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0); // the runner's pools are not waited for
    }

    /** Runs a two-candidate experiment on {@code domain} and shows its store; false when a step failed. */
    private static boolean showExperiment(Path tmp, String domain, String split, PrintStream err) throws IOException {
        Path file = tmp.resolve(domain + ".yaml");
        Path dir = tmp.resolve(domain);
        String candidates = domain.startsWith("tau2-")
                ? "  - {id: gold, provider: scripted, model: gold}\n"
                        + "  - {id: stop-at-once, provider: scripted, model: stop}\n"
                : "  - {id: ideal, provider: scripted, model: ideal}\n"
                        + "  - {id: early-stop, provider: scripted, model: early-stop}\n";
        Files.writeString(
                file,
                "name: aot-training\ndomain: " + domain + "\nsplit: " + split + "\ncandidates:\n" + candidates
                        + "repetitions: 1\nparallelism: 2\n");
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        int run = Main.run(
                List.of("experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress"), none, err);
        if (run != 0) {
            err.println("AOT training: experiment run on " + domain + " exited " + run);
            return false;
        }
        int show = Main.run(List.of("experiment", "show", dir.toString()), none, err);
        if (show != 0) err.println("AOT training: experiment show on " + domain + " exited " + show);
        return show == 0;
    }
}
