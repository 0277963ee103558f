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
 * {@code experiment export --format tau2-submission}: a scripted gold run of every airline task (the base split's 50,
 * the smallest leaderboard domain) 4 times is a submission valid against upstream's leaderboard schema (its
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

    static final Tau2Submission.Metadata META = new Tau2Submission.Metadata(
            null, null, "Example Lab", null, "research@example.org", null, null, LocalDate.of(2026, 12, 2));

    @BeforeAll
    static void runEveryAirlineTaskFourTimes() throws Exception {
        Path file = tmp.resolve("air.yaml");
        Files.writeString(file, """
                name: submission
                domains: [{name: tau2-airline, split: base}]
                candidates: [{id: gold, provider: scripted, model: gold}]
                repetitions: 4
                progress: false
                """);
        Path dir = tmp.resolve("air");
        registry = Registry.load();
        var r = Experiments.run(ExperimentSpec.read(file), dir, registry);
        assertEquals(200, r.completed(), r.summary());
        cells = StoredResults.read(dir);
        prices = StoredResults.prices(StoreLocation.of(dir));
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
        Tau2Submission.Submission s = Tau2Submission.build(cells, registry, prices, META);
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
        assertEquals("trajectories/airline_results.json", t.path());
        assertEquals(
                PyDict.of("airline", "airline_results.json"),
                sub.get("trajectory_files").asDict());
        assertEquals(List.of(), resultsSchema.validate(PyJson.dumps(t.results()), InputFormat.JSON));
        assertEquals(200, t.results().get("simulations").asList().size());

        PyDict airline = sub.get("results").asDict().get("airline").asDict();
        PyDict passHat = UpstreamMetrics.compute(t.results()).get("pass_hat_ks").asDict();
        for (int k = 1; k <= 4; k++) {
            double upstream = ((PyFloat) passHat.get(Integer.toString(k))).value() * 100;
            assertEquals(upstream, ((PyFloat) airline.get("pass_" + k)).value(), "pass^" + k + " exactly");
            assertEquals(100.0, upstream, "the gold replay passes every trial");
        }
        // The scripted agent has no price: the cost is left out and said so, never 0.
        assertFalse(airline.containsKey("cost"), airline.toString());
        assertTrue(
                s.warnings().stream().anyMatch(w -> w.contains("airline: cost left out: 200 of 200")),
                s.warnings().toString());
        assertTrue(methodology.get("notes").asStr().contains("cost left out"));
    }

    @Test
    void theSchemaRefusesWhatUpstreamRefuses() {
        PyDict sub = Tau2Submission.build(cells, registry, prices, META).submission();
        assertFalse(submissionSchema
                .validate(PyJson.dumps(sub.without("contact_info")), InputFormat.JSON)
                .isEmpty());
        PyDict results = sub.get("results").asDict();
        PyDict over = sub.with(
                "results",
                results.with("airline", results.get("airline").asDict().with("pass_1", new PyFloat(100.5))));
        assertFalse(
                submissionSchema.validate(PyJson.dumps(over), InputFormat.JSON).isEmpty());
        assertFalse(submissionSchema
                .validate(PyJson.dumps(sub.with("submission_type", new PyStr("other"))), InputFormat.JSON)
                .isEmpty());
    }

    @Test
    void threeTrialsAMissingTaskAndAnUnfinishedCellAreRefusedWithTheirReasons() {
        List<ResultCell> threeTrials =
                cells.stream().filter(c -> c.repetition() < 3).toList();
        var e = assertThrows(
                IllegalArgumentException.class, () -> Tau2Submission.build(threeTrials, registry, prices, META));
        assertEquals(
                "tau2-airline: 3 trials per task; the leaderboard takes at least 4 (repetitions: 4)", e.getMessage());

        List<ResultCell> noTask0 =
                cells.stream().filter(c -> !c.taskId().equals("0")).toList();
        e = assertThrows(IllegalArgumentException.class, () -> Tau2Submission.build(noTask0, registry, prices, META));
        assertEquals(
                "tau2-airline: the leaderboard takes every task of the base split (50); the experiment has 49 of them"
                        + " (missing 1: 0)",
                e.getMessage());

        List<ResultCell> unfinished = new ArrayList<>(cells);
        ResultCell c = unfinished.getFirst();
        unfinished.set(
                0,
                new ResultCell(
                        c.benchmark(), c.candidate(), c.taskId(), c.repetition(), c.environment(), c.agent(), null));
        e = assertThrows(
                IllegalArgumentException.class, () -> Tau2Submission.build(unfinished, registry, prices, META));
        assertTrue(e.getMessage().contains("1 of 200 cells have no completed attempt"), e.getMessage());

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
}
