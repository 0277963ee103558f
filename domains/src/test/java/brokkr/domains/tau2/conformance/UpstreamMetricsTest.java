package brokkr.domains.tau2.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream's {@code compute_metrics} on upstream's own results files (shared/conformance/tau2/results): every
 * field of the recorded {@code results-metrics.json} entry, exactly (floats to the bit), for all eight files
 * (banking_knowledge too: metrics need no domain).
 */
class UpstreamMetricsTest {
    @Test
    void metricsOfEveryExampleFileEqualTheRecordedOnes() {
        Path dir = SharedDirs.shared().resolve("conformance/tau2/results");
        PyList files = Json.read(dir.resolve("results-metrics.json"))
                .asDict()
                .get("files")
                .asList();
        assertEquals(8, files.size());
        for (Value f : files) {
            PyDict entry = f.asDict();
            Path file = dir.resolve(entry.get("domain").asStr())
                    .resolve(entry.get("file").asStr());
            UpstreamRecords.Contents contents = UpstreamRecords.read(file);
            PyDict metrics = UpstreamMetrics.compute(contents.results());
            assertEquals(PyJson.dumps(entry.get("metrics")), PyJson.dumps(metrics), file.toString());
            assertEquals(
                    PyJson.dumps(entry.get("metrics_as_dict")),
                    PyJson.dumps(UpstreamMetrics.asDict(metrics)),
                    file.toString());
            List<Value> rewards = new ArrayList<>();
            for (UpstreamSimulation s : contents.simulations()) rewards.add(new PyFloat(s.reward()));
            assertEquals(PyJson.dumps(entry.get("rewards")), PyJson.dumps(PyList.of(rewards)), file.toString());
        }
    }
}
