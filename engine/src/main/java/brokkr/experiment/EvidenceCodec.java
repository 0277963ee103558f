package brokkr.experiment;

import brokkr.eval.ContentHash;
import brokkr.eval.Evidence;
import brokkr.provider.EnvironmentKeys;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * An attempt's evidence as the store keeps it: each long text once. A model's answer is in the raw
 * response body, in the transcript and often in the protocol's output, and every later request
 * repeats the conversation so far; stored as they are, a long answer (or a long system prompt) is
 * written many times per attempt and again in every attempt. So every text of at least
 * {@link #MIN_BLOB} characters is kept once, content-addressed, in the store's {@code blob} table,
 * and the evidence JSON refers to it: a text value becomes {@code "\0blob:<sha256>"}, and a request or
 * response body that contains such a text JSON-encoded becomes a list of its literal pieces and
 * references {@code "\0json:<sha256>"} (or {@code "\0jsona:"}, ASCII-escaped) to the encoded texts.
 * Decoding puts every text back, so the evidence read equals the evidence written, byte for byte.
 *
 * <p>Unambiguous by construction: every text value that starts with NUL is stored as a blob whatever
 * its length, so a stored text starting with NUL is always a reference; a body containing NUL is
 * never split into pieces; and a body is only replaced by pieces when joining them gives it back.
 * The blobs an evidence refers to are listed under its top-level {@code "$blobs"} key.
 */
final class EvidenceCodec {
    private EvidenceCodec() {}

    /** Texts at least this long are stored once, by content. */
    static final int MIN_BLOB = 2048;

    private static final String REF = "\0blob:", JSON = "\0json:", JSON_ASCII = "\0jsona:", BLOBS = "$blobs";
    private static final int SHA_HEX = 64;

    /** The evidence JSON to store and the texts it refers to (sha256 → text). */
    record Encoded(String json, Map<String, String> blobs) {}

    static Encoded encode(Evidence evidence) {
        // Every stored text passes the key redactor, for the keys of every provider (not only the run's own).
        PyDict v = (PyDict) EnvironmentKeys.process().redact(evidence.toValue());
        Map<String, String> blobs = new LinkedHashMap<>();
        // Texts of the evidence itself (transcript, output, setup, details); the bodies come after, pieced around them.
        Value calls = v.get("model_calls");
        PyDict rest = (PyDict) replaceTexts(v.without("model_calls"), blobs);
        List<Value> encodedCalls = new ArrayList<>();
        List<String> known = new ArrayList<>(blobs.values());
        known.sort(Comparator.comparingInt(String::length).reversed());
        Map<String, String[]> encodings = new LinkedHashMap<>();
        for (Value c : calls.asList()) {
            PyDict d = c.asDict();
            for (String field : List.of("request", "response")) {
                if (d.get(field) instanceof PyStr body) d = d.with(field, body(body.value(), known, encodings, blobs));
            }
            encodedCalls.add(d);
        }
        PyDict.Builder out = PyDict.builder();
        for (var e : v.entries())
            out.put(e.getKey(), e.getKey().equals("model_calls") ? PyList.of(encodedCalls) : rest.get(e.getKey()));
        if (!blobs.isEmpty())
            out.put(BLOBS, PyList.of(blobs.keySet().stream().map(Value::str).toList()));
        return new Encoded(PyJson.dumps(out.build(), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)), blobs);
    }

    /** Whether a text is stored by reference. */
    private static boolean blobbed(String s) {
        return s.length() >= MIN_BLOB || s.startsWith("\0");
    }

    private static String put(String text, Map<String, String> blobs) {
        String sha = ContentHash.sha256(text);
        blobs.putIfAbsent(sha, text);
        return sha;
    }

    private static Value replaceTexts(Value v, Map<String, String> blobs) {
        return switch (v) {
            case PyStr s when blobbed(s.value()) -> Value.str(REF + put(s.value(), blobs));
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (var e : d.entries()) b.put(e.getKey(), replaceTexts(e.getValue(), blobs));
                yield b.build();
            }
            case PyList l -> {
                List<Value> items = new ArrayList<>(l.size());
                for (Value x : l) items.add(replaceTexts(x, blobs));
                yield PyList.of(items);
            }
            default -> v;
        };
    }

    /**
     * A body as pieces around the known texts it contains JSON-encoded (longest first, left to right),
     * else by reference when long, else as it is.
     */
    private static Value body(
            String body, List<String> known, Map<String, String[]> encodings, Map<String, String> blobs) {
        if (body.indexOf('\0') < 0 && !known.isEmpty()) {
            List<int[]> spans = new ArrayList<>(); // start, end, index in known, ascii (0/1)
            for (int k = 0; k < known.size(); k++) {
                String[] enc =
                        encodings.computeIfAbsent(known.get(k), t -> new String[] {quoted(t, false), quoted(t, true)});
                for (int ascii = 0; ascii < 2; ascii++) {
                    if (ascii == 1 && enc[1].equals(enc[0])) break;
                    for (int at = body.indexOf(enc[ascii]);
                            at >= 0;
                            at = body.indexOf(enc[ascii], at + enc[ascii].length())) {
                        spans.add(new int[] {at, at + enc[ascii].length(), k, ascii});
                    }
                }
            }
            if (!spans.isEmpty()) {
                spans.sort(Comparator.<int[]>comparingInt(x -> x[0]).thenComparingInt(x -> -(x[1] - x[0])));
                List<Value> pieces = new ArrayList<>();
                int pos = 0;
                for (int[] sp : spans) {
                    if (sp[0] < pos) continue; // overlaps a piece taken already
                    if (sp[0] > pos) pieces.add(Value.str(body.substring(pos, sp[0])));
                    pieces.add(Value.str((sp[3] == 1 ? JSON_ASCII : JSON) + put(known.get(sp[2]), blobs)));
                    pos = sp[1];
                }
                if (pos < body.length()) pieces.add(Value.str(body.substring(pos)));
                PyList template = PyList.of(pieces);
                if (join(template, blobs).equals(body)) return template;
            }
        }
        return blobbed(body) ? Value.str(REF + put(body, blobs)) : Value.str(body);
    }

    private static String quoted(String text, boolean ascii) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        try {
            PyJson.writeString(text, ascii, sb);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return sb.toString();
    }

    /** The blobs an evidence JSON refers to (none for evidence stored whole). */
    static Set<String> references(Value stored) {
        Set<String> out = new LinkedHashSet<>();
        if (stored instanceof PyDict d && d.get(BLOBS) instanceof PyList l) for (Value x : l) out.add(x.asStr());
        return out;
    }

    /** Reads stored evidence back; {@code fetch} gives the texts of the blobs it refers to. */
    static Evidence decode(String json, Function<Set<String>, Map<String, String>> fetch) {
        Value stored = Json.parse(json);
        Set<String> refs = references(stored);
        if (refs.isEmpty()) return Evidence.fromValue(stored);
        Map<String, String> blobs = fetch.apply(refs);
        for (String sha : refs) {
            if (!blobs.containsKey(sha))
                throw new ExperimentStore.StoreException(
                        "the store has no text " + sha + " that an attempt refers to", null);
        }
        PyDict d = stored.asDict().without(BLOBS);
        List<Value> calls = new ArrayList<>();
        for (Value c : d.get("model_calls").asList()) {
            PyDict cd = c.asDict();
            for (String field : List.of("request", "response")) {
                Value b = cd.get(field);
                if (b instanceof PyList template) cd = cd.with(field, Value.str(join(template, blobs)));
                else if (b instanceof PyStr s) cd = cd.with(field, resolve(s, blobs));
            }
            calls.add(cd);
        }
        PyDict.Builder out = PyDict.builder();
        for (var e : d.entries())
            out.put(e.getKey(), e.getKey().equals("model_calls") ? PyList.of(calls) : restore(e.getValue(), blobs));
        return Evidence.fromValue(out.build());
    }

    private static Value resolve(PyStr s, Map<String, String> blobs) {
        return s.value().startsWith(REF) ? Value.str(blobs.get(sha(s.value(), REF))) : s;
    }

    private static Value restore(Value v, Map<String, String> blobs) {
        return switch (v) {
            case PyStr s -> resolve(s, blobs);
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (var e : d.entries()) b.put(e.getKey(), restore(e.getValue(), blobs));
                yield b.build();
            }
            case PyList l -> {
                List<Value> items = new ArrayList<>(l.size());
                for (Value x : l) items.add(restore(x, blobs));
                yield PyList.of(items);
            }
            default -> v;
        };
    }

    private static String join(PyList template, Map<String, String> blobs) {
        StringBuilder sb = new StringBuilder();
        for (Value piece : template) {
            String p = piece.asStr();
            if (p.startsWith(JSON)) sb.append(quoted(blobs.get(sha(p, JSON)), false));
            else if (p.startsWith(JSON_ASCII)) sb.append(quoted(blobs.get(sha(p, JSON_ASCII)), true));
            else if (p.startsWith(REF)) sb.append(blobs.get(sha(p, REF)));
            else sb.append(p);
        }
        return sb.toString();
    }

    private static String sha(String ref, String prefix) {
        String sha = ref.substring(prefix.length());
        if (sha.length() != SHA_HEX)
            throw new ExperimentStore.StoreException("malformed text reference in stored evidence", null);
        return sha;
    }
}
