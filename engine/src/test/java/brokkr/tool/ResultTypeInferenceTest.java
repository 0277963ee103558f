package brokkr.tool;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.sandbox.MiniJson;
import brokkr.sandbox.TypeCheck;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultTypeInferenceTest {
    private static Map<String, Object> infer(String... json) {
        return ResultTypeInference.infer(
                List.of(json).stream().map(MiniJson::parse).toList());
    }

    @Test
    void idKeyedObjectsBecomeMapsOfOneValueType() {
        var t = infer(
                "{\"1234567\": {\"available\": true, \"price\": 1}, \"7654321\": {\"available\": false, \"price\": 2.5}}",
                "{\"5555555\": {\"available\": true, \"price\": 3}}");
        assertEquals(
                "{\"type\": \"object\", \"x-keyed-by\": \"id\", \"additionalProperties\": {\"type\": \"object\", \"properties\":"
                        + " {\"available\": {\"type\": \"boolean\"}, \"price\": {\"type\": \"number\"}}, \"required\":"
                        + " [\"available\", \"price\"], \"additionalProperties\": false}}",
                MiniJson.write(t));
    }

    @Test
    void aStringFieldNamingDifferentKeySetsMakesAUnion() {
        var t = infer(
                "{\"source\": \"paypal\", \"id\": \"p1\"}",
                "{\"source\": \"gift_card\", \"id\": \"g1\", \"balance\": 10.5}",
                "{\"source\": \"paypal\", \"id\": \"p2\"}");
        assertEquals("source", t.get("x-discriminator"));
        assertEquals(2, ((List<?>) t.get("oneOf")).size());
        assertNull(TypeCheck.firstViolation(
                t, MiniJson.parse("{\"source\": \"gift_card\", \"id\": \"g9\", \"balance\": 1.5}")));
        // the kind the tag names is the one whose violation is told
        assertEquals(
                "$.balance: expected number, got string \"1\"",
                TypeCheck.firstViolation(
                        t, MiniJson.parse("{\"source\": \"gift_card\", \"id\": \"g\", \"balance\": \"1\"}")));
        assertTrue(
                TypeCheck.firstViolation(t, MiniJson.parse("{\"source\": \"paypal\", \"id\": \"p\", \"balance\": 1}"))
                        .contains("unexpected key \"balance\""));
    }

    @Test
    void absentFieldsAreOptionalNullsNullableAndKeysThatVaryAMap() {
        var t = infer("{\"a\": 1, \"b\": null}", "{\"a\": 2, \"b\": \"x\", \"c\": [1, 2]}");
        assertEquals(List.of("a", "b"), t.get("required"));
        assertEquals(List.of("string", "null"), ((Map<?, ?>) ((Map<?, ?>) t.get("properties")).get("b")).get("type"));
        StringBuilder wide = new StringBuilder("[");
        for (int i = 0; i < 12; i++)
            wide.append(i > 0 ? "," : "").append("{\"k").append(i).append("\": \"v\"}");
        var options = ResultTypeInference.infer((List<?>) MiniJson.parse(wide + "]"));
        assertEquals("name", options.get("x-keyed-by"));
    }

    @Test
    void theCheckerNamesThePathOfTheFirstViolation() {
        Map<?, ?> defs = (Map<?, ?>) MiniJson.parse("{\"item\": {\"type\": \"object\", \"properties\": {\"n\":"
                + " {\"type\": \"integer\"}}, \"required\": [\"n\"], \"additionalProperties\": false}}");
        Map<?, ?> list = (Map<?, ?>) MiniJson.parse("{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/item\"}}");
        assertNull(TypeCheck.firstViolation(defs, list, MiniJson.parse("[{\"n\": 1}, {\"n\": 2}]")));
        assertEquals(
                "$[1].n: expected integer, got number 2.5",
                TypeCheck.firstViolation(defs, list, MiniJson.parse("[{\"n\": 1}, {\"n\": 2.5}]")));
        assertEquals(
                "$[0].m: unexpected key \"m\" (keys: [n])",
                TypeCheck.firstViolation(defs, list, MiniJson.parse("[{\"n\": 1, \"m\": 0}]")));
        Map<?, ?> status = (Map<?, ?>) MiniJson.parse("{\"enum\": [\"pending\", \"delivered\"]}");
        assertEquals(
                "$: expected one of [\"pending\", \"delivered\"], got string \"lost\"",
                TypeCheck.firstViolation(status, "lost"));
        assertThrows(
                IllegalArgumentException.class,
                () -> TypeCheck.firstViolation(Map.of(), Map.of("$ref", "#/$defs/none"), 1));
    }
}
