package brokkr.magics.builtin;

import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.experiment.Regrade;
import brokkr.experiment.StoreLocation;
import brokkr.magics.MagicArgs;
import brokkr.magics.MagicExtension;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import java.nio.file.Path;
import java.util.Set;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * {@code %regrade DIR --judge PROVIDER:MODEL [--parallelism N]}: the judged checks of every completed
 * attempt in DIR judged again from its record ({@link Regrade}), the new verdicts stored beside the
 * recorded ones, and how far they agree. Also plain Java: {@link #regrade}.
 */
public final class RegradeMagics implements MagicExtension {
    @Override
    public void install(MagicRegistry r) {
        r.line(
                "regrade",
                "%regrade DIR --judge PROVIDER:MODEL [--parallelism N]",
                "Judges the model-judged checks (tau2: NL assertions) of every completed attempt in DIR again from its record,"
                        + " calling only the judge (keys and base URLs from the environment); stores the new verdicts beside the"
                        + " recorded ones and shows assertions and episode verdicts agreeing and every disagreement.",
                RegradeMagics::regradeLine);
    }

    static Object regradeLine(Session s, MagicArgs a) {
        var p = a.parse(Set.of("judge", "parallelism"), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which experiment directory?");
        String judge = p.option("judge");
        if (judge == null)
            throw new MagicUsageException("--judge PROVIDER:MODEL is required (e.g. --judge openai:gpt-4.1)");
        int parallelism;
        try {
            parallelism = Integer.parseInt(p.option("parallelism", String.valueOf(Regrade.DEFAULT_PARALLELISM)));
        } catch (NumberFormatException e) {
            throw new MagicUsageException("--parallelism takes a whole number, not '" + p.option("parallelism") + "'");
        }
        return regrade(s, ExperimentMagics.store(p.positional(0)), judge, parallelism);
    }

    /** Re-grades {@code dir} with the judge {@code PROVIDER:MODEL} through the session's registry. */
    public static RegradeView regrade(Session s, Path dir, String judge, int parallelism) {
        return regrade(s, ExperimentMagics.store(dir.toString()), judge, parallelism);
    }

    /** As above, on the store at {@code dir} (a directory's or a PostgreSQL schema). */
    public static RegradeView regrade(Session s, StoreLocation dir, String judge, int parallelism) {
        ModelRef judgeRef;
        try {
            judgeRef = Planner.providerModel("--judge", judge);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
        try {
            return new RegradeView(
                    Regrade.run(dir, judgeRef.provider(), judgeRef.model(), s.registry(), parallelism, false));
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    /** {@code %regrade}'s answer: the counts, the disagreements and the episodes whose verdict changed, as tables. */
    public record RegradeView(Regrade.Result result) implements Rich {
        /** One row per statement the new judge and the record disagree on. */
        public Table disagreements() {
            var rs = result.disagreements();
            return Table.create(
                    "disagreements",
                    StringColumn.create(
                            "benchmark",
                            rs.stream().map(d -> d.place().benchmark()).toList()),
                    StringColumn.create(
                            "candidate",
                            rs.stream().map(d -> d.place().candidate()).toList()),
                    StringColumn.create(
                            "task", rs.stream().map(d -> d.place().taskId()).toList()),
                    IntColumn.create(
                            "trial",
                            rs.stream().mapToInt(d -> d.place().trial()).toArray()),
                    StringColumn.create(
                            "assertion",
                            rs.stream().map(Regrade.Disagreement::statement).toList()),
                    StringColumn.create(
                            "recorded",
                            rs.stream()
                                    .map(d -> Regrade.Result.verdict(d.recorded()))
                                    .toList()),
                    StringColumn.create(
                            "new",
                            rs.stream()
                                    .map(d -> Regrade.Result.verdict(d.now()))
                                    .toList()));
        }

        /** One row per episode whose verdict changed. */
        public Table episodeChanges() {
            var cs = result.episodeChanges();
            return Table.create(
                    "episode verdicts changed",
                    StringColumn.create(
                            "benchmark",
                            cs.stream().map(c -> c.place().benchmark()).toList()),
                    StringColumn.create(
                            "candidate",
                            cs.stream().map(c -> c.place().candidate()).toList()),
                    StringColumn.create(
                            "task", cs.stream().map(c -> c.place().taskId()).toList()),
                    IntColumn.create(
                            "trial",
                            cs.stream().mapToInt(c -> c.place().trial()).toArray()),
                    DoubleColumn.create(
                            "recorded_reward",
                            cs.stream()
                                    .mapToDouble(Regrade.EpisodeChange::recordedReward)
                                    .toArray()),
                    DoubleColumn.create(
                            "new_reward",
                            cs.stream()
                                    .mapToDouble(Regrade.EpisodeChange::newReward)
                                    .toArray()));
        }

        @Override
        public String text() {
            return result.text().stripTrailing();
        }

        @Override
        public String html() {
            StringBuilder sb = new StringBuilder("<div>");
            result.text()
                    .lines()
                    .limit(3)
                    .forEach(l -> sb.append("<p>").append(Tables.esc(l)).append("</p>"));
            if (!result.disagreements().isEmpty()) sb.append(Tables.html(disagreements()));
            if (!result.episodeChanges().isEmpty()) sb.append(Tables.html(episodeChanges()));
            if (!result.failures().isEmpty()) {
                sb.append("<p>without a new verdict:</p><ul>");
                for (Regrade.Failure f : result.failures()) {
                    sb.append("<li>")
                            .append(Tables.esc(f.place().benchmark() + " "
                                    + f.place().candidate() + " task "
                                    + f.place().taskId() + " trial " + f.place().trial() + ": " + f.error()))
                            .append("</li>");
                }
                sb.append("</ul>");
            }
            return sb.append("</div>").toString();
        }
    }
}
