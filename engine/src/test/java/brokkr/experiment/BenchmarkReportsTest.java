package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.Report;
import brokkr.eval.WorldSetup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A benchmark's own report over an experiment: one outcome per cell, per benchmark × candidate; the directory at a glance. */
class BenchmarkReportsTest {
    @TempDir
    Path tmp;

    /** The quiz with a report: one row per outcome (task, repetition, status, reward) and the count as a figure. */
    record ReportingQuiz(QuizBench quiz) implements BenchmarkProvider {
        @Override
        public String name() {
            return quiz.name();
        }

        @Override
        public List<String> tasks(String split) {
            return quiz.tasks(split);
        }

        @Override
        public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
            return quiz.environment(taskId, models);
        }

        @Override
        public WorldSetup worldSetup() {
            return quiz.worldSetup();
        }

        @Override
        public Protocol protocol() {
            return quiz.protocol();
        }

        @Override
        public Evaluator evaluator() {
            return quiz.evaluator();
        }

        @Override
        public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
            return quiz.scripted(role, model, env);
        }

        @Override
        public List<Report> reports(List<Report.Outcome> outcomes) {
            List<List<Object>> rows = new ArrayList<>();
            for (Report.Outcome o : outcomes) {
                rows.add(Arrays.asList(
                        o.environment().taskId(),
                        o.attempt().repetition(),
                        o.attempt().status().wire(),
                        o.attempt().completed() ? o.attempt().reward() : null));
            }
            return List.of(new Report(
                    "outcomes",
                    List.of("task", "repetition", "status", "reward"),
                    rows,
                    List.of(new Report.Figure("cells", (double) outcomes.size()), new Report.Figure("never", null)),
                    List.of("one row per cell")));
        }
    }

    @Test
    void eachCellIsOneOutcomeItsCompletedAttemptOrItsLastFailure() {
        // q1 always fails on infrastructure: after two runs its cells have two failures each and no verdict.
        var models = new QuizBench.Models(prompt -> prompt.startsWith("task q1 "));
        Registry registry = Registry.of(List.of(new ReportingQuiz(new QuizBench(2))), List.of(models));
        var spec = ExperimentTest.spec(
                "all",
                2,
                2,
                3,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null)));
        Path dir = tmp.resolve("r");
        Experiments.run(spec, dir, registry);
        Experiments.run(spec, dir, registry);
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<BenchmarkReports.CandidateReport> reports = BenchmarkReports.of(q, registry);
            assertEquals(
                    List.of("gold", "stop"),
                    reports.stream()
                            .map(BenchmarkReports.CandidateReport::candidate)
                            .toList());
            Report gold = reports.getFirst().report();
            assertEquals(4, gold.rows().size(), "one outcome per cell, not per attempt: " + gold.rows());
            assertEquals(List.of("q0", 0, "completed", 1.0), gold.rows().get(0));
            assertEquals(List.of("q0", 1, "completed", 1.0), gold.rows().get(1));
            assertEquals(
                    Arrays.asList("q1", 0, "infrastructure_failure", null),
                    gold.rows().get(2));
            assertEquals(4.0, gold.figures().getFirst().value());
            assertEquals(0.0, reports.get(1).report().rows().getFirst().get(3), "stop scores 0 on q0");
            // The failure that stands for a cell is its latest one.
            long latest = q.attempts(true, false).stream()
                    .filter(a -> a.taskId().equals("q1")
                            && a.repetition() == 0
                            && !a.completed()
                            && a.agentId().equals(q.cells().getFirst().key().agentId()))
                    .mapToLong(brokkr.eval.Attempt::id)
                    .max()
                    .orElseThrow();
            var outcomes = new ArrayList<Report.Outcome>();
            BenchmarkReports.of(
                    q.cells(),
                    q.attempts(true, false),
                    q.environments(),
                    Registry.of(
                            List.of(new BenchmarkProvider() {
                                @Override
                                public String name() {
                                    return "quiz";
                                }

                                @Override
                                public List<String> tasks(String split) {
                                    return List.of();
                                }

                                @Override
                                public EnvironmentDef environment(String taskId, Map<String, ModelRef> m) {
                                    throw new AssertionError();
                                }

                                @Override
                                public WorldSetup worldSetup() {
                                    throw new AssertionError();
                                }

                                @Override
                                public Protocol protocol() {
                                    throw new AssertionError();
                                }

                                @Override
                                public Evaluator evaluator() {
                                    throw new AssertionError();
                                }

                                @Override
                                public List<Report> reports(List<Report.Outcome> os) {
                                    outcomes.addAll(os);
                                    return List.of();
                                }
                            }),
                            List.of()));
            assertTrue(
                    outcomes.stream().anyMatch(o -> o.attempt().id() == latest),
                    "the latest failure of q1/0 decides it");
            assertEquals(8, outcomes.size());
        }
    }

    @Test
    void aBenchmarkWithoutAReportOrNotRegisteredReportsNothing() {
        var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        Path dir = tmp.resolve("plain");
        Experiments.run(spec, dir, ExperimentTest.registry(2, new QuizBench.Models()));
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(List.of(), BenchmarkReports.of(q, ExperimentTest.registry(2, new QuizBench.Models())));
            assertEquals(List.of(), BenchmarkReports.of(q, Registry.of(List.of(), List.of())));
        }
    }

    @Test
    void aReportRefusesRowsThatDoNotFitAndOutcomesOfAnotherTask() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Report("t", List.of("a", "b"), List.of(List.of("x")), List.of(), List.of()));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Report("t", List.of("a"), List.of(List.of(new Object())), List.of(), List.of()));
        var quiz = new QuizBench(2);
        var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        Path dir = tmp.resolve("o");
        Experiments.run(spec, dir, ExperimentTest.registry(2, new QuizBench.Models()));
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            var a = q.attempts(true, false).getFirst();
            EnvironmentDef other = quiz.environment(a.taskId().equals("q0") ? "q1" : "q0", Map.of());
            assertThrows(IllegalArgumentException.class, () -> new Report.Outcome(other, a));
        }
    }

    @Test
    void theOverviewGivesNameBenchmarksCandidatesCellsAndLastRun() {
        var models = new QuizBench.Models(prompt -> prompt.startsWith("task q1 "));
        var spec = ExperimentTest.spec(
                "all",
                2,
                2,
                0,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null)));
        Path dir = tmp.resolve("ov");
        long before = System.currentTimeMillis();
        Experiments.run(spec, dir, ExperimentTest.registry(2, models));
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            ExperimentQuery.Overview o = q.overview();
            assertEquals("quiz-test", o.name());
            assertEquals(List.of("quiz"), o.benchmarks());
            assertEquals(List.of("gold", "stop"), o.candidates());
            assertEquals(8, o.cells());
            assertEquals(4, o.cellsDone(), "q1's cells failed on infrastructure");
            long latestEnd = q.attempts(true, false).stream()
                    .mapToLong(a -> a.startedAtMillis() + a.durationMillis())
                    .max()
                    .orElseThrow();
            assertTrue(o.lastRunMillis() >= latestEnd && o.lastRunMillis() >= before, o.toString());
        }
    }
}
