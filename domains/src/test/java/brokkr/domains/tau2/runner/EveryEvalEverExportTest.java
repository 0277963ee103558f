package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.Command;
import brokkr.eval.ContentHash;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreLocation;
import brokkr.family.EveryEvalEver;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.family.StoredResults;
import brokkr.python.PyJson;
import brokkr.stats.Estimate;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.Value;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment export --format every-eval-ever}: a scripted tau2 run (retail, 4 tasks, 2 trials, a gold and a
 * stopping candidate) as Every Eval Ever records, each valid against its eval.schema.json and every sample line
 * against instance_level_eval.schema.json (both in test resources with their provenance); the scores and their
 * uncertainty are the scorecard's, the samples file is the one the aggregate names (path, sha256, rows).
 */
class EveryEvalEverExportTest {
    @TempDir
    Path tmp;

    static Schema schema(String name) throws Exception {
        try (InputStream in =
                EveryEvalEverExportTest.class.getResourceAsStream("/brokkr/family/everyevalever/" + name)) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8), InputFormat.JSON);
        }
    }

    @Test
    void aRunExportsRecordsValidAgainstTheSchemaWithTheScorecardsScoresAndEverySample() throws Exception {
        Path file = tmp.resolve("x.yaml");
        Files.writeString(file, """
                name: eee
                domains: [{name: tau2-retail, tasks: ["0", "1", "5", "9"]}]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                  - {id: stop, provider: scripted, model: stop}
                repetitions: 2
                progress: false
                """);
        Path dir = tmp.resolve("run");
        Registry registry = Registry.load();
        assertEquals(
                16, Experiments.run(ExperimentSpec.read(file), dir, registry).completed());
        List<ResultCell> cells = StoredResults.read(dir);
        var prices = StoredResults.prices(StoreLocation.of(dir));
        EveryEvalEver format = new EveryEvalEver();
        ResultFormat.Exported e = format.export(
                cells,
                new ResultFormat.ExportContext(registry, prices, Map.of("--source-organization", "Example Lab")));
        assertEquals(4, e.files().size(), "an aggregate and its samples per candidate");
        Schema aggregateSchema = schema("eval.schema.json"), sampleSchema = schema("instance_level_eval.schema.json");
        Scorecard card = ResultCell.scorecard(cells, prices);

        for (String candidate : new String[] {"gold", "stop"}) {
            ResultFormat.ExportedFile aggregate = e.files().stream()
                    .filter(f -> f.path().startsWith("data/tau2-retail/scripted/" + candidate + "/")
                            && f.path().endsWith(".json"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(
                    aggregate
                            .path()
                            .matches("data/tau2-retail/scripted/" + candidate
                                    + "/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.json"),
                    aggregate.path());
            assertEquals(List.of(), aggregateSchema.validate(aggregate.content(), InputFormat.JSON), aggregate.path());
            PyDict log = Json.parse(aggregate.content()).asDict();
            assertEquals(
                    "Example Lab",
                    log.get("source_metadata")
                            .asDict()
                            .get("source_organization_name")
                            .asStr());
            assertEquals(
                    "scripted/" + candidate,
                    log.get("model_info").asDict().get("id").asStr());

            Scorecard.CandidateScore row = card.rows().stream()
                    .filter(r -> r.candidate().equals(candidate))
                    .findFirst()
                    .orElseThrow();
            List<Value> results =
                    log.get("evaluation_results").asList().stream().toList();
            assertEquals(1 + 2, results.size(), "average reward, pass^1, pass^2");
            PyDict avg = results.getFirst().asDict().get("score_details").asDict();
            Estimate reward = row.rewardEstimate();
            assertEquals(row.avgReward(), num(avg.get("score")));
            PyDict u = avg.get("uncertainty").asDict();
            assertEquals(reward.se(), num(u.get("standard_error").asDict().get("value")));
            assertEquals(
                    reward.t95().low(),
                    num(u.get("confidence_interval").asDict().get("lower")));
            assertEquals(8L, ((brokkr.value.PyInt) u.get("num_samples")).longValue());
            for (String role : new String[] {"agent", "user", "judge"})
                assertFalse(
                        avg.get("details").asDict().containsKey("usd_" + role + "_per_episode"),
                        "a scripted model has no price: no cost, never 0");
            for (int k = 1; k <= 2; k++)
                assertEquals(
                        row.passHatK().get(k - 1),
                        num(results.get(k)
                                .asDict()
                                .get("score_details")
                                .asDict()
                                .get("score")),
                        "pass^" + k);
            assertEquals(candidate.equals("gold") ? 1.0 : 0.0, row.avgReward());

            PyDict detailed = log.get("detailed_evaluation_results").asDict();
            ResultFormat.ExportedFile samples = e.files().stream()
                    .filter(f -> f.path().equals(detailed.get("file_path").asStr()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    ContentHash.sha256(samples.content()),
                    detailed.get("checksum").asStr());
            List<String> lines = samples.content().lines().toList();
            assertEquals(8, lines.size());
            assertEquals(8L, ((brokkr.value.PyInt) detailed.get("total_rows")).longValue());
            for (String line : lines) {
                assertEquals(List.of(), sampleSchema.validate(line, InputFormat.JSON), line);
                PyDict s = Json.parse(line).asDict();
                assertEquals(
                        log.get("evaluation_id").asStr(), s.get("evaluation_id").asStr());
                assertEquals("agentic", s.get("interaction_type").asStr());
                assertEquals(
                        candidate.equals("gold"),
                        ((brokkr.value.PyBool) s.get("evaluation").asDict().get("is_correct")).value());
            }
        }
        // The validator is no rubber stamp: a record without its model, a sample without its score.
        PyDict log = Json.parse(e.files().getFirst().content()).asDict();
        assertFalse(aggregateSchema
                .validate(PyJson.dumps(log.without("model_info")), InputFormat.JSON)
                .isEmpty());
        PyDict sample = Json.parse(
                        e.files().get(1).content().lines().findFirst().orElseThrow())
                .asDict();
        assertFalse(sampleSchema
                .validate(PyJson.dumps(sample.without("evaluation")), InputFormat.JSON)
                .isEmpty());

        // A re-export writes the same files (the UUID is derived, not random).
        var again = format.export(
                cells,
                new ResultFormat.ExportContext(registry, prices, Map.of("--source-organization", "Example Lab")));
        assertEquals(
                e.files().stream().map(ResultFormat.ExportedFile::path).toList(),
                again.files().stream().map(ResultFormat.ExportedFile::path).toList());
        var bad = assertThrows(
                Command.UsageException.class,
                () -> format.export(
                        cells,
                        new ResultFormat.ExportContext(registry, prices, Map.of("--evaluator-relationship", "self"))));
        assertTrue(bad.getMessage().contains("not 'self'"), bad.getMessage());
    }

    static double num(Value v) {
        return ((PyFloat) v).value();
    }
}
