package brokkr.cli;

import brokkr.command.Command;
import brokkr.experiment.Comparison;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.StoreLocation;
import brokkr.render.chart.ChartImages;
import brokkr.render.experiment.ComparisonTables;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./brokkr experiment compare DIR [DIR2] [--a C1] [--b C2] [--chart FILE]}: the paired comparison
 * of two candidates ({@link Comparison}) as text, CSV or JSON, and the chart of per-task differences as
 * PNG or SVG (by FILE's extension; one file per benchmark, the benchmark's name added before the
 * extension when there are several).
 */
final class ExperimentCompare {
    private ExperimentCompare() {}

    static final String SHAPE =
            "compare DIR [DIR2] [--a C1] [--b C2] [--chart FILE.png|FILE.svg] " + TableOutput.OPTIONS;

    static int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        TableOutput o = TableOutput.take(args);
        String a = take(args, "--a"), b = take(args, "--b"), chart = take(args, "--chart");
        for (String x : args) if (x.startsWith("--")) throw new Command.UsageException("unknown option " + x);
        if (args.isEmpty() || args.size() > 2) throw new Command.UsageException("expected: " + SHAPE);
        if (chart != null && !chart.endsWith(".png") && !chart.endsWith(".svg"))
            throw new Command.UsageException("--chart FILE must end in .png or .svg, got " + chart);
        StoreLocation dir = ExperimentCommand.storeArg(args.get(0)),
                dir2 = args.size() == 2 ? ExperimentCommand.storeArg(args.get(1)) : null;
        List<Comparison> cs;
        try (ExperimentQuery qa = ExperimentQuery.open(dir);
                ExperimentQuery qb = dir2 == null ? null : ExperimentQuery.open(dir2)) {
            ExperimentQuery other = qb == null ? qa : qb;
            List<String> ab;
            try {
                ab = Comparison.resolve(Comparison.candidates(qa), Comparison.candidates(other), qb != null, a, b);
                cs = Comparison.between(
                        qa, dir.display(), ab.get(0), other, (dir2 == null ? dir : dir2).display(), ab.get(1));
            } catch (IllegalArgumentException e) {
                throw new Command.UsageException(e.getMessage());
            }
        }
        List<TableOutput.Section> sections = new ArrayList<>();
        sections.add(new TableOutput.Section("comparison", "comparison", ComparisonTables.metrics(cs)));
        sections.add(
                new TableOutput.Section("unmatched", "unmatched tasks (excluded)", ComparisonTables.unmatched(cs)));
        sections.add(new TableOutput.Section("tasks", "per task", ComparisonTables.tasks(cs)));
        switch (o.format()) {
            case TEXT -> {
                out.println(ComparisonTables.head(cs));
                out.println();
                o.print(out, err, sections.subList(0, 1), PyDict.empty());
                out.println("  " + ComparisonTables.NOTE.replace("\n", "\n  "));
                for (String n : ComparisonTables.notes(cs)) out.println("  " + n);
                for (TableOutput.Section s : sections.subList(1, 3)) {
                    if (s.table().rowCount() == 0) continue;
                    out.println();
                    o.print(out, err, List.of(s), PyDict.empty());
                }
            }
            case JSON ->
                o.print(
                        out,
                        err,
                        sections,
                        PyDict.builder()
                                .put("a", cs.getFirst().a().label(true))
                                .put("b", cs.getFirst().b().label(true))
                                .put("notes", Value.of(ComparisonTables.notes(cs)))
                                .build());
            case CSV -> o.print(out, err, sections, PyDict.empty());
        }
        if (chart != null) {
            for (Comparison c : cs) {
                Path file = Path.of(
                        cs.size() == 1 ? chart : chart.replaceFirst("\\.(png|svg)$", "-" + c.benchmark() + ".$1"));
                Files.write(file, ChartImages.taskDifferences(c, chart.endsWith(".svg")));
                err.println("chart: " + file);
            }
        }
        return 0;
    }

    /** The value of {@code flag}, taken out of {@code args}; null when absent. */
    private static String take(List<String> args, String flag) {
        int i = args.indexOf(flag);
        if (i < 0) return null;
        if (i + 1 >= args.size()) throw new Command.UsageException(flag + " needs a value");
        String v = args.get(i + 1);
        args.subList(i, i + 2).clear();
        if (args.contains(flag)) throw new Command.UsageException(flag + " given twice");
        return v;
    }
}
