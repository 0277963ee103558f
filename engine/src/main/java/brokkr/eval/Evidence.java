package brokkr.eval;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an attempt saw, kept because the forked world is discarded: the setup's evidence, the
 * transcript, the protocol's output and termination, the hash of the final world (tau2's
 * {@code get_dict_hash} form, null when the run did not get that far), the exact model requests by
 * role (never credentials: {@link ModelCall} holds request bodies only; a call served from a
 * model-call cache says so, {@code cache_hit}), token usage by role (in role order), phase timings,
 * the evaluator's details and what the protocol counted of its agent ({@link Interaction.Counts}, null
 * when it counted nothing; stored under {@code counts} only when present, so other evidence reads and
 * writes as it always has) and the base URL each role's model was reached at ({@code endpoints}, role to
 * URL, never credentials: {@link brokkr.conversation.Candidate#baseUrl}; stored only when a model was
 * reached at one, so a scripted run's evidence reads as before).
 */
public record Evidence(
        PyDict setup,
        Value transcript,
        PyDict output,
        String termination,
        String finalWorldSha256,
        List<RecordedCall> modelCalls,
        Map<String, Usage> usage,
        PyDict timings,
        PyDict details,
        Interaction.Counts counts,
        Map<String, String> endpoints) {

    /** One model-call attempt and the role it served ({@code agent}, {@code user}, {@code judge}). */
    public record RecordedCall(String role, ModelCall call) {}

    public static final String AGENT = "agent";

    public Evidence {
        setup = setup == null ? PyDict.empty() : setup;
        transcript = transcript == null ? PyNone.NONE : transcript;
        output = output == null ? PyDict.empty() : output;
        termination = termination == null ? "" : termination;
        modelCalls = List.copyOf(modelCalls);
        // Sorted by role: Map.copyOf's iteration order is salted per JVM, and transcripts print usage in map order.
        usage = Collections.unmodifiableSortedMap(new TreeMap<>(usage));
        timings = timings == null ? PyDict.empty() : timings;
        details = details == null ? PyDict.empty() : details;
        endpoints = Collections.unmodifiableSortedMap(new TreeMap<>(endpoints == null ? Map.of() : endpoints));
    }

    /** Evidence that records no endpoint. */
    public Evidence(
            PyDict setup,
            Value transcript,
            PyDict output,
            String termination,
            String finalWorldSha256,
            List<RecordedCall> modelCalls,
            Map<String, Usage> usage,
            PyDict timings,
            PyDict details,
            Interaction.Counts counts) {
        this(
                setup,
                transcript,
                output,
                termination,
                finalWorldSha256,
                modelCalls,
                usage,
                timings,
                details,
                counts,
                null);
    }

    /** This evidence with {@code endpoints} recorded (role to base URL). */
    public Evidence withEndpoints(Map<String, String> endpoints) {
        return new Evidence(
                setup,
                transcript,
                output,
                termination,
                finalWorldSha256,
                modelCalls,
                usage,
                timings,
                details,
                counts,
                endpoints);
    }

    /** Evidence of a protocol that counted nothing. */
    public Evidence(
            PyDict setup,
            Value transcript,
            PyDict output,
            String termination,
            String finalWorldSha256,
            List<RecordedCall> modelCalls,
            Map<String, Usage> usage,
            PyDict timings,
            PyDict details) {
        this(setup, transcript, output, termination, finalWorldSha256, modelCalls, usage, timings, details, null);
    }

    public static final Evidence EMPTY = new Evidence(null, null, null, null, null, List.of(), Map.of(), null, null);

    /** The candidate's own tokens (its cost); the user simulator's and judge's are kept separately. */
    public Usage agentUsage() {
        return usage.getOrDefault(AGENT, Usage.ZERO);
    }

    public PyDict toValue() {
        PyDict.Builder u = PyDict.builder();
        usage.forEach((role, x) -> u.put(role, usageValue(x)));
        List<Value> calls = new ArrayList<>();
        for (RecordedCall rc : modelCalls) {
            ModelCall c = rc.call();
            PyDict.Builder call = PyDict.builder()
                    .put("role", rc.role())
                    .put("provider", c.provider())
                    .put("model", c.model())
                    .put("attempt", c.attempt())
                    .put("request", nullable(c.requestBody()))
                    .put("status", c.status())
                    .put("response", nullable(c.responseBody()))
                    .put("error", nullable(c.error()))
                    .put("started_at_ms", c.startedAtMillis())
                    .put("duration_ms", c.durationMillis());
            // Only hits carry the flag, so records of sent calls read as they always have.
            if (c.cacheHit()) call.put("cache_hit", true);
            calls.add(call.build());
        }
        PyDict.Builder b = PyDict.builder()
                .put("setup", setup)
                .put("transcript", transcript)
                .put("output", output)
                .put("termination", termination)
                .put("final_world_sha256", nullable(finalWorldSha256))
                .put("model_calls", PyList.of(calls))
                .put("usage", u.build())
                .put("timings", timings)
                .put("details", details);
        if (counts != null) b.put("counts", counts.toValue());
        if (!endpoints.isEmpty()) {
            PyDict.Builder e = PyDict.builder();
            endpoints.forEach(e::put);
            b.put("endpoints", e.build());
        }
        return b.build();
    }

    public static Evidence fromValue(Value v) {
        PyDict d = v.asDict();
        List<RecordedCall> calls = new ArrayList<>();
        for (Value cv : d.get("model_calls").asList()) {
            PyDict c = cv.asDict();
            calls.add(new RecordedCall(
                    c.get("role").asStr(),
                    new ModelCall(
                            c.get("provider").asStr(),
                            c.get("model").asStr(),
                            (int) num(c.get("attempt")),
                            str(c.get("request")),
                            (int) num(c.get("status")),
                            str(c.get("response")),
                            str(c.get("error")),
                            num(c.get("started_at_ms")),
                            num(c.get("duration_ms")),
                            c.get("cache_hit") instanceof PyBool hit && hit.value())));
        }
        Map<String, Usage> usage = new TreeMap<>();
        d.get("usage")
                .asDict()
                .entries()
                .forEach(e -> usage.put(e.getKey(), usageFrom(e.getValue().asDict())));
        return new Evidence(
                d.get("setup").asDict(),
                d.get("transcript"),
                d.get("output").asDict(),
                d.get("termination").asStr(),
                str(d.get("final_world_sha256")),
                calls,
                usage,
                d.get("timings").asDict(),
                d.get("details").asDict(),
                d.get("counts") instanceof PyDict c ? Interaction.Counts.fromValue(c) : null,
                endpoints(d.get("endpoints")));
    }

    /**
     * Tokens as records keep them: {@code input_tokens} (cache reads and writes included) and {@code output_tokens},
     * then {@code cache_read_tokens} and {@code cache_write_tokens} only when the provider reported some, so that
     * records of uncached calls read and write as they did before those were recorded.
     */
    public static PyDict usageValue(Usage x) {
        PyDict.Builder b = PyDict.builder().put("input_tokens", x.inputTokens()).put("output_tokens", x.outputTokens());
        if (x.cached()) b.put("cache_read_tokens", x.cacheReadTokens()).put("cache_write_tokens", x.cacheWriteTokens());
        // Only when reported, so that the records of wires without it stay byte for byte what they were.
        if (x.reasoningTokens() > 0) b.put("reasoning_tokens", x.reasoningTokens());
        return b.build();
    }

    /** Tokens read from {@link #usageValue}'s form; a record without the cache or reasoning keys read none. */
    public static Usage usageFrom(PyDict u) {
        return new Usage(
                num(u.get("input_tokens")),
                num(u.get("output_tokens")),
                u.get("cache_read_tokens") instanceof PyInt r ? r.longValue() : 0,
                u.get("cache_write_tokens") instanceof PyInt w ? w.longValue() : 0,
                u.get("reasoning_tokens") instanceof PyInt r ? r.longValue() : 0);
    }

    private static Map<String, String> endpoints(Value v) {
        Map<String, String> out = new TreeMap<>();
        if (v instanceof PyDict d)
            d.entries().forEach(e -> out.put(e.getKey(), e.getValue().asStr()));
        return out;
    }

    public static Evidence parse(String json) {
        return fromValue(Json.parse(json));
    }

    private static Value nullable(String s) {
        return s == null ? PyNone.NONE : Value.str(s);
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }

    private static long num(Value v) {
        return ((PyInt) v).longValue();
    }
}
