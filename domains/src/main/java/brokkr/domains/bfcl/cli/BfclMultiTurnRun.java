package brokkr.domains.bfcl.cli;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.eval.Report;
import brokkr.experiment.Registry;
import brokkr.repl.Harness;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The multi-turn part of {@code ./brokkr bfcl run --categories multi_turn_*}: the registry's
 * {@code bfcl-multi-turn} benchmark, one cell per task (a stable seeded slice of N tasks per category with
 * {@code --sample N}), and upstream's multi-turn accuracy per category and overall. The candidate is upstream's
 * function-calling loop (action space {@code reference}) or Brokkr's agent loop ({@code harness: loop}, JSON tools or
 * the REPL).
 */
final class BfclMultiTurnRun {
    private BfclMultiTurnRun() {}

    static boolean isMultiTurn(String category) {
        return MultiTurnData.CATEGORIES.contains(category);
    }

    /** Runs and prints; returns how many tasks got no verdict (infrastructure failures) of how many. */
    record Outcome(int tasks, int withoutVerdict, String firstError) {}

    static Outcome run(
            Registry registry,
            List<String> categories,
            AgentDef agent,
            Integer sample,
            long seed,
            int jobs,
            Function<ModelRef, Candidate> models,
            PrintStream out)
            throws InterruptedException {
        if (!agent.actionSpace().equals("reference")
                && !Harness.fromValue(agent.harness()).loop()) {
            throw new Command.UsageException(
                    "multi-turn categories take --agent gold or reference (upstream's function-calling loop), "
                            + "loop or repl (Brokkr's agent loop; gold-loop, gold-repl), not " + agent.actionSpace());
        }
        BenchmarkProvider b = registry.benchmark("bfcl-multi-turn");
        List<EnvironmentDef> envs = new ArrayList<>();
        for (String c : categories) {
            List<String> ids = new ArrayList<>(b.tasks(c));
            if (sample != null) {
                ids.sort(Comparator.comparing((String id) -> sha256(seed + "/" + id)));
                ids = new ArrayList<>(ids.subList(0, Math.min(sample, ids.size())));
            }
            for (String id : ids) envs.add(b.environment(id, Map.of()));
        }
        List<Evaluation.Cell> cells = envs.stream()
                .map(e -> new Evaluation.Cell(b, e, agent, null, 0))
                .toList();
        List<Attempt> attempts = new ArrayList<>();
        Cells.run(cells, models, jobs, attempts::add);
        List<Report.Outcome> outcomes = new ArrayList<>();
        int infra = 0;
        String firstError = null;
        for (int i = 0; i < envs.size(); i++) {
            outcomes.add(new Report.Outcome(envs.get(i), attempts.get(i)));
            if (!attempts.get(i).completed()) {
                infra++;
                if (firstError == null) firstError = attempts.get(i).error();
            }
        }
        Report r = b.reports(outcomes).getFirst();
        out.println("multi-turn: " + envs.size() + " tasks"
                + (sample == null ? "" : " (sample " + sample + " per category, seed " + seed + ")")
                + (infra == 0 ? "" : ", " + infra + " without a verdict (infrastructure)"));
        out.printf("%-26s %6s %6s %9s%n", "category", "tasks", "valid", "accuracy");
        for (List<Object> row : r.rows()) {
            if ((Integer) row.get(1) == 0) continue;
            out.printf("%-26s %6d %6d %8.2f%%%n", row.get(0), row.get(1), row.get(2), 100 * (Double) row.get(3));
        }
        Double overall = r.figures().getFirst().value();
        out.println("multi-turn overall (mean of the four categories): "
                + (overall == null ? "N/A (not all four were run)" : String.format("%.2f%%", 100 * overall)));
        return new Outcome(envs.size(), infra, firstError);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
