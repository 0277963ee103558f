package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one task of one benchmark means, content-addressed. It names the task by id only: gold
 * actions and possible answers stay inside the {@link BenchmarkProvider}. Everything a score's
 * meaning depends on is here, so changing any of it is a new definition (new cells), never a resume
 * into old ones: the upstream revision, digests of the data the provider loaded, and every model
 * that takes part in the interaction or the grade (user simulator, judge) under its role.
 *
 * @param options benchmark settings that change the task (e.g. max steps), canonical JSON-able
 */
public record EnvironmentDef(
        String benchmark,
        String upstreamRevision,
        Map<String, String> dataDigests,
        String taskId,
        Map<String, ModelRef> models,
        PyDict options) {
    public EnvironmentDef {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(upstreamRevision, "upstreamRevision");
        Objects.requireNonNull(taskId, "taskId");
        dataDigests = Map.copyOf(dataDigests == null ? Map.of() : dataDigests);
        models = Map.copyOf(models == null ? Map.of() : models);
        options = options == null ? PyDict.empty() : options;
    }

    /** Canonical form (the hashed content); maps sorted so construction order does not matter. */
    public PyDict toValue() {
        PyDict.Builder digests = PyDict.builder();
        new TreeMap<>(dataDigests).forEach(digests::put);
        PyDict.Builder ms = PyDict.builder();
        // A model's operational options (timeout, attempts) are not what a task means (ModelRef.identity).
        new TreeMap<>(models).forEach((role, m) -> ms.put(role, m.identity()));
        return PyDict.builder()
                .put("kind", "environment")
                .put("benchmark", benchmark)
                .put("upstream_revision", upstreamRevision)
                .put("data_digests", digests.build())
                .put("task_id", taskId)
                .put("models", ms.build())
                .put("options", options)
                .build();
    }

    public String id() {
        return ContentHash.of(toValue());
    }

    public static EnvironmentDef fromValue(Value v) {
        PyDict d = v.asDict();
        Map<String, String> digests = new TreeMap<>();
        d.get("data_digests")
                .asDict()
                .entries()
                .forEach(e -> digests.put(e.getKey(), e.getValue().asStr()));
        Map<String, ModelRef> models = new TreeMap<>();
        d.get("models").asDict().entries().forEach(e -> models.put(e.getKey(), ModelRef.fromValue(e.getValue())));
        return new EnvironmentDef(
                d.get("benchmark").asStr(),
                d.get("upstream_revision").asStr(),
                digests,
                d.get("task_id").asStr(),
                models,
                d.get("options").asDict());
    }
}
