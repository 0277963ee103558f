package brokkr.domains.tau2.conformance;

import brokkr.experiment.ExperimentSpec;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
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
        if (sims.isEmpty())
            throw new IllegalArgumentException(name + ": 'simulations' is empty (a results file without simulations)");
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
                    trial(label, d),
                    seed(label, d),
                    required(label, d, "termination_reason"),
                    messages(label, d),
                    rewardInfo(label, d),
                    null,
                    checkedNumbers(label, d)));
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
                trial(label, d),
                seed(label, d),
                required(label, d, "termination_reason"),
                messages(label, d),
                rewardInfo(label, d),
                judge,
                checkedNumbers(label, d));
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

    /**
     * The 0-based trial, null when absent; an experiment holds at most {@link ExperimentSpec#MAX_REPETITIONS}
     * repetitions of a cell, so a trial beyond them (or negative, or not a whole number) is refused, never
     * narrowed or wrapped.
     */
    private static Integer trial(String label, PyDict d) {
        Value v = d.get("trial");
        if (v == null || v.isNone()) return null;
        if (v instanceof PyInt i
                && i.fitsLong()
                && i.longValue() >= 0
                && i.longValue() < ExperimentSpec.MAX_REPETITIONS) return (int) i.longValue();
        throw new IllegalArgumentException(label + ": 'trial' must be a whole number from 0 to "
                + (ExperimentSpec.MAX_REPETITIONS - 1) + ", got " + shown(v));
    }

    private static Long seed(String label, PyDict d) {
        Value v = d.get("seed");
        if (v == null || v.isNone()) return null;
        if (v instanceof PyInt i && i.fitsLong()) return i.longValue();
        throw new IllegalArgumentException(label + ": 'seed' must be a whole number, got " + shown(v));
    }

    /**
     * The recorded reward info, null when the run recorded none. Its {@code reward} is upstream's
     * {@code RewardInfo.reward} (a float, required): a product of components in [0, 1], so a reward that is
     * missing, not a number, NaN or outside [0, 1] is a damaged record, refused before it reaches an average.
     */
    private static PyDict rewardInfo(String label, PyDict d) {
        Value v = d.get("reward_info");
        if (v == null || v.isNone()) return null;
        if (!(v instanceof PyDict ri)) throw new IllegalArgumentException(label + ": 'reward_info' is not an object");
        Value r = ri.get("reward");
        double reward = switch (r) {
            case PyFloat f -> f.value();
            case PyInt i -> i.value().doubleValue();
            case null -> throw new IllegalArgumentException(label + ": 'reward_info.reward' is missing");
            default ->
                throw new IllegalArgumentException(
                        label + ": 'reward_info.reward' must be a number from 0 to 1, got " + shown(r));
        };
        if (!(reward >= 0.0 && reward <= 1.0))
            throw new IllegalArgumentException(
                    label + ": 'reward_info.reward' must be a number from 0 to 1, got " + shown(r));
        return ri;
    }

    /** The record, its costs and duration checked to be numbers (or null) where {@link UpstreamSimulation} reads them. */
    private static PyDict checkedNumbers(String label, PyDict d) {
        for (String field : List.of("agent_cost", "user_cost", "duration")) {
            Value v = d.get(field);
            if (v == null || v.isNone()) continue;
            boolean finite = v instanceof PyInt || (v instanceof PyFloat f && Double.isFinite(f.value()));
            if (!finite
                    || (v instanceof PyFloat f && f.value() < 0)
                    || (v instanceof PyInt i && i.value().signum() < 0))
                throw new IllegalArgumentException(
                        label + ": '" + field + "' must be a number of at least 0, got " + shown(v));
        }
        return d;
    }

    /** A value as the message shows it: its JSON, cut short. */
    private static String shown(Value v) {
        String json = v instanceof PyStr s ? "the string " + PyJson.dumps(s) : PyJson.dumps(v);
        return json.length() <= 40 ? json : json.substring(0, 40) + "...";
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
