package brokkr.domains.tau2.conformance;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads the two shapes upstream's simulations come in: a results file (upstream {@code Results} JSON, as
 * {@code tau2 run} writes {@code results.json}: {@code info}, {@code tasks}, {@code simulations}) and a
 * graded-trajectory corpus (JSON Lines, one graded episode per line). Either may be gzip-compressed (told by
 * its first bytes, whatever the name). A file that is neither, or a record without the fields grading needs,
 * is an {@link IllegalArgumentException} naming the file and the line or simulation.
 */
public final class UpstreamRecords {
    private UpstreamRecords() {}

    /** What a file holds: its simulations in file order, and the results file's whole JSON (null for a corpus). */
    public record Contents(Path file, List<UpstreamSimulation> simulations, PyDict results) {
        public Contents {
            simulations = List.copyOf(simulations);
        }

        public boolean isResultsFile() {
            return results != null;
        }
    }

    public static Contents read(Path file) {
        String text = text(file);
        String name = file.getFileName().toString();
        Value whole = null;
        try {
            whole = Json.parse(text);
        } catch (Json.JsonLimitException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        } catch (RuntimeException notOneValue) {
            // JSON Lines: more than one value.
        }
        if (whole instanceof PyDict d && d.containsKey("simulations")) return new Contents(file, results(name, d), d);
        List<UpstreamSimulation> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) continue;
            String label = name + ":" + (i + 1);
            Value v;
            try {
                v = Json.parse(line);
            } catch (Json.JsonLimitException e) {
                throw new IllegalArgumentException(label + ": " + e.getMessage());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(label + ": not a JSON object ("
                        + e.getMessage().lines().findFirst().orElse("")
                        + "); expected an upstream results file or one graded episode per line");
            }
            if (!(v instanceof PyDict d)) throw new IllegalArgumentException(label + ": not a JSON object");
            out.add(graded(label, d));
        }
        if (out.isEmpty()) throw new IllegalArgumentException(name + ": no simulations (an empty file)");
        return new Contents(file, out, null);
    }

    private static List<UpstreamSimulation> results(String name, PyDict results) {
        String domain = null;
        if (results.get("info") instanceof PyDict info && info.get("environment_info") instanceof PyDict env) {
            domain = UpstreamSimulation.str(env.get("domain_name"));
        }
        if (domain == null)
            throw new IllegalArgumentException(name + ": a results file without info.environment_info.domain_name");
        if (!(results.get("simulations") instanceof PyList sims))
            throw new IllegalArgumentException(name + ": 'simulations' is not a list");
        List<UpstreamSimulation> out = new ArrayList<>();
        int i = 0;
        for (Value v : sims) {
            String label = name + "#" + (i++);
            if (!(v instanceof PyDict d))
                throw new IllegalArgumentException(label + ": a simulation that is not a JSON object");
            out.add(new UpstreamSimulation(
                    label,
                    domain,
                    required(label, d, "task_id"),
                    integer(d.get("trial")),
                    longOrNull(d.get("seed")),
                    required(label, d, "termination_reason"),
                    messages(label, d),
                    d.get("reward_info") instanceof PyDict ri ? ri : null,
                    null,
                    d));
        }
        return out;
    }

    private static UpstreamSimulation graded(String label, PyDict d) {
        List<PyDict> judge = new ArrayList<>();
        if (d.get("judge") instanceof PyList l) for (Value j : l) judge.add(j.asDict());
        return new UpstreamSimulation(
                label,
                required(label, d, "domain"),
                required(label, d, "task_id"),
                integer(d.get("trial")),
                longOrNull(d.get("seed")),
                required(label, d, "termination_reason"),
                messages(label, d),
                d.get("reward_info") instanceof PyDict ri ? ri : null,
                judge,
                d);
    }

    private static PyList messages(String label, PyDict d) {
        if (d.get("messages") instanceof PyList l) return l;
        throw new IllegalArgumentException(label + ": no 'messages' list");
    }

    private static String required(String label, PyDict d, String key) {
        String s = d.get(key) instanceof PyStr v ? v.value() : null;
        if (s == null) throw new IllegalArgumentException(label + ": field '" + key + "' missing or not a string");
        return s;
    }

    private static Integer integer(Value v) {
        return v instanceof PyInt i ? (int) i.longValue() : null;
    }

    private static Long longOrNull(Value v) {
        return v instanceof PyInt i ? i.longValue() : null;
    }

    /**
     * The most bytes of text a file may hold, decompressed: a results file of upstream's is far smaller,
     * and a gzip bomb (3 MB that inflate to a 3 GiB line) is refused here instead of filling the heap.
     */
    public static final int MAX_TEXT_BYTES = 512 << 20;

    private static String text(Path file) {
        byte[] bytes;
        try (InputStream raw = Files.newInputStream(file)) {
            bytes = atMost(raw, file, "holds");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                bytes = atMost(in, file, "decompresses to");
            } catch (IOException e) {
                throw new IllegalArgumentException(file + ": a damaged gzip file (" + e.getMessage() + ")");
            }
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Everything {@code in} gives, refused once it passes {@link #MAX_TEXT_BYTES} (nothing more is read). */
    private static byte[] atMost(InputStream in, Path file, String verb) throws IOException {
        byte[] bytes = in.readNBytes(MAX_TEXT_BYTES + 1);
        if (bytes.length > MAX_TEXT_BYTES)
            throw new IllegalArgumentException(
                    file + ": " + verb + " more than " + (MAX_TEXT_BYTES >> 20) + " MiB, the most a results file may");
        return bytes;
    }
}
