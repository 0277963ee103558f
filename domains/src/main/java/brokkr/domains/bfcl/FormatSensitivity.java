package brokkr.domains.bfcl;

import brokkr.eval.Report;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BFCL v4's {@code format_sensitivity} category (bfcl_eval/utils.py {@code load_format_sensitivity_test_cases},
 * eval_runner.py {@code format_sensitivity_runner}): the 200 single-turn Python entries named by
 * {@code BFCL_v4_format_sensitivity.json}, each under every one of the 26 prompt configurations
 * ({@link PromptFormat#all()}), 5,200 entries for prompting-mode models only (upstream skips them for
 * function-calling models). An entry's system prompt is its configuration's ({@link PromptFormat#systemPrompt}),
 * its answer text is decoded with that configuration's return format and tool-call tag, and graded by the AST
 * checker in Python with the entry's own category's rules; the score is reported per configuration with
 * upstream's spread figures, and is not part of the overall score ({@code NON_SCORING_CATEGORY}).
 *
 * <p>Upstream's quirks kept: entries come in the id file's category order, each category's in its data file's
 * order (not the id file's); index {@code i} counts entries × configurations; the function docs carry the
 * Python hint twice (the id file's entries are loaded with the hint by {@code load_dataset_entry(category)},
 * then {@code load_dataset_entry("format_sensitivity")} adds it again).
 */
public final class FormatSensitivity {
    public static final String CATEGORY = "format_sensitivity";
    static final String ID_FILE = "BFCL_v4_format_sensitivity.json";
    static final String ID_FILE_SHA256 = "1e7ebd0ec441198d3f7d3b60be73d0c9eba54094d2c3731b830f5da7a2c63c19";

    /** One entry: Brokkr's task id {@code format_sensitivity_<i>}, upstream's id, its configuration and base task. */
    public record Entry(int index, PromptFormat config, BfclTask task) {
        public String id() {
            return CATEGORY + "_" + index;
        }

        /** Upstream's id: {@code format_sensitivity_<i>:<config>:<entry id>}. */
        public String upstreamId() {
            return id() + ":" + config.id() + ":" + task.id();
        }

        /** The docs the model is given: the Python hint twice. */
        public PyList modelFunctions() {
            return ToolCompiler.modelFunctions(ToolCompiler.modelFunctions(task.functions()));
        }

        public String systemPrompt() {
            return config.systemPrompt(modelFunctions());
        }
    }

    private FormatSensitivity() {}

    /** The entries of the pinned id file over {@code data}. */
    public static List<Entry> entries(BfclData data) {
        Value ids = readIdFile(data.dir());
        List<BfclTask> base = new ArrayList<>();
        for (Map.Entry<String, Value> e : ids.asDict().entries()) {
            Set<String> wanted = new LinkedHashSet<>();
            for (Value v : e.getValue().asList()) wanted.add(v.asStr());
            if (wanted.isEmpty()) continue;
            for (BfclTask t : data.tasks(BfclCategory.of(e.getKey()))) if (wanted.contains(t.id())) base.add(t);
        }
        List<Entry> out = new ArrayList<>();
        int i = 0;
        for (BfclTask t : base) for (PromptFormat c : PromptFormat.all()) out.add(new Entry(i++, c, t));
        return List.copyOf(out);
    }

    static Value readIdFile(Path dir) {
        Path file = dir.resolve(ID_FILE);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BfclData.BfclDataException("cannot read BFCL data file " + file, e);
        }
        String actual = BfclData.sha256(bytes);
        if (!actual.equals(ID_FILE_SHA256))
            throw new BfclData.BfclDataException(
                    "BFCL data file " + file + " has sha256 " + actual + ", expected " + ID_FILE_SHA256);
        return brokkr.value.Json.parse(new String(bytes, StandardCharsets.UTF_8));
    }

    /** The verdict of an answer text to an entry (format_sensitivity_runner: decode by the config, Python checker). */
    public static BfclGrader.Verdict grade(Entry e, String text) {
        return BfclHarness.grade(
                e.task(),
                PromptingDecoder.answer(
                        text, e.config().returnFormat(), e.config().toolCallTag()),
                false);
    }

    /** One graded entry: its configuration and whether it passed; an infrastructure failure is not graded. */
    public record Result(String config, boolean passed, boolean infrastructureFailure) {}

    /**
     * Upstream's per-configuration accuracy (correct / total), the overall accuracy over every entry, and the spread
     * across configurations: {@code accuracy_max_delta} (max − min) ×100, {@code accuracy_variance} (sample variance,
     * statistics.variance) ×100², {@code accuracy_std} (statistics.stdev) ×100, each rounded to 2 places; 0 with one
     * configuration. Configurations in upstream's order.
     */
    public static Report report(List<Result> results) {
        Map<String, int[]> byConfig = new LinkedHashMap<>();
        for (PromptFormat c : PromptFormat.all()) byConfig.put(c.id(), new int[3]);
        int correct = 0, total = 0;
        for (Result r : results) {
            int[] s = byConfig.computeIfAbsent(r.config(), k -> new int[3]);
            if (r.infrastructureFailure()) {
                s[2]++;
                continue;
            }
            s[1]++;
            total++;
            if (r.passed()) {
                s[0]++;
                correct++;
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        List<Double> accuracies = new ArrayList<>();
        for (Map.Entry<String, int[]> e : byConfig.entrySet()) {
            int[] s = e.getValue();
            if (s[1] == 0 && s[2] == 0) continue;
            Double acc = s[1] == 0 ? null : (double) s[0] / s[1];
            if (acc != null) accuracies.add(acc);
            rows.add(Arrays.asList(e.getKey(), s[1] + s[2], s[0], acc, s[2]));
        }
        rows.add(Arrays.asList(
                "total",
                total + byConfig.values().stream().mapToInt(s -> s[2]).sum(),
                correct,
                total == 0 ? null : (double) correct / total,
                byConfig.values().stream().mapToInt(s -> s[2]).sum()));
        double[] spread = spread(accuracies);
        return new Report(
                "format sensitivity per config",
                List.of("config", "tasks", "passed", "accuracy", "infra"),
                rows,
                List.of(
                        new Report.Figure("format_sensitivity accuracy", total == 0 ? null : (double) correct / total),
                        new Report.Figure("accuracy_max_delta", accuracies.isEmpty() ? null : spread[0]),
                        new Report.Figure("accuracy_variance", accuracies.isEmpty() ? null : spread[1]),
                        new Report.Figure("accuracy_std", accuracies.isEmpty() ? null : spread[2])),
                List.of(
                        "format_sensitivity: the 200 entries of BFCL_v4_format_sensitivity.json under each of upstream's 26 prompt configurations (prompting-mode candidates only); accuracy = passed / graded",
                        "accuracy_max_delta = (max - min) x 100, accuracy_variance = sample variance x 100^2, accuracy_std = sample stdev x 100 across configurations, rounded to 2 places",
                        "not part of the overall score (upstream's NON_SCORING_CATEGORY)"));
    }

    /** The report as {@code bfcl run} prints it: one line per configuration, then the figures. */
    public static String format(Report r) {
        StringBuilder sb = new StringBuilder("\nformat_sensitivity (not in the overall)\n");
        int width = "config".length();
        for (List<Object> row : r.rows())
            width = Math.max(width, String.valueOf(row.get(0)).length());
        String line = "%-" + width + "s %6s %6s %9s%n";
        sb.append(String.format(line, "config", "tasks", "passed", "accuracy"));
        for (List<Object> row : r.rows()) {
            Object acc = row.get(3);
            sb.append(String.format(
                    line,
                    row.get(0),
                    row.get(1),
                    row.get(2),
                    acc == null ? "-" : String.format("%.2f%%", (Double) acc * 100)));
        }
        for (Report.Figure f : r.figures())
            sb.append(f.name())
                    .append(": ")
                    .append(f.value() == null ? "-" : String.format("%.2f", f.value()))
                    .append('\n');
        return sb.toString();
    }

    /** {max_delta, variance, std} as eval_runner.py format_sensitivity_runner computes them. */
    static double[] spread(List<Double> acc) {
        if (acc.size() <= 1) return new double[] {0.0, 0.0, 0.0};
        double mean = acc.stream().mapToDouble(Double::doubleValue).sum() / acc.size();
        double ss = 0;
        for (double a : acc) ss += (a - mean) * (a - mean);
        double variance = ss / (acc.size() - 1);
        double max = acc.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double min = acc.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        return new double[] {round2((max - min) * 100), round2(variance * 100 * 100), round2(Math.sqrt(variance) * 100)
        };
    }

    /** Python's round(x, 2) (round-half-even on the decimal value of the double). */
    static double round2(double x) {
        return new java.math.BigDecimal(x)
                .setScale(2, java.math.RoundingMode.HALF_EVEN)
                .doubleValue();
    }

    /**
     * A stable slice of the entries: {@code n} base tasks (all when null) ranked by SHA-256 of {@code seed + "/" + id}
     * as {@link BfclData#sample} ranks tasks, each under all 26 configurations, in entry order.
     */
    public static List<Entry> sample(List<Entry> entries, Integer n, long seed) {
        if (n == null) return entries;
        List<String> base = new ArrayList<>(
                new LinkedHashSet<>(entries.stream().map(e -> e.task().id()).toList()));
        base.sort(java.util.Comparator.comparing(
                (String id) -> BfclData.sha256((seed + "/" + id).getBytes(StandardCharsets.UTF_8))));
        Set<String> chosen = new java.util.HashSet<>(base.subList(0, Math.min(n, base.size())));
        return entries.stream().filter(e -> chosen.contains(e.task().id())).toList();
    }
}
