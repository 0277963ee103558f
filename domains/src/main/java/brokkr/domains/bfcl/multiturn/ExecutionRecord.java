package brokkr.domains.bfcl.multiturn;

import brokkr.domains.conformance.Corpus;
import brokkr.domains.conformance.CorpusStream;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A multi-turn corpus record as the replay reads it: the fields it compares as a {@link Corpus.Record} tree, and the
 * objects it only shows when a record mismatches (full state dumps, recorded state changes, the self-check of
 * {@code gold-exec}) kept as their JSON text, made into a tree only then. Those objects are most of the corpora's
 * bytes ({@code gold-exec}'s full states per turn); the parser still reads through every one of them, so a record
 * that is not JSON is refused exactly as {@link Corpus.Line#parse} refuses it.
 */
record ExecutionRecord(Corpus.Record record, byte[] line, Map<String, int[]> kept) {
    /** Object members kept as text, at the record's top level. */
    private static final Set<String> KEPT_TOP = Set.of("initial_state", "gt_self_check");

    /** Object members kept as text, in each element of {@code turns}. */
    private static final Set<String> KEPT_TURN = Set.of("state", "state_changes");

    /** A record parsed into a tree whole (the verdict corpora compare every member they hold). */
    static ExecutionRecord whole(CorpusStream.RawLine line) {
        return new ExecutionRecord(line.line().parse(), null, Map.of());
    }

    /** {@code line} parsed with the kept members as text; a line that is not a JSON object fails as Corpus does. */
    static ExecutionRecord parse(CorpusStream.RawLine line) {
        byte[] b = line.utf8();
        Map<String, int[]> kept = new HashMap<>();
        try (JsonParser p = Json.parser(b)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return whole(line);
            PyDict.Builder top = PyDict.builder();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT && KEPT_TOP.contains(name)) kept.put(name, skip(p));
                else if (v == JsonToken.START_ARRAY && name.equals("turns")) top.put(name, turns(p, kept));
                else top.put(name, Json.readValue(p, v));
            }
            if (p.nextToken() != null) return whole(line);
            return new ExecutionRecord(new Corpus.Record(line.file(), line.number(), "", top.build()), b, kept);
        } catch (IOException | RuntimeException e) {
            return whole(line); // not JSON (or over a limit): the whole-line parse names the error as Corpus does
        }
    }

    private static PyList turns(JsonParser p, Map<String, int[]> kept) throws IOException {
        List<Value> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) { // not a turn object: the replay's accessors name it as for any record
                out.add(Json.readValue(p, t));
                continue;
            }
            String at = "turns[" + out.size() + "].";
            PyDict.Builder turn = PyDict.builder();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT && KEPT_TURN.contains(name)) kept.put(at + name, skip(p));
                else turn.put(name, Json.readValue(p, v));
            }
            out.add(turn.build());
        }
        return PyList.of(out);
    }

    /** Skips the object starting at the current token; its byte range in the line. */
    private static int[] skip(JsonParser p) throws IOException {
        int from = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        return new int[] {from, (int) p.currentTokenLocation().getByteOffset() + 1};
    }

    /**
     * The object member {@code field} of {@code holder} (this record or an object inside it), made into a tree when
     * asked for; null when absent. A member that was parsed into the tree is checked to be an object now, as before.
     */
    Supplier<PyDict> object(Corpus.Record holder, String field) {
        int[] range = kept.get(holder.path().isEmpty() ? field : holder.path() + "." + field);
        if (range != null) {
            return () -> Json.read(Arrays.copyOfRange(line, range[0], range[1])).asDict();
        }
        if (!holder.has(field)) return null;
        PyDict d = holder.object(field).value();
        return () -> d;
    }
}
