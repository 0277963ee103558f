package brokkr.domains.bfcl;

import brokkr.data.DataDirs;
import brokkr.data.UpstreamData;
import brokkr.python.CPython;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's data files for the in-scope categories, read from a gorilla data directory
 * ({@code berkeley-function-call-leaderboard/bfcl_eval/data}) and verified against the SHA-256 each
 * was transcribed against (../shared/upstream/gorilla/MANIFEST.md, commit 6ea5797). The files are
 * JSON lines. Tasks come in file order, as {@code load_dataset_entry(cat, include_prereq=False,
 * include_language_specific_hint=False)} and {@code load_ground_truth_entry(cat)} (utils.py) give them.
 *
 * <p>The directory is the system property {@code brokkr.bfcl.data}, else the environment variable
 * {@code BROKKR_BFCL_DATA}, else {@code shared/upstream/gorilla/...} beside the project
 * ({@link brokkr.data.DataDirs}).
 */
public final class BfclData {
    static final String REL = "shared/upstream/gorilla/berkeley-function-call-leaderboard/bfcl_eval/data";

    /**
     * The CPython release upstream's evaluation runs on (its corpora were recorded with 3.11.7): the profile
     * of every Python rule BFCL code applies ({@link CPython}).
     */
    public static final CPython PYTHON = CPython.V3_11;

    /** The gorilla commit the categories were transcribed against (upstream MANIFEST). */
    public static final String UPSTREAM_COMMIT = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8";

    /**
     * The pinned files as fetched from upstream ({@code ./brokkr data fetch gorilla}): the gorilla
     * repository at {@link #UPSTREAM_COMMIT}, whose {@code berkeley-function-call-leaderboard/bfcl_eval/data}
     * folder is the data directory.
     */
    public static UpstreamData upstream() {
        return new UpstreamData(
                "gorilla",
                "https://github.com/ShishirPatil/gorilla",
                UPSTREAM_COMMIT,
                REL.substring(REL.indexOf("berkeley-function-call-leaderboard")),
                "BROKKR_BFCL_DATA",
                "brokkr.bfcl.data",
                UpstreamData.pins(DIGESTS));
    }

