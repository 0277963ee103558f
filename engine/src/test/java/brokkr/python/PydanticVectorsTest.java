package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.python.PydanticSchema.DictSchema;
import brokkr.python.PydanticSchema.Field;
import brokkr.python.PydanticSchema.ListSchema;
import brokkr.python.PydanticSchema.LiteralSchema;
import brokkr.python.PydanticSchema.ModelSchema;
import brokkr.python.PydanticSchema.NullableSchema;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every validation pydantic wrote (gen_pydantic_vectors.py) must come out the same: the dump, or the exact ValidationError text. */
class PydanticVectorsTest {
    static final ModelSchema ITEM = ModelSchema.of(
            "Item", Field.required("name", PydanticSchema.STR, null), Field.required("qty", PydanticSchema.INT, null));
    static final ModelSchema FORBID = new ModelSchema(
            "Forbid",
            List.of(
                    Field.required("a", PydanticSchema.STR, null),
                    Field.optional("b", PydanticSchema.FLOAT, new PyFloat(1.5), null),
                    Field.optional("c", new NullableSchema(PydanticSchema.STR), PyNone.NONE, null)),
            true);

    static final PydanticSchema.EnumSchema NAMES = PydanticSchema.EnumSchema.of("Names", "internet", "broken");
    static final ModelSchema SETTINGS = new ModelSchema(
            "Settings",
            List.of(
                    Field.optional("name", NAMES, new PyStr("internet"), null),
                    Field.optional("reset", PydanticSchema.BOOL, PyBool.FALSE, null),
                    Field.optional("port", new NullableSchema(PydanticSchema.INT), PyNone.NONE, null)),
            true);

    static final Map<String, PydanticSchema> FIELD_TYPES = Map.ofEntries(
            Map.entry("str", PydanticSchema.STR),
            Map.entry("int", PydanticSchema.INT),
            Map.entry("float", PydanticSchema.FLOAT),
            Map.entry("literal1", LiteralSchema.of("a.b")),
            Map.entry("literal2", LiteralSchema.of("yes", "no")),
            Map.entry("literal3", LiteralSchema.of("business", "economy", "basic_economy")),
            Map.entry("optional_str", new NullableSchema(PydanticSchema.STR)),
            Map.entry("list_int", new ListSchema(PydanticSchema.INT)),
            Map.entry("list_item", new ListSchema(ITEM)),
            Map.entry("dict_cabin_int", new DictSchema(LiteralSchema.of("x", "y"), PydanticSchema.INT)),
            Map.entry("dict_str_item", new DictSchema(PydanticSchema.STR, ITEM)),
            Map.entry("item", ITEM),
            Map.entry("bool", PydanticSchema.BOOL),
            Map.entry("enum", NAMES),
            Map.entry("optional_int", new NullableSchema(PydanticSchema.INT)));

    @Test
    void validationsAreUpstreamsToTheCharacter() {
        List<PyDict> rows = Vectors.read("pydantic.jsonl");
        List<Value> values = rows.getFirst().get("values").asList().stream()
                .map(Vectors::decode)
                .toList();
        List<Value> modelInputs = rows.getFirst().get("model_inputs").asList().stream()
                .map(Vectors::decode)
                .toList();
        Vectors.Check c = new Vectors.Check("pydantic validation");
        for (PyDict row : rows.subList(1, rows.size())) {
            String schema = row.get("schema").asStr();
            int i = ((PyInt) row.get("i")).value().intValueExact();
            ModelSchema model;
            PyDict kwargs;
            if (schema.startsWith("model:")) {
                model = switch (schema) {
                    case "model:forbid" -> FORBID;
                    case "model:settings" -> SETTINGS;
                    default -> ITEM;
                };
                kwargs = modelInputs.get(i).asDict();
            } else {
                model = ModelSchema.of("One", Field.required("v", FIELD_TYPES.get(schema), null));
                kwargs = PyDict.of("v", values.get(i));
            }
            String expected = row.containsKey("err") ? row.get("err").asStr() : tagged(Vectors.decode(row.get("out")));
            String actual;
            try {
                actual = tagged(model.create(kwargs));
            } catch (PyException e) {
                actual = e.str();
            }
            c.eq(expected, actual, schema + "(" + PyRepr.repr(kwargs) + ")");
        }
        c.finish();
    }

