package brokkr.value;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;

/**
 * Reads JSON text into {@link Value}s with Jackson's streaming parser, keeping Python's distinctions:
 * {@code 1} is an int, {@code 1.0} and {@code 1e5} are floats (parsed like Python's {@code float()}),
 * {@code NaN}/{@code Infinity} are accepted as Python's {@code json.loads} accepts them, and a
 * repeated key keeps its first position with the last value.
 */
public final class Json {
    /**
     * The deepest nesting read. CPython's {@code json.loads} stops at about the same depth (a
     * RecursionError at the interpreter's default recursion limit of 1,000), so no upstream file is
     * deeper; {@link #readValue} recurses per level, and 5,000 levels overflowed a thread's default stack
     * (a StackOverflowError, not an error naming the file).
     */
    public static final int MAX_DEPTH = 1_000;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(100_000)
                    .maxNestingDepth(MAX_DEPTH)
                    .build())
            .build();

    private Json() {}

    public static Value parse(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            return readDocument(p);
        } catch (StreamConstraintsException e) {
            throw tooDeep(e);
        } catch (IOException e) {
            throw new JsonFormatException(e.getMessage(), e);
        }
    }

    public static Value read(Path file) {
        try (InputStream in = Files.newInputStream(file);
                JsonParser p = FACTORY.createParser(in)) {
            return readDocument(p);
        } catch (StreamConstraintsException e) {
            throw new JsonLimitException(file + ": " + tooDeep(e).getMessage(), e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new JsonFormatException(file + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }

    public static Value read(byte[] utf8) {
        try (JsonParser p = FACTORY.createParser(utf8)) {
            return readDocument(p);
        } catch (StreamConstraintsException e) {
            throw tooDeep(e);
        } catch (IOException e) {
            throw new JsonFormatException(e.getMessage(), e);
        }
    }

    /**
     * A streaming parser over UTF-8 bytes with this reader's settings, for a caller that reads part of a document
     * itself (e.g. skipping a member it only needs as text) and hands the rest to {@link #readValue}.
     */
    public static JsonParser parser(byte[] utf8) throws IOException {
        return FACTORY.createParser(utf8);
    }

    private static Value readDocument(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) throw new JsonFormatException("empty document", null);
        Value v = readValue(p, t);
        if (p.nextToken() != null) throw new JsonFormatException("extra data after the JSON document", null);
        return v;
    }

    /** Reads the value starting at token {@code t}; iterative over siblings, recursive over depth. */
    public static Value readValue(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                PyDict.Builder b = PyDict.builder();
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    b.put(name, readValue(p, p.nextToken()));
                }
                return b.build();
            }
            case START_ARRAY: {
                ArrayList<Value> items = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) items.add(readValue(p, e));
                return PyList.of(items);
            }
            case VALUE_STRING:
                return new PyStr(p.getText());
            case VALUE_NUMBER_INT:
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? new PyInt(p.getBigIntegerValue())
                        : PyInt.of(p.getLongValue());
            case VALUE_NUMBER_FLOAT: {
                String text = p.getText();
                return new PyFloat(
                        switch (text) {
                            case "NaN" -> Double.NaN;
                            case "Infinity", "+Infinity" -> Double.POSITIVE_INFINITY;
                            case "-Infinity" -> Double.NEGATIVE_INFINITY;
                            default -> Double.parseDouble(text);
                        });
            }
            case VALUE_TRUE:
                return PyBool.TRUE;
            case VALUE_FALSE:
                return PyBool.FALSE;
            case VALUE_NULL:
                return PyNone.NONE;
            default:
                throw new JsonFormatException("unexpected token " + t, null);
        }
    }

    private static JsonLimitException tooDeep(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        return new JsonLimitException(
                m.contains("nesting depth") ? "JSON nested deeper than " + MAX_DEPTH + " levels (the most read)" : m,
                e);
    }

    /** Malformed JSON text. */
    public static class JsonFormatException extends RuntimeException {
        public JsonFormatException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** JSON over a limit of the reader's (nesting deeper than {@link #MAX_DEPTH}): refused, never read further. */
    public static final class JsonLimitException extends JsonFormatException {
        public JsonLimitException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
