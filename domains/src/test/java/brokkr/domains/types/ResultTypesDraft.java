package brokkr.domains.types;

import brokkr.tool.ResultTypeInference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Drafts each tau2 domain's tool result types from the shared conformance corpora (every successful result of
 * the gold and fuzz records): {@code ResultTypesDraft CONFORMANCE_DIR OUT_DIR}. The checked-in files started as
 * this draft and were curated by hand (descriptions, ids, enums the data underdetermines); run it to see what the
 * data says after a corpus changes, then merge by hand.
 */
public final class ResultTypesDraft {
    public static void main(String[] args) throws IOException {
        Path conformance = Path.of(args[0]), out = Path.of(args[1]);
        for (String domain : List.of("retail", "airline", "telecom", "banking_knowledge")) {
            Map<String, List<Object>> results =
                    ResultCorpus.results(conformance.resolve("tau2").resolve(domain));
            Map<String, List<String>> entities = ENTITIES.getOrDefault(domain, Map.of());
            Map<String, Object> defs = new LinkedHashMap<>();
            Map<String, String> refs = new LinkedHashMap<>();
            for (var e : new TreeMap<>(entities).entrySet()) {
                List<Object> seen = new ArrayList<>();
                for (String tool : e.getValue()) {
                    seen.addAll(results.getOrDefault("assistant/" + tool, List.of()));
                    refs.put("assistant/" + tool, "#/$defs/" + e.getKey());
                }
                defs.put(e.getKey(), ResultTypeInference.infer(seen));
            }
            Map<String, Object> tools = new LinkedHashMap<>();
            for (var e : new TreeMap<>(results).entrySet()) {
                String ref = refs.get(e.getKey());
                tools.put(e.getKey(), ref != null ? Map.of("$ref", ref) : ResultTypeInference.infer(e.getValue()));
            }
            Map<String, Object> file = new LinkedHashMap<>();
            file.put("$defs", defs);
            file.put("tools", tools);
            Files.createDirectories(out.resolve(domain));
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(out.resolve(domain).resolve("result-types.json").toFile(), file);
            System.out.println(domain + ": " + tools.size() + " tools, " + defs.size() + " shared types");
        }
        Map<String, List<Object>> bfcl =
                ResultCorpus.bfclResults(conformance.resolve("bfcl").resolve("multi_turn"));
        Map<String, Object> tools = new LinkedHashMap<>();
        for (var e : new TreeMap<>(bfcl).entrySet()) tools.put(e.getKey(), ResultTypeInference.infer(e.getValue()));
        // Functions no corpus saw return: typed as anything, and said so.
        for (String cls : brokkr.domains.bfcl.multiturn.Backends.NAMES) {
            for (String f : new TreeMap<>(
                            brokkr.domains.bfcl.multiturn.Backends.get(cls).methods())
                    .keySet()) {
                tools.putIfAbsent(
                        cls + "/" + f, Map.of("description", "never seen to return in the shared corpora: any value"));
            }
        }
        tools = new TreeMap<>(tools);
        Files.createDirectories(out.resolve("bfcl-multi-turn"));
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(
                        out.resolve("bfcl-multi-turn")
                                .resolve("result-types.json")
                                .toFile(),
                        Map.of("$defs", Map.of(), "tools", tools));
        System.out.println("bfcl multi-turn: " + tools.size() + " functions");
    }

    /** The tools of each domain that return one entity: its type is drafted from all of their results together. */
    static final Map<String, Map<String, List<String>>> ENTITIES = Map.of(
            "retail",
            Map.of(
                    "order",
                    List.of(
                            "get_order_details",
                            "cancel_pending_order",
                            "exchange_delivered_order_items",
                            "modify_pending_order_address",
                            "modify_pending_order_items",
                            "modify_pending_order_payment",
                            "return_delivered_order_items"),
                    "user",
                    List.of("get_user_details", "modify_user_address"),
                    "product",
                    List.of("get_product_details")),
            "airline",
            Map.of(
                    "reservation",
                    List.of(
                            "book_reservation",
                            "cancel_reservation",
                            "get_reservation_details",
                            "update_reservation_baggages",
                            "update_reservation_flights",
                            "update_reservation_passengers"),
                    "user",
                    List.of("get_user_details")),
            "telecom",
            Map.of(
                    "customer",
                    List.of("get_customer_by_id", "get_customer_by_phone"),
                    "line_change",
                    List.of("resume_line", "suspend_line")));

    private ResultTypesDraft() {}
}
