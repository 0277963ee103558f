package brokkr.magics.view;

import brokkr.eval.Report;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Inspect;
import brokkr.experiment.Scorecard;
import brokkr.render.experiment.ScorecardTables;
import brokkr.stats.Estimate;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * An experiment's scorecard and attempts as Tablesaw tables, for the notebook (filter, join, chart
 * them): the very tables {@code ./brokkr experiment} prints ({@link ScorecardTables}, which documents
 * each), turned into Tablesaw's type ({@link TablesawTables}); the texts are the CLI's.
 */
public final class ExperimentTables {
    private ExperimentTables() {}

    /** The summary's columns of what an episode costs ({@link ScorecardTables#PER_EPISODE}). */
    public static final List<String> PER_EPISODE = ScorecardTables.PER_EPISODE;

    /** What the statistics table says under its name ({@link ScorecardTables#STATISTICS_NOTE}). */
    public static final String STATISTICS_NOTE = ScorecardTables.STATISTICS_NOTE;

    public static Table summary(Scorecard s) {
        return TablesawTables.tablesaw(ScorecardTables.summary(s));
    }

    public static Table statistics(Scorecard s) {
        return TablesawTables.tablesaw(ScorecardTables.statistics(s));
    }

    public static Table tasks(Scorecard s) {
        return TablesawTables.tablesaw(ScorecardTables.tasks(s));
    }

    public static Table checks(Scorecard s) {
        return TablesawTables.tablesaw(ScorecardTables.checks(s));
    }

    public static Table attempts(List<Inspect.AttemptRow> rows) {
        return TablesawTables.tablesaw(ScorecardTables.attempts(rows));
    }

    public static Table report(Report r) {
        return TablesawTables.tablesaw(ScorecardTables.report(r));
    }

    public static Table figures(Report r) {
        return TablesawTables.tablesaw(ScorecardTables.figures(r));
    }

    public static Table experiments(Map<String, ExperimentQuery.Overview> byDir) {
        return TablesawTables.tablesaw(ScorecardTables.experiments(byDir));
    }

    public static Estimate.Interval readInterval(Estimate e, Estimate.Interval wilson) {
        return ScorecardTables.readInterval(e, wilson);
    }

    public static String text(Scorecard s) {
        return ScorecardTables.text(s);
    }

    public static String statisticsText(Table statistics) {
        return ScorecardTables.statisticsText(TablesawTables.plain(statistics));
    }

    public static String statisticsHtml(Table statistics) {
        return ScorecardTables.statisticsHtml(TablesawTables.plain(statistics));
    }

    public static String reportText(BenchmarkReports.CandidateReport cr) {
        return ScorecardTables.reportText(cr);
    }

    public static String reportText(BenchmarkReports.CandidateReport cr, boolean withNotes) {
        return ScorecardTables.reportText(cr, withNotes);
    }
}
