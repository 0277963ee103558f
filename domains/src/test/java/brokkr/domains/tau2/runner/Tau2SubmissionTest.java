package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cost.PriceTable;
import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.UpstreamMetrics;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.experiment.StoreLocation;
import brokkr.family.ResultCell;
import brokkr.family.StoredResults;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyStr;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment export --format tau2-submission}: a scripted gold run of every telecom task (the base split's 114)
 * 4 times (telecom, not airline with its 50 tasks: exporting an airline trajectory re-grades it against a 7 MB
 * database, 0.26 s of CPU each; telecom's 456 run and export in about 8 s of CPU) is a submission valid against upstream's leaderboard schema (its
 * {@code schema.json} at the pinned commit, in test resources with its provenance), whose scores are what upstream's
 * metrics compute from the trajectory file beside it; and what the leaderboard's rules refuse (3 trials, a task left
 * out, an unfinished cell) is refused with the reason.
 */
class Tau2SubmissionTest {
    @TempDir
    static Path tmp;

    static List<ResultCell> cells;
    static PriceTable prices;
    static Registry registry;
    static Schema submissionSchema;
    static Schema resultsSchema;
    /** The run's submission, built once: an export re-grades each of its 200 trajectories. */
    static Tau2Submission.Submission submission;

    static final Tau2Submission.Metadata META = new Tau2Submission.Metadata(
            null, null, "Example Lab", null, "research@example.org", null, null, LocalDate.of(2026, 12, 2));

    @BeforeAll
    static void runEveryTelecomTaskFourTimes() throws Exception {
        Path file = tmp.resolve("telecom.yaml");
        Files.writeString(file, """
                name: submission
                domains: [{name: tau2-telecom, split: base}]
                candidates: [{id: gold, provider: scripted, model: gold}]
                repetitions: 4
                progress: false
                """);
        Path dir = tmp.resolve("telecom");
        registry = Registry.load();
        var r = Experiments.run(ExperimentSpec.read(file), dir, registry);
        assertEquals(456, r.completed(), r.summary());
        cells = StoredResults.read(dir);
        prices = StoredResults.prices(StoreLocation.of(dir));
        submission = Tau2Submission.build(cells, registry, prices, META);
        try (InputStream in =
                Tau2SubmissionTest.class.getResourceAsStream("/brokkr/domains/tau2/leaderboard/schema.json")) {
            submissionSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8), InputFormat.JSON);
        }
        resultsSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(
                        Files.readString(SharedDirs.shared().resolve("conformance/tau2/results/results-schema.json")),
                        InputFormat.JSON);
    }

    @Test
    void aFullFourTrialRunIsASubmissionUpstreamsSchemaAcceptsScoredAsUpstreamScoresItsTrajectories() {
        Tau2Submission.Submission s = submission;
        String json = PyJson.dumps(s.submission(), PyJson.DumpOptions.DEFAULT.withIndent(2));
        assertEquals(List.of(), submissionSchema.validate(json, InputFormat.JSON), json);

        PyDict sub = s.submission();
        assertEquals(
                List.of(
                        "model_name",
                        "model_organization",
                        "submitting_organization",
                        "submission_date",
                        "submission_type",
                        "modality",
                        "contact_info",
                        "results",
                        "is_new",
                        "trajectories_available",
                        "trajectory_files",
                        "methodology"),
                List.copyOf(sub.keys()),
                "pydantic's field order, None fields left out");
        assertEquals("scripted:gold", sub.get("model_name").asStr(), "upstream's default: the agent's llm");
        assertEquals("Example Lab", sub.get("submitting_organization").asStr(), "upstream's default: the model's org");
        assertEquals("2026-12-02", sub.get("submission_date").asStr());
        assertEquals("standard", sub.get("submission_type").asStr(), "the reference harness");
        assertEquals("text", sub.get("modality").asStr());
        PyDict methodology = sub.get("methodology").asDict();
        assertEquals("1.0.1", methodology.get("tau2_bench_version").asStr());
        assertEquals("scripted:user", methodology.get("user_simulator").asStr());

        assertEquals(1, s.trajectories().size());
        Tau2Submission.Trajectory t = s.trajectories().getFirst();
        assertEquals("trajectories/telecom_results.json", t.path());
        assertEquals(
                PyDict.of("telecom", "telecom_results.json"),
                sub.get("trajectory_files").asDict());
        assertEquals(List.of(), resultsSchema.validate(PyJson.dumps(t.results()), InputFormat.JSON));
        assertEquals(456, t.results().get("simulations").asList().size());

        PyDict telecom = sub.get("results").asDict().get("telecom").asDict();
        PyDict passHat = UpstreamMetrics.compute(t.results()).get("pass_hat_ks").asDict();
        for (int k = 1; k <= 4; k++) {
            double upstream = ((PyFloat) passHat.get(Integer.toString(k))).value() * 100;
            assertEquals(upstream, ((PyFloat) telecom.get("pass_" + k)).value(), "pass^" + k + " exactly");
            assertEquals(100.0, upstream, "the gold replay passes every trial");
        }
        // The scripted agent has no price: the cost is left out and said so, never 0.
        assertFalse(telecom.containsKey("cost"), telecom.toString());
        assertTrue(
                s.warnings().stream().anyMatch(w -> w.contains("telecom: cost left out: 456 of 456")),
                s.warnings().toString());
        assertTrue(methodology.get("notes").asStr().contains("cost left out"));
    }

    @Test
    void theSchemaRefusesWhatUpstreamRefuses() {
        PyDict sub = submission.submission();
        assertFalse(submissionSchema
                .validate(PyJson.dumps(sub.without("contact_info")), InputFormat.JSON)
                .isEmpty());
        PyDict results = sub.get("results").asDict();
        PyDict over = sub.with(
                "results",
                results.with("telecom", results.get("telecom").asDict().with("pass_1", new PyFloat(100.5))));
        assertFalse(
                submissionSchema.validate(PyJson.dumps(over), InputFormat.JSON).isEmpty());
        assertFalse(submissionSchema
                .validate(PyJson.dumps(sub.with("submission_type", new PyStr("other"))), InputFormat.JSON)
                .isEmpty());
    }

    @Test
    void threeTrialsAMissingTaskAndAnUnfinishedCellAreRefusedWithTheirReasons() {
        String firstTask = ((Tau2Benchmark) registry.benchmarks().get("tau2-telecom"))
                .tasks("base")
                .getFirst();
        List<ResultCell> threeTrials =
                cells.stream().filter(c -> c.repetition() < 3).toList();
        var e = assertThrows(
                IllegalArgumentException.class, () -> Tau2Submission.build(threeTrials, registry, prices, META));
        assertEquals(
                "tau2-telecom: 3 trials per task; the leaderboard takes at least 4 (repetitions: 4)", e.getMessage());

        List<ResultCell> noTask0 =
                cells.stream().filter(c -> !c.taskId().equals(firstTask)).toList();
        e = assertThrows(IllegalArgumentException.class, () -> Tau2Submission.build(noTask0, registry, prices, META));
        assertEquals(
                "tau2-telecom: the leaderboard takes every task of the base split (114); the experiment has 113 of"
                        + " them (missing 1: " + firstTask + ")",
                e.getMessage());

        List<ResultCell> unfinished = new ArrayList<>(cells);
        ResultCell c = unfinished.getFirst();
        unfinished.set(
                0,
                new ResultCell(
                        c.benchmark(), c.candidate(), c.taskId(), c.repetition(), c.environment(), c.agent(), null));
        e = assertThrows(
                IllegalArgumentException.class, () -> Tau2Submission.build(unfinished, registry, prices, META));
        assertTrue(e.getMessage().contains("1 of 456 cells have no completed attempt"), e.getMessage());

        var unknown = assertThrows(
                IllegalArgumentException.class,
                () -> Tau2Submission.build(
                        cells,
                        registry,
                        prices,
                        new Tau2Submission.Metadata(
                                "nobody",
                                null,
                                "Example Lab",
                                null,
                                "research@example.org",
                                null,
                                null,
                                LocalDate.of(2026, 12, 2))));
        assertEquals("no tau2 candidate 'nobody' (candidates: gold)", unknown.getMessage());
    }

    /**
     * A harness other than upstream's reference loop makes the submission custom (the leaderboard's rule: a modified
     * scaffold), with modified prompts and the harness in its notes. The telecom run's cells with the candidate's
     * harness set to Brokkr's loop (its definition only: the episodes are the reference run's).
     */
    @Test
    void aHarnessOtherThanTheReferenceLoopIsACustomSubmission() {
        PyDict loop = brokkr.repl.Harness.of(brokkr.repl.Harness.LOOP, "tools", null, PyDict.empty())
                .toValue();
        List<ResultCell> underLoop = cells.stream()
                .map(c -> {
                    var a = c.agent();
                    var agent = new brokkr.eval.AgentDef(
                            a.provider(), a.model(), a.actionSpace(), a.options(), a.systemPromptSha256(), loop);
                    return new ResultCell(
                            c.benchmark(),
                            c.candidate(),
                            c.taskId(),
                            c.repetition(),
                            c.environment(),
                            agent,
                            c.attempt());
                })
                .toList();
        PyDict sub = Tau2Submission.build(underLoop, registry, prices, META).submission();
        assertEquals(List.of(), submissionSchema.validate(PyJson.dumps(sub), InputFormat.JSON));
        assertEquals("custom", sub.get("submission_type").asStr());
        PyDict methodology = sub.get("methodology").asDict();
        assertEquals(
                true,
                ((brokkr.value.PyBool) methodology.get("verification").asDict().get("modified_prompts")).value());
        assertTrue(
                methodology.get("notes").asStr().contains("Custom: the agent ran under Brokkr's harness loop/tools"));
    }

    /** upstream's validate_submission_traj_set: one user simulator with identical arguments for every domain. */
    @Test
    void differentUserSimulatorsAcrossDomainsAreRefused() {
        var t = submission.trajectories().getFirst();
        var telecom = new Tau2ResultsExport.Export(
                "tau2-telecom", "telecom", "gold", t.results(), List.of(), "telecom_results.json");
        PyDict info = telecom.results().get("info").asDict();
        PyDict otherUser = telecom.results()
                .with(
                        "info",
                        info.with(
                                "user_info",
                                info.get("user_info").asDict().with("llm_args", PyDict.of("temperature", 0.5))));
        var retail = new Tau2ResultsExport.Export(
                "tau2-retail", "retail", telecom.candidate(), otherUser, List.of(), "retail_results.json");
        Tau2Submission.refuseDifferentModels(List.of(telecom, telecom));
        var e = assertThrows(
                IllegalArgumentException.class, () -> Tau2Submission.refuseDifferentModels(List.of(telecom, retail)));
        assertEquals(
                "the user simulator differs across domains (tau2-telecom: scripted:user {}; tau2-retail: scripted:user"
                        + " {\"temperature\": 0.5}); the leaderboard takes one user simulator with identical arguments"
                        + " for every domain",
                e.getMessage());
    }
}