    /** Pinned digests, from the upstream MANIFEST. */
    static final Map<String, String> DIGESTS = Map.ofEntries(
            Map.entry("BFCL_v4_simple_python.json", "82dd63ba502eb2520c6b5d1d9a5c4b590e03ff261565175561f6228a367d1991"),
            Map.entry(
                    "possible_answer/BFCL_v4_simple_python.json",
                    "90cd5bc653690ee8e459b5b3f3fc9458606f7f3fcbf795bb51b7dc581f8c86dc"),
            Map.entry("BFCL_v4_multiple.json", "aef168155ebd74b7ac2401198b201343bc7d16d7a3d7e0d4e6d8ee82c6969b2a"),
            Map.entry(
                    "possible_answer/BFCL_v4_multiple.json",
                    "244e00ce9395df948bcafc7bee64e8f9c87ef70887587d83cae45b13699f3047"),
            Map.entry("BFCL_v4_parallel.json", "19f51a82eff42e5d62541aa500115a056eb78f437c2ba1f10415fd7c8e5dda84"),
            Map.entry(
                    "possible_answer/BFCL_v4_parallel.json",
                    "8a6aa19c1adddc6a5a2f7e40f9dbf30cc7e95815e7b830c90589ab318229e0f0"),
            Map.entry(
                    "BFCL_v4_parallel_multiple.json",
                    "8863ea8433239f55c5f016154cf0830853c89f693c6ea270396a2fa121960579"),
            Map.entry(
                    "possible_answer/BFCL_v4_parallel_multiple.json",
                    "5ebf24f458c1f16300c05505d83d6f0a1b68b79be273a033febd0d4f840507e3"),
            Map.entry("BFCL_v4_irrelevance.json", "2b6ed4c2e992cdcf5f1678a701851f944bef7550ee026ed1ddb89efed5be01a6"),
            Map.entry("BFCL_v4_live_simple.json", "1af2ac87dca47556db7b7e37e51e28b459a38b594e3c7b3c792b4903598ca0c4"),
            Map.entry(
                    "possible_answer/BFCL_v4_live_simple.json",
                    "fec9cfa9744a936f9126981e85a2023da1e63e273eafebc81923a1162fad70ce"),
            Map.entry("BFCL_v4_live_multiple.json", "fd8ccfad4d911420d0e3341dbe2fff77d1d341da934248b9bb2bda24ab3a10c8"),
            Map.entry(
                    "possible_answer/BFCL_v4_live_multiple.json",
                    "97e90d59c5bd76c55a2920ce93e5566e9046307d3f558578f085f9d3a56c3084"),
            Map.entry("BFCL_v4_live_parallel.json", "6c26e9fdc3350cf596e6d1ea9c179cbff834761bccf562f4141ed29a839ca421"),
            Map.entry(
                    "possible_answer/BFCL_v4_live_parallel.json",
                    "8a9f189ff0e832ebbbbdade1fd95a7dbcc67406e9177df3f0aad76f59ab00350"),
            Map.entry(
                    "BFCL_v4_live_parallel_multiple.json",
                    "21d4b9319c1faac431e22757b367ea28917fe467364c3a4b17f16ec06d4f6e79"),
            Map.entry(
                    "possible_answer/BFCL_v4_live_parallel_multiple.json",
                    "f5b5f360556c5feb51db46fb9f56ee4b304f4b45b161599bbb14161c98a2873f"),
            Map.entry(
                    "BFCL_v4_live_irrelevance.json",
                    "6559fda2beaceb609a2cd2e504c65b4a56cb448e1ef88fddfd199e163d163349"),
            Map.entry(
                    "BFCL_v4_live_relevance.json", "e03f9e241657a137cba48a89ee12f47bf3fcb7e4f6274263e9c699a0c974203a"),
            Map.entry("BFCL_v4_simple_java.json", "13d2303a125b08754f0e41995b9273b5005fa8ed8ebfaa24ef53b4d83c4b5c6e"),
            Map.entry(
                    "possible_answer/BFCL_v4_simple_java.json",
                    "78f25616084044fa05bbfcee68e03f6ececb222bdd5cb3b7783a675fb3366e35"),
            Map.entry(
                    "BFCL_v4_simple_javascript.json",
                    "329e67fedf79a6243d93dbda4b388d12bd2d31f1f2163d92cb6ef676d1764f44"),
            Map.entry(
                    "possible_answer/BFCL_v4_simple_javascript.json",
                    "e2f9f2e51d88e0c8056ffbf1a3dd3d02eb032532d2b5d98c9cc9003385bdd56b"));

    /** A data file that is missing, malformed or not the pinned one. */
    public static final class BfclDataException extends RuntimeException {
        public BfclDataException(String message) {
            super(message);
        }

        public BfclDataException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Path dir;
    private final Map<BfclCategory, List<BfclTask>> tasks = new EnumMap<>(BfclCategory.class);

