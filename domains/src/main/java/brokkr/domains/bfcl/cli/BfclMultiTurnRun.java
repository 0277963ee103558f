package brokkr.domains.bfcl.cli;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.BfclOverall;
import brokkr.domains.bfcl.memory.MemoryCategory;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The multi-turn and memory parts of {@code ./brokkr bfcl run --categories multi_turn_*,memory_*}: the registry's
 * {@code bfcl-multi-turn} (or {@code bfcl-memory}) benchmark, one cell per task (a stable seeded slice of N tasks per category with
 * {@code --sample N}), and upstream's multi-turn accuracy per category and overall. The candidate is upstream's
 * function-calling loop (action space {@code reference}) or Brokkr's agent loop ({@code harness: loop}, JSON tools or
 * the REPL).
 */
final class BfclMultiTurnRun {
    private BfclMultiTurnRun() {}

    static boolean isMultiTurn(String category) {
        return MultiTurnData.CATEGORIES.contains(category);
    }

    static boolean isMemory(String category) {
        return MemoryCategory.isMemory(category);
    }

    /**
     * How many tasks got no verdict (infrastructure failures) of how many, and each category run with its accuracy
     * over its graded tasks (for upstream's overall, {@link BfclOverall}).
     */
    record Outcome(int tasks, int withoutVerdict, String firstError, Map<String, BfclOverall.Category> categories) {}

    /** The multi-turn part: bfcl-multi-turn, upstream's multi-turn accuracy. */
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
        return run(
                registry,
                "bfcl-multi-turn",
                "multi-turn",
                "multi-turn overall (mean of the four categories): ",
                "not all four were run",
                categories,
                agent,
                sample,
                seed,
                jobs,
                models,
                out);
    }

    /** The memory part: bfcl-memory, upstream's memory accuracy per category and its summary. */
    static Outcome runMemory(
            Registry registry,
            List<String> categories,
            AgentDef agent,
            Integer sample,
            long seed,
            int jobs,
            Function<ModelRef, Candidate> models,
            PrintStream out)
            throws InterruptedException {
        for (String c : categories) {
            try {
                MemoryCategory.of(c);
            } catch (IllegalArgumentException e) {
                throw new Command.UsageException(e.getMessage());
            }
        }
        return run(
                registry,
                "bfcl-memory",
                "memory",
                "memory summary (mean of memory_kv, memory_vector, memory_rec_sum): ",
                "not all three were run",
                categories,
                agent,
                sample,
                seed,
                jobs,
                models,
                out);
    }

    private static Outcome run(
            Registry registry,
            String benchmark,
            String part,
            String summaryLabel,
            String notAll,
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
                    part + " categories take --agent gold or reference (upstream's function-calling loop), "
                            + "loop or repl (Brokkr's agent loop; gold-loop, gold-repl), not " + agent.actionSpace());
        }
        BenchmarkProvider b = registry.benchmark(benchmark);
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
        out.println(part + ": " + envs.size() + " tasks"
                + (sample == null ? "" : " (sample " + sample + " per category, seed " + seed + ")")
                + (infra == 0 ? "" : ", " + infra + " without a verdict (infrastructure)"));
        out.printf("%-26s %6s %6s %9s%n", "category", "tasks", "valid", "accuracy");
        Map<String, BfclOverall.Category> ran = new LinkedHashMap<>();
        for (List<Object> row : r.rows()) {
            if ((Integer) row.get(1) == 0) continue;
            out.printf("%-26s %6d %6d %8.2f%%%n", row.get(0), row.get(1), row.get(2), 100 * (Double) row.get(3));
            ran.put((String) row.get(0), new BfclOverall.Category((Double) row.get(3), (Integer) row.get(1)));
        }
        Double overall = r.figures().getFirst().value();
        out.println(summaryLabel + (overall == null ? "N/A (" + notAll + ")" : String.format("%.2f%%", 100 * overall)));
        return new Outcome(envs.size(), infra, firstError, ran);
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
