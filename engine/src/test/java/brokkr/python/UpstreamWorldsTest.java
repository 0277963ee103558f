package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * json.dumps of the real upstream worlds (tau2 airline's 7 MB db.json among them), compared by
 * SHA-256 with what CPython produced (worlds.jsonl). The data lives in the shared directory beside
 * the project root; without it the test is skipped.
 */
class UpstreamWorldsTest {

    /** The {@code shared} directory beside the project root, found from the working directory upwards. */
    static Path sharedDir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolveSibling("shared");
            if (Files.isDirectory(candidate.resolve("upstream")) && Files.exists(p.resolve("pom.xml")))
                return candidate;
        }
        return null;
    }

    @Test
    void dumpsOfLoadedWorldsMatchCPython() throws Exception {
        Path shared = sharedDir();
        assumeTrue(shared != null, "no shared/ directory beside the project");
        Vectors.Check c = new Vectors.Check("json.dumps(json.loads(world)) SHA-256");
        Map<String, Value[]> parsed = new HashMap<>();
        for (PyDict row : Vectors.read("worlds.jsonl")) {
            String rel = row.get("path").asStr();
            Value[] both = parsed.computeIfAbsent(
                    rel, r -> load(shared.resolve(r), row.get("input_sha256").asStr()));
            PyDict o = row.get("opts").asDict();
            PyJson.DumpOptions opts = new PyJson.DumpOptions(
                    o.get("sort_keys") == PyBool.TRUE,
                    o.get("indent").isNone()
                            ? null
                            : ((PyInt) o.get("indent")).value().intValueExact(),
                    o.get("ensure_ascii") == PyBool.TRUE);
            if (o.containsKey("separators")) {
                PyList seps = o.get("separators").asList();
                opts = opts.withSeparators(seps.get(0).asStr(), seps.get(1).asStr());
            }
            String expected = row.get("out_sha256").asStr();
            // Both readers: this package's json.loads and brokkr.value.Json (Jackson).
            for (int k = 0; k < 2; k++) {
                String out = PyJson.dumps(both[k], opts);
                c.eq(
                        expected,
                        sha256(out),
                        (k == 0 ? "PyJsonLoads" : "Json.parse") + " " + rel + " " + opts + " ("
                                + out.codePointCount(0, out.length()) + " code points, CPython " + row.get("out_chars")
                                + ")");
            }
        }
        c.finish();
    }

    private static Value[] load(Path file, String sha) {
        try {
            byte[] raw = Files.readAllBytes(file);
            assertEquals(
                    sha,
                    HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(raw)),
                    file + " changed since the vectors were recorded: rerun gen_python_vectors.py");
            String text = new String(raw, StandardCharsets.UTF_8);
            return new Value[] {PyJsonLoads.loads(text), Json.parse(text)};
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
