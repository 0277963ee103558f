package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * pydantic v2 core schemas as a model's fields use them, validating Python values in lax mode with
 * pydantic-core 2.27.2's coercions and line errors (rendered by {@link Pydantic}): {@code str},
 * {@code int}, {@code float}, {@code bool}, {@code Literal[...]} of strs, {@code str}-mixin {@code Enum}s,
 * {@code list[T]}, {@code dict[K, V]}, {@code Optional[T]}, smart {@code Union[...]}, {@code BaseModel}
 * subclasses, and ISO {@code date} / {@code datetime} text.
 *
 * <p>Values whose Python type has no {@link Value} of its own are kept as what {@code json.dumps(...,
 * default=str)} writes for them, which is how upstream hashes and serializes a dump: an enum member as
 * its value (a {@code str} subclass), a date or datetime as its {@code str()}.
 *
 * <p>A validated model is its {@code model_dump()}: a dict of its fields in declaration order, extra
 * inputs dropped (or refused with {@code extra="forbid"}), defaults filled in. Re-validating such a
 * dump gives it back unchanged, which stands in for pydantic accepting a model instance as it is
 * ({@code revalidate_instances="never"}).
 */
public sealed interface PydanticSchema {

    /** The validated value, or null after appending the input's line errors to {@code errors}. */
    Value validate(Value input, Loc loc, List<Pydantic.LineError> errors);

    /** The field's JSON schema as {@code model_json_schema()} writes it (keys sorted later by the caller). */
    default PyDict jsonSchema() {
        throw new UnsupportedOperationException("no JSON schema for " + this);
    }

    /**
     * A location in the input: items from the outermost in; shown joined by '.', a str item holding a
     * '.' in backticks (pydantic-core {@code Location}'s Display).
     */
    record Loc(Loc parent, Object item) {
        public static final Loc ROOT = new Loc(null, null);

        public Loc at(String key) {
            return new Loc(this, key);
        }

        public Loc at(int index) {
            return new Loc(this, index);
        }

        public String display() {
            if (parent == null) return "";
            String head = parent.display();
            String me = item instanceof String s && s.contains(".") ? "`" + s + "`" : String.valueOf(item);
            return head.isEmpty() ? me : head + "." + me;
        }
    }

    private static Value fail(List<Pydantic.LineError> errors, Loc loc, String type, String msg, Value input) {
        errors.add(new Pydantic.LineError(loc.display(), msg, type, input));
        return null;
    }

    StrSchema STR = new StrSchema();
    IntSchema INT = new IntSchema();
    FloatSchema FLOAT = new FloatSchema();
    BoolSchema BOOL = new BoolSchema();
    DateSchema DATE = new DateSchema();
    DateTimeSchema DATETIME = new DateTimeSchema();