    private BfclData(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** Reads every category from the directory documented on the class. */
    public static BfclData load() {
        return load(locate());
    }

    /** Reads every category from {@code dir}, verifying each file's digest. */
    public static BfclData load(Path dir) {
        BfclData d = new BfclData(dir);
        for (BfclCategory c : BfclCategory.values()) d.tasks.put(c, d.read(c));
        return d;
    }

    public static Path locate() {
        try {
            return DataDirs.locate(
                    "BFCL data directory",
                    "brokkr.bfcl.data",
                    "BROKKR_BFCL_DATA",
                    REL.substring("shared/".length()),
                    null);
        } catch (DataDirs.NotFound e) {
            throw new BfclDataException(e.getMessage());
        }
    }

    public List<BfclTask> tasks(BfclCategory c) {
        return tasks.get(c);
    }

    /** Every task, categories in upstream order, tasks in file order. */
    public List<BfclTask> all() {
        List<BfclTask> out = new ArrayList<>();
        tasks.values().forEach(out::addAll);
        return out;
    }

    /**
     * A stable, seeded slice of {@code n} tasks per category (all when {@code n} is null or exceeds the
     * category): tasks ranked by SHA-256 of {@code seed + "/" + id}, so a task's membership does not
     * depend on the other tasks; categories in the order given, tasks in upstream file order.
     */
    public List<BfclTask> sample(Iterable<BfclCategory> categories, Integer n, long seed) {
        List<BfclTask> out = new ArrayList<>();
        for (BfclCategory c : categories) {
            List<BfclTask> tasks = tasks(c);
            if (n == null || n >= tasks.size()) {
                out.addAll(tasks);
                continue;
            }
            Map<BfclTask, Integer> position = new LinkedHashMap<>();
            for (int i = 0; i < tasks.size(); i++) position.put(tasks.get(i), i);
            List<BfclTask> ranked = new ArrayList<>(tasks);
            ranked.sort(Comparator.comparing(
                    (BfclTask t) -> sha256((seed + "/" + t.id()).getBytes(StandardCharsets.UTF_8))));
            List<BfclTask> chosen = new ArrayList<>(ranked.subList(0, n));
            chosen.sort(Comparator.comparing(position::get));
            out.addAll(chosen);
        }
        return out;
    }

    /** Tasks by id. */
    public Map<String, BfclTask> byId() {
        Map<String, BfclTask> m = new LinkedHashMap<>();
        for (BfclTask t : all()) m.put(t.id(), t);
        return m;
    }

    private List<BfclTask> read(BfclCategory c) {
        List<Value> questions = readLines(c.questionFile());
        List<Value> answers = c.relevance() ? null : readLines(c.answerFile());
        if (answers != null && answers.size() != questions.size())
            throw new BfclDataException(
                    c.answerFile() + ": " + answers.size() + " answers for " + questions.size() + " questions");
        List<BfclTask> out = new ArrayList<>(questions.size());
        for (int i = 0; i < questions.size(); i++) {
            PyDict q = questions.get(i).asDict();
            String id = q.get("id").asStr();
            PyObj.Seq possible = null;
            if (answers != null) {
                PyDict a = answers.get(i).asDict();
                if (!a.get("id").asStr().equals(id))
                    throw new BfclDataException(c.answerFile() + ": line " + (i + 1) + " is "
                            + a.get("id").asStr() + ", expected " + id);
                possible = (PyObj.Seq) PyObj.fromJson(a.get("ground_truth"));
            }
            out.add(new BfclTask(id, c, q.get("question"), (PyList) q.get("function"), possible));
        }
        return List.copyOf(out);
    }

    /** Reads a pinned JSON-lines file. */
    private List<Value> readLines(String rel) {
        return readPinnedLines(dir, rel, DIGESTS);
    }

    /**
     * The JSON lines of {@code dir/rel}, its bytes checked against {@code digests.get(rel)} first: the one reader of
     * every BFCL data file (single-turn, multi-turn, memory), each category's table of pinned digests its own.
     */
    public static List<Value> readPinnedLines(Path dir, String rel, Map<String, String> digests) {
        Path file = dir.resolve(rel);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            // An IOException's message is often the path alone: the cause says what happened.
            throw new BfclDataException("cannot read BFCL data file " + file, e);
        }
        String pinned = digests.get(rel);
        String actual = sha256(bytes);
        if (!actual.equals(pinned))
            throw new BfclDataException("BFCL data file " + file + " has sha256 " + actual + ", expected " + pinned);
        List<Value> out = new ArrayList<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) out.add(Json.parse(line));
        }
        return out;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
