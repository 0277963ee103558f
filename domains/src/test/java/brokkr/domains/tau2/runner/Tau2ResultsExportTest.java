package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Regrade;
import brokkr.domains.tau2.conformance.UpstreamMetrics;
import brokkr.domains.tau2.conformance.UpstreamRecords;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.family.StoredResults;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment export --format tau2}: a Brokkr experiment as upstream's results files, valid against
 * upstream's {@code Results} JSON schema (shared/conformance/tau2/results/results-schema.json), read by
 * upstream's metrics as Brokkr scored it, and re-graded by {@code tau2 evaluate} with no mismatch.
 */
class Tau2ResultsExportTest {
    @TempDir
    static Path tmp;

    static Path dir;
    static Scorecard card;
    static Schema schema;
    static List<Tau2ResultsExport.Export> exports;

    @BeforeAll
    static void runExperiment() throws Exception {
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
        var stop = new ExperimentSpec.CandidateSpec("stop", new ModelRef("scripted", "stop"), "tools", null);
        var spec = new ExperimentSpec(
                "export",
                List.of(
                        new ExperimentSpec.DomainSpec("tau2-retail", "test", null),
                        new ExperimentSpec.DomainSpec("tau2-telecom", "test", null)),
                List.of(gold, stop),
                2,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
        dir = tmp.resolve("export");
        card = Experiments.run(spec, dir, Registry.load()).scorecard();
        exports = Tau2ResultsExport.export(StoredResults.read(dir), Registry.load());
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(
                        Files.readString(SharedDirs.shared().resolve("conformance/tau2/results/results-schema.json")),
                        InputFormat.JSON);
    }

    static List<Error> validate(PyDict results) {
        return schema.validate(PyJson.dumps(results), InputFormat.JSON);
    }

    @Test
    void theValidatorRejectsWhatTheSchemaForbids() throws Exception {
        PyDict upstream = UpstreamRecords.read(
                        SharedDirs.shared().resolve("conformance/tau2/results/airline/results-mixed.json"))
                .results();
        assertEquals(List.of(), validate(upstream), "upstream's own file is valid");
        PyList sims = upstream.get("simulations").asList();
        PyDict broken =
                upstream.with("simulations", sims.with(0, sims.get(0).asDict().without("termination_reason")));
        assertFalse(validate(broken).isEmpty(), "a simulation without its required termination_reason");
        assertFalse(validate(upstream.with("info", upstream.get("info").asDict().with("num_trials", new PyStr("two"))))
                .isEmpty());
    }

    @Test
    void everyDomainAndCandidateExportsAValidResultsFileThatScoresAsBrokkrScored() throws Exception {
        assertEquals(
                List.of(
                        "tau2-retail.gold.json",
                        "tau2-retail.stop.json",
                        "tau2-telecom.gold.json",
                        "tau2-telecom.stop.json"),
                exports.stream()
                        .map(Tau2ResultsExport.Export::fileName)
                        .sorted()
                        .toList());
        for (Tau2ResultsExport.Export e : exports) {
            assertEquals(List.of(), validate(e.results()), e.fileName());
            assertEquals(List.of(), e.warnings(), e.fileName());
            PyDict results = e.results();
            PyList sims = results.get("simulations").asList();
            assertEquals(80, sims.size(), "40 test tasks x 2 trials");
            // upstream's unit order: trial-major, then task order
            assertEquals(0L, ((PyInt) sims.get(39).asDict().get("trial")).longValue());
            assertEquals(1L, ((PyInt) sims.get(40).asDict().get("trial")).longValue());
            assertEquals(40, results.get("tasks").asList().size());
            PyDict info = results.get("info").asDict();
            assertEquals(Tau2Domains.UPSTREAM_REVISION, info.get("git_commit").asStr());
            assertEquals(
                    e.domain(),
                    info.get("environment_info").asDict().get("domain_name").asStr());

            Scorecard.CandidateScore row = card.rows().stream()
                    .filter(r ->
                            r.benchmark().equals(e.benchmark()) && r.candidate().equals(e.candidate()))
                    .findFirst()
                    .orElseThrow();
            PyDict m = UpstreamMetrics.compute(results);
            assertEquals(row.avgReward(), ((PyFloat) m.get("avg_reward")).value(), 1e-12, e.fileName());
            PyDict passHat = m.get("pass_hat_ks").asDict();
            assertEquals(2, passHat.size());
            for (int k = 1; k <= 2; k++)
                assertEquals(
                        row.passHatK().get(k - 1),
                        ((PyFloat) passHat.get(Integer.toString(k))).value(),
                        1e-12,
                        e.fileName() + " pass^" + k);
            assertEquals(40L, ((PyInt) m.get("total_tasks")).longValue());

            // The file, written as upstream writes it, re-grades with no mismatch.
            Path f = tmp.resolve(e.fileName());
            Files.writeString(f, PyJson.dumps(results, PyJson.DumpOptions.DEFAULT.withIndent(2)));
            Tau2Regrade.Report regrade = Tau2Evaluate.evaluate(f, null, null, null);
            assertEquals(80, regrade.simulations());
            assertEquals(
                    0,
                    regrade.mismatches(),
                    e.fileName() + ": "
                            + regrade.outcomes().stream()
                                    .filter(o -> !o.matches())
                                    .findFirst());
        }
    }

    @Test
    void goldExportsRewardOneWithUpstreamsComponents() {
        Tau2ResultsExport.Export gold = exports.stream()
                .filter(e -> e.fileName().equals("tau2-retail.gold.json"))
                .findFirst()
                .orElseThrow();
        for (Value v : gold.results().get("simulations").asList()) {
            PyDict s = v.asDict();
            assertEquals(
                    "agent_stop",
                    s.get("termination_reason").asStr(),
                    "Brokkr's scripted gold agent stops on ###STOP###");
            PyDict ri = s.get("reward_info").asDict();
            assertEquals(1.0, ((PyFloat) ri.get("reward")).value());
            assertTrue(ri.get("reward_breakdown").asDict().containsKey("DB"));
            PyList messages = s.get("messages").asList();
            assertTrue(messages.size() >= 3);
            assertEquals(22, messages.get(0).asDict().size(), "upstream's 22 participant-message fields");
        }
    }
}
