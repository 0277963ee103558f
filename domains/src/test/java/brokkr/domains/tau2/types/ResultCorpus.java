package brokkr.domains.tau2.types;

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

    /** A result as the REPL's {@code parse} reads it; a text that is not JSON stays text. */
    static Object value(String content) {
        try {
            return MiniJson.parse(content);
        } catch (IllegalArgumentException notJson) {
            return content;
        }
    }
}
