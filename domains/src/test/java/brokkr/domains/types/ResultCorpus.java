package brokkr.domains.types;

import brokkr.sandbox.MiniJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every successful tool result of a tau2 domain's shared corpora, by {@code requestor/name}, as the REPL parses it. */
final class ResultCorpus {
    private ResultCorpus() {}

    /** The corpora with tool results (banking's KB_search is only in its own). */
    static final List<String> FILES = List.of("gold.jsonl", "fuzz-seed11.jsonl", "kb-search-seed11.jsonl");

    static Map<String, List<Object>> results(Path domainDir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (String file : FILES) {
            if (!Files.exists(domainDir.resolve(file))) continue;
            try (BufferedReader r = Files.newBufferedReader(domainDir.resolve(file))) {
                for (String line; (line = r.readLine()) != null; ) {
                    JsonNode rec = json.readTree(line);
                    JsonNode calls = rec.has("actions") ? rec.get("actions") : rec.get("calls");
                    for (JsonNode c : calls) {
                        if (c.path("error").asBoolean(false)) continue;
                        String key = c.get("requestor").asText() + "/"
                                + c.get("name").asText();
                        out.computeIfAbsent(key, k -> new ArrayList<>())
                                .add(value(c.get("content").asText()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Every result of the BFCL multi-turn corpora ({@code gold-exec}, {@code fuzz-seed11}) that is not an exception,
     * by {@code Class/function}: a call's function is its text's name before {@code (} (a dotted name's last part),
     * its class the one of the record's classes that has the method. A call that is an expression of several calls
     * (a tuple) is left out: its result is not one function's.
     */
    static Map<String, List<Object>> bfclResults(Path multiTurnDir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (String file : List.of("gold-exec.jsonl.gz", "fuzz-seed11.jsonl.gz")) {
            try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(
                    new java.util.zip.GZIPInputStream(Files.newInputStream(multiTurnDir.resolve(file))),
                    java.nio.charset.StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    JsonNode rec = json.readTree(line);
                    List<String> classes = new ArrayList<>();
                    rec.get("initial_state_sha").fieldNames().forEachRemaining(classes::add);
                    for (JsonNode turn : rec.get("turns")) {
                        List<JsonNode> calls = new ArrayList<>();
                        if (turn.has("calls")) turn.get("calls").forEach(calls::add);
                        if (turn.has("steps")) for (JsonNode step : turn.get("steps")) step.forEach(calls::add);
                        for (JsonNode c : calls) {
                            String call = c.get("call").asText().strip(),
                                    result = c.get("result").asText();
                            if (result.startsWith("Error during execution") || !call.matches("[\\w.]+\\(.*\\)"))
                                continue;
                            if (call.indexOf(')') < call.length() - 1 && call.matches(".*\\)\\s*,.*")) continue;
                            String name = call.substring(0, call.indexOf('('));
                            if (name.contains(".")) name = name.substring(name.lastIndexOf('.') + 1);
                            String owner = null;
                            for (String cls : classes) {
                                var bc = brokkr.domains.bfcl.multiturn.Backends.find(cls);
                                if (bc.isPresent() && bc.get().methods().containsKey(name)) owner = cls;
                            }
                            if (owner == null) continue;
                            out.computeIfAbsent(owner + "/" + name, k -> new ArrayList<>())
                                    .add(value(result));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** A result as the REPL's {@code parse} reads it; a text that is not JSON stays text. */
    static Object value(String content) {
        try {
            return MiniJson.parse(content);
        } catch (IllegalArgumentException notJson) {
            return content;
        }
    }
}
