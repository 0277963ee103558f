package brokkr.magics.builtin;

import brokkr.experiment.Comparison;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.StoreLocation;
import brokkr.magics.MagicArgs;
import brokkr.magics.MagicExtension;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import brokkr.magics.view.TablesawTables;
import brokkr.render.chart.ChartImages;
import brokkr.render.chart.Charts;
import brokkr.render.experiment.ComparisonTables;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import tech.tablesaw.api.Table;

/**
 * {@code %compare DIR [DIR2] [--a C1] [--b C2]}: a paired comparison of two candidates on the same
 * tasks ({@link Comparison}), of one experiment or across two; also plain Java ({@link #compare}).
 */
public final class CompareMagics implements MagicExtension {
    @Override
    public void install(MagicRegistry r) {
        r.line(
                "compare",
                "%compare DIR [DIR2] [--a C1] [--b C2]",
                "Paired comparison of two candidates on the same tasks (of DIR, or a of DIR and b of DIR2): per-task differences, mean"
                        + " difference with its paired standard error and 95% interval, paired t and sign-flip p-values, minimum detectable"
                        + " effect, and a chart of the per-task differences.",
                CompareMagics::compareLine);
    }

    static Object compareLine(Session s, MagicArgs a) {
        var p = a.parse(Set.of("a", "b"), 2);
        if (p.positional(0) == null)
            throw new MagicUsageException("which experiment directory? %compare DIR [DIR2] [--a C1] [--b C2]");
        return compare(
                ExperimentMagics.store(p.positional(0)),
                p.positional(1) == null ? null : ExperimentMagics.store(p.positional(1)),
                p.option("a"),
                p.option("b"));
    }

    /** The comparison's tables, notes and charts (one per benchmark); text and HTML with the charts inline. */
    public record CompareView(List<Comparison> comparisons) implements Rich {
        public Table metrics() {
            return TablesawTables.tablesaw(ComparisonTables.metrics(comparisons));
        }

        public Table tasks() {
            return TablesawTables.tablesaw(ComparisonTables.tasks(comparisons));
        }

        public Table unmatched() {
            return TablesawTables.tablesaw(ComparisonTables.unmatched(comparisons));
        }

        public List<CategoryChart> charts() {
            return comparisons.stream().map(Charts::taskDifferences).toList();
        }

        @Override
        public String text() {
            return ComparisonTables.text(comparisons);
        }

        @Override
        public String html() {
            StringBuilder sb = new StringBuilder("<div class=\"brokkr-compare\"><p><b>")
                    .append(Tables.esc(ComparisonTables.head(comparisons)))
                    .append("</b></p>");
            sb.append(Tables.html(metrics()))
                    .append("<p class=\"brokkr-note\">")
                    .append(Tables.esc(ComparisonTables.NOTE).replace("\n", "<br>"))
                    .append("</p><ul>");
            for (String n : ComparisonTables.notes(comparisons))
                sb.append("<li>").append(Tables.esc(n)).append("</li>");
            sb.append("</ul>");
            for (CategoryChart c : charts()) {
                sb.append("<img src=\"data:image/png;base64,")
                        .append(Base64.getEncoder().encodeToString(ChartImages.png(c)))
                        .append("\" alt=\"")
                        .append(Tables.esc(c.getTitle()))
                        .append("\"/>");
            }
            if (unmatched().rowCount() > 0) sb.append(Tables.html(unmatched()));
            if (tasks().rowCount() > 0)
                sb.append("<details><summary>per task</summary>")
                        .append(Tables.html(tasks()))
                        .append("</details>");
            return sb.append("</div>").toString();
        }
    }

    /**
     * Compares candidate {@code a} with {@code b}: both of {@code dir} (the only two when neither is
     * named), or {@code a} of {@code dir} with {@code b} of {@code dir2} (see {@link Comparison#resolve}).
     */
    public static CompareView compare(Path dir, Path dir2, String a, String b) {
        return compare(
                ExperimentMagics.store(dir.toString()),
                dir2 == null ? null : ExperimentMagics.store(dir2.toString()),
                a,
                b);
    }

    /** As above, of stores (directories' or PostgreSQL schemas). */
    public static CompareView compare(StoreLocation dir, StoreLocation dir2, String a, String b) {
        try (ExperimentQuery qa = ExperimentQuery.open(dir);
                ExperimentQuery qb = dir2 == null ? null : ExperimentQuery.open(dir2)) {
            ExperimentQuery other = qb == null ? qa : qb;
            List<String> ab =
                    Comparison.resolve(Comparison.candidates(qa), Comparison.candidates(other), qb != null, a, b);
            return new CompareView(Comparison.between(
                    qa, dir.display(), ab.get(0), other, (dir2 == null ? dir : dir2).display(), ab.get(1)));
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }
}