    /** Exact and type-tagged: 5 and 5.0 and True differ. */
    private static String tagged(Value v) {
        return switch (v) {
            case PyDict d -> {
                StringBuilder sb = new StringBuilder("{");
                for (var e : d.entries())
                    sb.append(PyRepr.repr(new PyStr(e.getKey())))
                            .append(": ")
                            .append(tagged(e.getValue()))
                            .append(", ");
                yield sb.append('}').toString();
            }
            case PyList l ->
                "["
                        + String.join(
                                ", ",
                                l.stream().map(PydanticVectorsTest::tagged).toList()) + "]";
            default -> v.typeName() + ":" + PyRepr.repr(v);
        };
    }

    @Test
    void rootErrorsHaveNoLocationLine() {
        PyException e = assertThrows(PyException.class, () -> ITEM.validatePython(PyInt.of(5)));
        assertEquals(
                "1 validation error for Item\n  Input should be a valid dictionary or instance of Item "
                        + "[type=model_type, input_value=5, input_type=int]\n    For further information visit "
                        + Pydantic.ERRORS_URL_PREFIX + "model_type",
                e.str());
    }

    @Test
    void modelJsonSchemaIsPydanticsDefsEntry() {
        ModelSchema m = ModelSchema.of(
                "FlightInfo",
                Field.required("flight_number", PydanticSchema.STR, "Flight number, such as 'HAT001'."),
                Field.required("seats", PydanticSchema.INT, null),
                Field.required("cabin", LiteralSchema.of("business", "economy"), "Cabin"));
        assertEquals(
                "{\"properties\": {\"flight_number\": {\"description\": \"Flight number, such as 'HAT001'.\", "
                        + "\"title\": \"Flight Number\", \"type\": \"string\"}, \"seats\": {\"title\": \"Seats\", \"type\": \"integer\"}, "
                        + "\"cabin\": {\"description\": \"Cabin\", \"enum\": [\"business\", \"economy\"], \"title\": \"Cabin\", \"type\": \"string\"}}, "
                        + "\"required\": [\"flight_number\", \"seats\", \"cabin\"], \"title\": \"FlightInfo\", \"type\": \"object\"}",
                PyJson.dumps(m.jsonSchema()));
        assertEquals(Json.parse("{\"type\": \"number\"}"), PydanticSchema.FLOAT.jsonSchema());
    }

    @Test
    void enumMembersAreTheirValuesAndReprAsPython() {
        assertEquals(
                PyDict.of("name", "broken", "reset", false, "port", PyNone.NONE),
                SETTINGS.create(PyDict.of("name", "broken")));
        assertEquals("<Names.BROKEN: 'broken'>", NAMES.memberRepr("BROKEN", "broken"));
        assertThrows(IllegalArgumentException.class, () -> NAMES.memberRepr("X", "x"));
        assertEquals(
                "{\"enum\": [\"internet\", \"broken\"], \"title\": \"Names\", \"type\": \"string\"}",
                PyJson.dumps(NAMES.jsonSchema()));
    }

    @Test
    void datesAreKeptAsTheirPythonStr() {
        ModelSchema m = ModelSchema.of(
                "Dated",
                Field.required("d", PydanticSchema.DATE, null),
                Field.required("t", PydanticSchema.DATETIME, null));
        assertEquals(
                PyDict.of("d", "2025-01-20", "t", "2025-01-20 14:30:00"),
                m.create(PyDict.of("d", "2025-01-20", "t", "2025-01-20T14:30:00")));
        assertEquals(
                PyDict.of("d", "2025-01-20", "t", "2025-01-20 00:00:00"),
                m.create(PyDict.of("d", "2025-01-20", "t", "2025-01-20")));
        assertEquals(
                PyDict.of("d", "2025-01-20", "t", "2025-01-20 14:30:00.000500"),
                m.create(PyDict.of("d", "2025-01-20", "t", "2025-01-20 14:30:00.0005")));
        PyException e = assertThrows(PyException.class, () -> m.create(PyDict.of("d", "20/01/2025", "t", 5)));
        assertEquals(2, e.str().split("For further information").length - 1, e.str());
    }
}
