package brokkr.eval;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a benchmark shows a person exploring it before (or instead of) an experiment: a summary, the
 * task table, one task in detail, a forked world to call tools on, the scripted candidates a single
 * run can use and how to read that run's attempt. Plain data, no rendering: the notebook magics
 * ({@code %domain}, {@code %tasks}, {@code %task}, {@code %fork}, {@code %run}) show it.
 *
 * <p>A provider offers it through {@link BenchmarkProvider#exploration()}; a run is never made here,
 * it goes through {@link Evaluation#evaluate} like every other.
 */
public interface Exploration {
    Summary summary();

    /** Every task a person browses, in the benchmark's order. */
    List<TaskRow> tasks();

    /** One task; IllegalArgumentException for an unknown id. */
    TaskDetail task(String taskId);

    /**
     * A fresh world of a task ({@code taskId} null: the benchmark's pristine world). IllegalArgumentException
     * for an unknown id; UnsupportedOperationException, saying why, when the benchmark has no world.
     */
    ToolWorld fork(String taskId);

    /** The scripted candidates ({@link BenchmarkProvider#scripted} agents) offered for single runs; empty when none. */
    List<String> candidates();

    /**
     * The models besides the agent's that a single run of a model candidate needs, in the order to
     * ask for them (tau2: the user simulator and the NL judge, which default to scripted stand-ins
     * that only play opposite the scripted candidates); empty when the agent is the only model.
     */
    default List<ModelRole> modelRoles() {
        return List.of();
    }

    /**
     * A completed attempt of a single run as a person reads it: one result line and one line per check.
     * The default reads the attempt's own checks; benchmarks override it to say more (counts, why).
     */
    default RunReport report(Attempt attempt) {
        return new RunReport(
                "reward " + attempt.reward() + ", " + attempt.evidence().termination(),
                attempt.checks().stream()
                        .map(c -> new CheckLine(c.name(), c.passed(), c.passed() ? "passed" : "failed"))
                        .toList());
    }

    /**
     * What a completed attempt left for a person to read besides its transcript (the wiki benchmark's pages, from
     * its final world), with the sources those may link to; empty when the benchmark's worlds hold nothing to read
     * (the default) or the attempt did not complete. The report shows them rendered, their links followed inside it.
     */
    default Optional<Files> files(Attempt attempt) {
        return Optional.empty();
    }

    /**
     * Files of an attempt's final world, as a person reads them.
     *
     * @param title      what they are ("the wiki: 10 pages under /wiki")
     * @param note       how they were had (e.g. replayed from the transcript, and whether that matches the recorded
     *                   final world), "" when there is nothing to say
     * @param made       the files the attempt left, in the order to show them
     * @param sourcesKey names the sources: the same for every attempt on one world, so a report shows each set once
     * @param sources    the files the made ones may cite (a wiki's documents), in the order to show them
     */
    record Files(String title, String note, List<File> made, String sourcesKey, List<File> sources) {
        public Files {
            made = List.copyOf(made);
            sources = List.copyOf(sources);
        }
    }

    /**
     * One file: its absolute path, its text (Markdown when the path ends in {@code .md}), and each link destination
     * written in it mapped to the path it reaches, as the benchmark's grader resolves it (a destination missing from
     * the map reaches no file: external, or an anchor).
     */
    record File(String path, String text, Map<String, String> links) {
        public File {
            links = Map.copyOf(links);
        }
    }

    /**
     * @param tasksPerSplit the number of tasks of each split the table shows
     * @param policyChars   the length of the policy the agent is given (0 when there is none)
     * @param files         the data files read, with their pinned digests (empty for generated worlds)
     */
    record Summary(
            String description,
            int tasks,
            Map<String, Integer> tasksPerSplit,
            List<String> tools,
            int policyChars,
            List<DataFile> files) {
        public Summary {
            tasksPerSplit = Map.copyOf(tasksPerSplit);
            tools = List.copyOf(tools);
            files = List.copyOf(files);
        }
    }

    /** A data file, its pinned sha256 and whether the loaded bytes were checked against it. */
    record DataFile(String path, String sha256, boolean verified) {}

    /** One row of the task table; {@code goldActions} counts the reference solution's tool calls. */
    record TaskRow(String id, List<String> splits, String scenario, String rewardBasis, int goldActions) {
        public TaskRow {
            splits = List.copyOf(splits);
        }
    }

    /** One task: what the candidate is asked, what its reward rests on, the gold actions as calls, the initial world's hash. */
    record TaskDetail(
            String id, String scenario, String rewardBasis, List<String> goldActions, String initialWorldHash) {
        public TaskDetail {
            goldActions = List.copyOf(goldActions);
        }
    }

    /** How a run went, for a person: the result line and the grade's lines. */
    record RunReport(String resultLine, List<CheckLine> checks) {
        public RunReport {
            checks = List.copyOf(checks);
        }
    }

    /** A role a model plays in a run besides the agent ({@code user}, {@code judge}) and what it does there. */
    record ModelRole(String role, String plays) {}

    /** One line of a grade: what was checked, whether it held, and a word on it. */
    record CheckLine(String name, boolean passed, String detail) {}
}
