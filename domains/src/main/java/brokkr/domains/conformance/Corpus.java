package brokkr.domains.conformance;

import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * An oracle corpus: a JSON Lines file, one record (a JSON object) per non-blank line, as the tau2 and
 * BFCL conformance corpora are written. It is read strictly, because a corpus that silently proves
 * nothing would pass: a file with no records, bytes that are not UTF-8, a line that is not a JSON
 * object and a record without a field the replay needs are each a {@link CorpusException} naming
 * the file, the line and the field ({@code FILE:LINE: field 'actions[2].arguments' is missing}).
 */
public final class Corpus {
    private Corpus() {}

    /** A corpus that cannot be replayed as it is; the message starts with {@code FILE:} or {@code FILE:LINE:}. */
    public static final class CorpusException extends IllegalArgumentException {
        public CorpusException(String message) {
            super(message);
        }
    }

    /** One non-blank line of a corpus, not yet parsed (parsing is left to the replay's workers). */
    public record Line(Path file, int number, String text) {
        /** The line's JSON object. */
        public Record parse() {
            Value v;
            try {
                v = Json.parse(text);
            } catch (Json.JsonFormatException e) {
                throw new CorpusException(file + ":" + number + ": not JSON: "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
            if (v instanceof PyDict d) return new Record(file, number, "", d);
            throw new CorpusException(file + ":" + number + ": a record is a JSON object, got a JSON " + jsonType(v));
        }
    }

    /**
     * A JSON object of a corpus line (the record, or an object inside it at {@code path}), whose
     * accessors fail with the location of a field that is missing or of the wrong type.
     */
    public record Record(Path file, int line, String path, PyDict value) {
        public boolean has(String field) {
            return value.containsKey(field);
        }

        /** A field that must be present (its value may be JSON null). */
        public Value required(String field) {
            Value v = value.get(field);
            if (v == null) throw fail("field '" + name(field) + "' is missing");
            return v;
        }

        public String string(String field) {
            if (required(field) instanceof PyStr s) return s.value();
            throw wrongType(field, "a string");
        }

        /** A field that must be present, a string or null. */
        public String stringOrNull(String field) {
            Value v = required(field);
            if (v instanceof PyNone) return null;
            if (v instanceof PyStr s) return s.value();
            throw wrongType(field, "a string or null");
        }

        /** A field that may be absent; absent and null are both null. */
        public String optionalString(String field) {
            return has(field) ? stringOrNull(field) : null;
        }

        public boolean bool(String field) {
            if (required(field) instanceof PyBool b) return b.value();
            throw wrongType(field, "true or false");
        }

        public boolean optionalBool(String field, boolean absent) {
            return has(field) ? bool(field) : absent;
        }

        public Record object(String field) {
            if (required(field) instanceof PyDict d) return new Record(file, line, name(field), d);
            throw wrongType(field, "an object");
        }

        /** A field holding a list of objects. */
        public List<Record> objects(String field) {
            if (!(required(field) instanceof PyList list)) throw wrongType(field, "a list");
            List<Record> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                String at = name(field) + "[" + i + "]";
                if (!(list.get(i) instanceof PyDict d))
                    throw fail("'" + at + "' must be an object, got a JSON " + jsonType(list.get(i)));
                out.add(new Record(file, line, at, d));
            }
            return out;
        }

        /** An error at this record's line. */
        public CorpusException fail(String message) {
            return new CorpusException(file + ":" + line + ": " + message);
        }

        private CorpusException wrongType(String field, String expected) {
            return fail(
                    "field '" + name(field) + "' must be " + expected + ", got a JSON " + jsonType(value.get(field)));
        }

        private String name(String field) {
            return path.isEmpty() ? field : path + "." + field;
        }
    }

    /** The non-blank lines of a corpus file; a CorpusException when it cannot be read or has none. */
    public static List<Line> lines(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CorpusException(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new CorpusException(file + ": permission denied");
        } catch (IOException e) {
            throw new CorpusException(file + ": cannot read: " + e.getMessage());
        }
        bytes = gunzipIfCompressed(file, bytes);
        CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        List<Line> out = new ArrayList<>();
        int start = 0, number = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') end++;
            number++;
            String text;
            try {
                text = utf8.decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
            } catch (CharacterCodingException e) {
                throw new CorpusException(file + ":" + number + ": not UTF-8 text");
            }
            if (!text.isBlank()) out.add(new Line(file, number, text));
            start = end + 1;
        }
        if (out.isEmpty()) throw new CorpusException(file + ": no records (the corpus is empty)");
        return out;
    }

    /** A gzip file (by its magic number, whatever its name) decompressed; other bytes as they are. */
    private static byte[] gunzipIfCompressed(Path file, byte[] bytes) {
        if (bytes.length < 2 || (bytes[0] & 0xff) != 0x1f || (bytes[1] & 0xff) != 0x8b) return bytes;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new CorpusException(file + ": corrupt gzip data: " + e.getMessage());
        }
    }

    /** Every record of a corpus, parsed. */
    public static List<Record> read(Path file) {
        return lines(file).stream().map(Line::parse).toList();
    }

    private static String jsonType(Value v) {
        return switch (v) {
            case null -> "missing value";
            case PyDict d -> "object";
            case PyList l -> "array";
            case PyStr s -> "string";
            case PyBool b -> "boolean";
            case PyNone n -> "null";
            default -> "number";
        };
    }
}