    /** {@code str}: only a str (lax mode would also take bytes, which Python values here never are). */
    record StrSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            return input instanceof PyStr
                    ? input
                    : fail(errors, loc, "string_type", "Input should be a valid string", input);
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of("type", "string");
        }
    }

    /** {@code int}: an int; a bool as 0/1; a str by {@code str_as_int}; an integral float. */
    record IntSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            PydanticLax.Coerced c = switch (input) {
                case PyInt i -> PydanticLax.Coerced.ok(i);
                case PyBool b -> PydanticLax.Coerced.ok(PyInt.of(b.value() ? 1 : 0));
                case PyStr s -> PydanticLax.strAsInt(s.value());
                case PyFloat f -> PydanticLax.floatAsInt(f.value());
                default -> PydanticLax.Coerced.error("int_type");
            };
            return c.value() != null ? c.value() : fail(errors, loc, c.errorType(), message(c.errorType()), input);
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of("type", "integer");
        }
    }

    /** {@code float}: a float; an int or bool converted; a str by {@code str_as_float} (inf and nan allowed). */
    record FloatSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            PydanticLax.Coerced c = switch (input) {
                case PyFloat f -> PydanticLax.Coerced.ok(f);
                case PyStr s -> PydanticLax.strAsFloat(s.value());
                case PyBool b -> PydanticLax.Coerced.ok(new PyFloat(b.value() ? 1.0 : 0.0));
                case PyInt i -> {
                    double d = i.value().doubleValue();
                    // PyFloat_AsDouble raises OverflowError, so pyo3's extract::<f64> fails: float_type.
                    yield Double.isInfinite(d)
                            ? PydanticLax.Coerced.error("float_type")
                            : PydanticLax.Coerced.ok(new PyFloat(d));
                }
                default -> PydanticLax.Coerced.error("float_type");
            };
            return c.value() != null ? c.value() : fail(errors, loc, c.errorType(), message(c.errorType()), input);
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of("type", "number");
        }
    }

    /**
     * {@code bool} (pydantic-core {@code validate_bool}, lax): a bool; a str by {@code str_as_bool}
     * (exact, ASCII case-insensitive words, no trimming); an int 0 or 1; a float 0.0 or 1.0. Other ints
     * of i64 and floats {@code float_as_int} takes are {@code bool_parsing}; anything else (a fractional,
     * non-finite or out-of-i64 number included) is {@code bool_type}.
     */
    record BoolSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            String error = switch (input) {
                case PyBool b -> null;
                case PyStr s -> strAsBool(s.value()) == null ? "bool_parsing" : null;
                // extract_i64; past i64 the f64 path's float_as_int fails (or the conversion overflows): bool_type
                case PyInt i ->
                    i.value().bitLength() > 63
                            ? "bool_type"
                            : i.value().signum() >= 0 && i.value().bitLength() <= 1 ? null : "bool_parsing";
                case PyFloat f ->
                    PydanticLax.floatAsInt(f.value()).value() == null
                            ? "bool_type"
                            : f.value() == 0.0 || f.value() == 1.0 ? null : "bool_parsing";
                default -> "bool_type";
            };
            if (error != null) return fail(errors, loc, error, message(error), input);
            return switch (input) {
                case PyBool b -> b;
                case PyStr s -> PyBool.of(strAsBool(s.value()));
                case PyInt i -> PyBool.of(i.value().signum() != 0);
                case PyFloat f -> PyBool.of(f.value() != 0.0);
                default -> throw new AssertionError(input);
            };
        }

        /** {@code str_as_bool}: null when the text is none of the words. */
        static Boolean strAsBool(String s) {
            if (s.equals("0")) return false;
            if (s.equals("1")) return true;
            for (String w : List.of("f", "n", "no", "off", "false"))
                if (s.equalsIgnoreCase(w) && isAscii(s)) return false;
            for (String w : List.of("t", "y", "on", "yes", "true"))
                if (s.equalsIgnoreCase(w) && isAscii(s)) return true;
            return null;
        }

        private static boolean isAscii(String s) {
            return s.chars().allMatch(c -> c < 0x80);
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of("type", "boolean");
        }
    }

    /**
     * A {@code class Name(str, Enum)} field (pydantic-core's enum validator, lax): a str equal to a
     * member's value gives that member, kept as its value; anything else is {@code enum}. Its JSON schema
     * is the class's {@code $defs} entry.
     */
    record EnumSchema(String className, List<String> values) implements PydanticSchema {
        public EnumSchema {
            values = List.copyOf(values);
        }

        public static EnumSchema of(String className, String... values) {
            return new EnumSchema(className, List.of(values));
        }

        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (input instanceof PyStr s && values.contains(s.value())) return input;
            return fail(errors, loc, "enum", "Input should be " + LiteralSchema.expectedRepr(values), input);
        }

        /** {@code repr(member)}: {@code <Name.MEMBER: 'value'>}, with the member's Python name. */
        public String memberRepr(String memberName, String value) {
            if (!values.contains(value)) throw new IllegalArgumentException(value + " is not a " + className);
            return "<" + className + "." + memberName + ": " + PyRepr.reprStr(value) + ">";
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of(
                    "enum",
                    PyList.of(values.stream().map(v -> (Value) new PyStr(v)).toList()),
                    "title",
                    className,
                    "type",
                    "string");
        }
    }

    /**
     * {@code datetime.date} from ISO text {@code YYYY-MM-DD} (the form upstream's data files use), kept
     * as {@code str(date)}, the same text. Other input is refused ({@code date_type}); pydantic's lax
     * date parsing of numbers and other formats is not transcribed.
     */
    record DateSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (input instanceof PyStr s) {
                try {
                    return new PyStr(LocalDate.parse(s.value()).toString());
                } catch (DateTimeParseException e) {
                    // fall through
                }
            }
            return fail(errors, loc, "date_type", "Input should be a valid date", input);
        }
    }

    /**
     * {@code datetime.datetime} from ISO text ({@code YYYY-MM-DD}, {@code YYYY-MM-DDTHH:MM[:SS[.ffffff]]}
     * or with a space), naive, kept as {@code str(datetime)}: {@code YYYY-MM-DD HH:MM:SS[.ffffff]}. Other
     * input is refused ({@code datetime_type}); pydantic's other lax forms are not transcribed.
     */
    record DateTimeSchema() implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (input instanceof PyStr s) {
                String t = s.value();
                try {
                    LocalDateTime dt = t.length() == 10
                            ? LocalDate.parse(t).atStartOfDay()
                            : LocalDateTime.parse(
                                    t.length() > 10 && t.charAt(10) == ' '
                                            ? t.substring(0, 10) + "T" + t.substring(11)
                                            : t);
                    return new PyStr(str(dt));
                } catch (DateTimeParseException e) {
                    // fall through
                }
            }
            return fail(errors, loc, "datetime_type", "Input should be a valid datetime", input);
        }

        /** {@code str(datetime)}: {@code isoformat(sep=' ')}, microseconds only when non-zero. */
        public static String str(LocalDateTime dt) {
            String base = String.format(
                    Locale.ROOT, "%s %02d:%02d:%02d", dt.toLocalDate(), dt.getHour(), dt.getMinute(), dt.getSecond());
            int micros = dt.getNano() / 1000;
            return micros == 0 ? base : base + String.format(Locale.ROOT, ".%06d", micros);
        }
    }

    /** {@code Literal["a", "b", ...]} of strs: an equal str, nothing else. */
    record LiteralSchema(List<String> expected) implements PydanticSchema {
        public LiteralSchema {
            expected = List.copyOf(expected);
        }

        public static LiteralSchema of(String... values) {
            return new LiteralSchema(List.of(values));
        }

        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (input instanceof PyStr s && expected.contains(s.value())) return input;
            return fail(errors, loc, "literal_error", "Input should be " + expectedRepr(), input);
        }

        String expectedRepr() {
            return expectedRepr(expected);
        }

        /** pydantic-core {@code expected_repr_name}: reprs joined by ", " with " or " before the last. */
        static String expectedRepr(List<String> expected) {
            List<String> reprs = expected.stream().map(PyRepr::reprStr).toList();
            if (reprs.size() == 1) return reprs.get(0);
            return String.join(", ", reprs.subList(0, reprs.size() - 1)) + " or " + reprs.get(reprs.size() - 1);
        }

        @Override
        public PyDict jsonSchema() {
            return PyDict.of(
                    "enum",
                    PyList.of(expected.stream().map(v -> (Value) new PyStr(v)).toList()),
                    "type",
                    "string");
        }
    }

    /** {@code list[T]}: a list (a str or dict is not one), every item validated, all items' errors reported. */
    record ListSchema(PydanticSchema items) implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (!(input instanceof PyList l))
                return fail(errors, loc, "list_type", "Input should be a valid list", input);
            List<Value> out = new ArrayList<>(l.size());
            boolean ok = true;
            for (int i = 0; i < l.size(); i++) {
                Value v = items.validate(l.get(i), loc.at(i), errors);
                if (v == null) ok = false;
                else out.add(v);
            }
            return ok ? PyList.of(out) : null;
        }
    }

    /** {@code dict[K, V]}: a dict, each key (errors at {@code key.[key]}) and value validated. */
    record DictSchema(PydanticSchema keys, PydanticSchema values) implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (!(input instanceof PyDict d))
                return fail(errors, loc, "dict_type", "Input should be a valid dictionary", input);
            PyDict.Builder b = PyDict.builder();
            boolean ok = true;
            for (Map.Entry<String, Value> e : d.entries()) {
                Value k =
                        keys.validate(new PyStr(e.getKey()), loc.at(e.getKey()).at("[key]"), errors);
                Value v = values.validate(e.getValue(), loc.at(e.getKey()), errors);
                if (k == null || v == null) ok = false;
                else b.put(k.asStr(), v);
            }
            return ok ? b.build() : null;
        }
    }

    /** {@code Optional[T]}: None, or what {@code T} accepts (T's errors as they are). */
    record NullableSchema(PydanticSchema inner) implements PydanticSchema {
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            return input instanceof PyNone ? input : inner.validate(input, loc, errors);
        }
    }

    /**
     * A smart-mode {@code Union[...]} whose members accept disjoint inputs (models told apart by a
     * {@code Literal} field): the first member that validates; when none does, every member's errors,
     * each under the member's tag (a model's class name).
     */
    record UnionSchema(List<ModelSchema> choices) implements PydanticSchema {
        public UnionSchema {
            choices = List.copyOf(choices);
        }

        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            List<Pydantic.LineError> all = new ArrayList<>();
            for (ModelSchema m : choices) {
                List<Pydantic.LineError> mine = new ArrayList<>();
                Value v = m.validate(input, loc.at(m.name()), mine);
                if (v != null) return v;
                all.addAll(mine);
            }
            errors.addAll(all);
            return null;
        }
    }

    /** A model field: its name, schema, default (null: required) and {@code Field(description=...)}. */
    record Field(String name, PydanticSchema schema, Value dflt, String description) {
        public static Field required(String name, PydanticSchema schema, String description) {
            return new Field(name, schema, null, description);
        }

        public static Field optional(String name, PydanticSchema schema, Value dflt, String description) {
            return new Field(name, schema, dflt, description);
        }
    }

    /** A {@code BaseModel} subclass: fields in declaration order (inherited ones first, overrides in place). */
    record ModelSchema(String name, List<Field> fields, boolean forbidExtra) implements PydanticSchema {
        public ModelSchema {
            fields = List.copyOf(fields);
        }

        public static ModelSchema of(String name, Field... fields) {
            return new ModelSchema(name, List.of(fields), false);
        }

        /** A dict input field by field, then its extra keys; anything else is {@code model_type}. */
        @Override
        public Value validate(Value input, Loc loc, List<Pydantic.LineError> errors) {
            if (!(input instanceof PyDict d)) {
                return fail(
                        errors, loc, "model_type", "Input should be a valid dictionary or instance of " + name, input);
            }
            PyDict.Builder b = PyDict.builder();
            boolean ok = true;
            for (Field f : fields) {
                Value given = d.get(f.name());
                if (given == null) {
                    if (f.dflt() == null) {
                        fail(errors, loc.at(f.name()), "missing", "Field required", d);
                        ok = false;
                    } else {
                        b.put(f.name(), f.dflt());
                    }
                    continue;
                }
                Value v = f.schema().validate(given, loc.at(f.name()), errors);
                if (v == null) ok = false;
                else b.put(f.name(), v);
            }
            if (forbidExtra) {
                for (Map.Entry<String, Value> e : d.entries()) {
                    if (field(e.getKey()) == null) {
                        fail(
                                errors,
                                loc.at(e.getKey()),
                                "extra_forbidden",
                                "Extra inputs are not permitted",
                                e.getValue());
                        ok = false;
                    }
                }
            }
            return ok ? b.build() : null;
        }

        public Field field(String fieldName) {
            for (Field f : fields) if (f.name().equals(fieldName)) return f;
            return null;
        }

        /** {@code Model(**kwargs)}: the model's dump, or {@code ValidationError} titled with the class name. */
        public PyDict create(PyDict kwargs) {
            return (PyDict) validatePython(kwargs);
        }

        /** {@code Model.model_validate(obj)}. */
        public Value validatePython(Value obj) {
            List<Pydantic.LineError> errors = new ArrayList<>();
            Value v = validate(obj, Loc.ROOT, errors);
            if (v == null) throw Pydantic.validationError(name, errors);
            return v;
        }

        /**
         * The model's entry in a JSON schema's {@code $defs} as pydantic's {@code GenerateJsonSchema}
         * sorts it: {@code properties} (in field order, each property's keys sorted), {@code required},
         * {@code title}, {@code type}.
         */
        @Override
        public PyDict jsonSchema() {
            PyDict.Builder props = PyDict.builder();
            List<Value> required = new ArrayList<>();
            for (Field f : fields) {
                PyDict.Builder p = PyDict.builder();
                if (f.description() != null) p.put("description", f.description());
                for (Map.Entry<String, Value> e : f.schema().jsonSchema().entries()) p.put(e.getKey(), e.getValue());
                p.put("title", fieldTitle(f.name()));
                props.put(f.name(), sortedKeys(p.build()));
                if (f.dflt() == null) required.add(new PyStr(f.name()));
            }
            PyDict.Builder b = PyDict.builder().put("properties", props.build());
            if (!required.isEmpty()) b.put("required", PyList.of(required));
            return b.put("title", name).put("type", "object").build();
        }
    }

    /** pydantic's default field title: {@code name.replace("_", " ").title()} (Python {@code str.title}). */
    static String fieldTitle(String name) {
        String s = name.replace('_', ' ');
        StringBuilder sb = new StringBuilder(s.length());
        boolean prevCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            boolean cased = Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
            if (cased) sb.appendCodePoint(prevCased ? Character.toLowerCase(cp) : Character.toTitleCase(cp));
            else sb.appendCodePoint(cp);
            prevCased = cased;
        }
        return sb.toString();
    }

    private static PyDict sortedKeys(PyDict d) {
        List<String> keys = new ArrayList<>(d.keys());
        keys.sort(PyStrings::compare);
        PyDict.Builder b = PyDict.builder();
        for (String k : keys) b.put(k, d.get(k));
        return b.build();
    }

    /** pydantic-core's message for each error type this schema raises. */
    private static String message(String type) {
        return switch (type) {
            case "int_type" -> "Input should be a valid integer";
            case "int_parsing" -> "Input should be a valid integer, unable to parse string as an integer";
            case "int_from_float" -> "Input should be a valid integer, got a number with a fractional part";
            case "int_parsing_size" -> "Unable to parse input string as an integer, exceeded maximum size";
            case "finite_number" -> "Input should be a finite number";
            case "float_type" -> "Input should be a valid number";
            case "float_parsing" -> "Input should be a valid number, unable to parse string as a number";
            case "bool_type" -> "Input should be a valid boolean";
            case "bool_parsing" -> "Input should be a valid boolean, unable to interpret input";
            default -> throw new IllegalArgumentException("no message for " + type);
        };
    }
}
