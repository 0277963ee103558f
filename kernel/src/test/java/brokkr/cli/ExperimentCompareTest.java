package brokkr.cli;

import static brokkr.cli.ExperimentCommandTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cli.ExperimentCommandTest.Out;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr experiment compare} end to end on tau2 airline's 20 test tasks: the scripted gold
 * candidate passes all, stop (ends the conversation at once) passes 7, so the per-task differences are
 * thirteen 1s and seven 0s. Reference values, independently: mean 13/20 = 0.65; se = sd/sqrt(20) =
 * 0.109424 (sd = sqrt(0.65 * 0.35 * 20/19)); SciPy's {@code ttest_1samp} on the differences: p =
 * 1.019732e-05, interval [0.420972, 0.879028]; MDE (t_0.975,19 + t_0.80,19) * se = 0.323237; the exact
 * sign flip: only all thirteen 1s positive or all negative reach |13|, p = 2/2^13.
 */
class ExperimentCompareTest {
    @TempDir
    static Path tmp;

    static String dir, goldOnly, stopOnly;

    @BeforeAll
    static void run() throws Exception {
        dir = experiment(
                "both",
                "  - {id: gold, provider: scripted, model: gold}\n  - {id: stop, provider: scripted, model: stop}\n");
        goldOnly = experiment("gold-only", "  - {id: gold, provider: scripted, model: gold}\n");
        stopOnly = experiment("stop-only", "  - {id: stop, provider: scripted, model: stop}\n");
    }

    private static String experiment(String name, String candidates) throws Exception {
        Path file = tmp.resolve(name + ".yaml");
        Files.writeString(
                file,
                "name: " + name + "\ndomain: tau2-airline\nsplit: test\ncandidates:\n" + candidates
                        + "repetitions: 1\nparallelism: 4\n");
        String d = tmp.resolve(name).toString();
        Out r = cli("experiment", "run", file.toString(), "--dir", d, "--no-progress");
        assertEquals(0, r.code(), r.err());
        return d;
    }

    @Test
    void pairedStatisticsOfTwoCandidatesOfOneExperiment() {
        Out json = cli("experiment", "compare", dir, "--format", "json");
        assertEquals(0, json.code(), json.err());
        PyDict d = Json.parse(json.out()).asDict();
        assertEquals("gold (" + dir + ")", d.get("a").asStr());
        PyDict reward = ((PyList) d.get("comparison")).get(0).asDict();
        assertEquals("avg_reward", reward.get("metric").asStr());
        assertEquals(20L, ((PyInt) reward.get("tasks")).value().longValue());
        assertEquals(0.65, number(reward, "diff"), 1e-12);
        assertEquals(0.1094243310, number(reward, "se"), 1e-9);
        assertEquals(0.4209722431, number(reward, "t95_lo"), 1e-9);
        assertEquals(0.8790277569, number(reward, "t95_hi"), 1e-9);
        assertEquals(1.019732434e-05, number(reward, "p_t"), 1e-13);
        assertEquals(2.0 / (1 << 13), number(reward, "p_signflip"), 1e-15);
        assertEquals(0.3232366949, number(reward, "mde80"), 1e-9);
        assertEquals(1.0, number(reward, "a"));
        assertEquals(0.35, number(reward, "b"), 1e-12);
        assertEquals(20, ((PyList) d.get("tasks")).size());
        assertEquals(0, ((PyList) d.get("unmatched")).size());
        assertTrue(
                d.get("notes").toString().contains("exact over 2^20 sign assignments"),
                d.get("notes").toString());

        Out text = cli(
                "experiment",
                "compare",
                dir,
                "--a",
                "gold",
                "--b",
                "stop",
                "--chart",
                tmp.resolve("d.png").toString());
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().startsWith("a = gold, b = stop: differences a - b"), text.out());
        assertTrue(
                text.out()
                        .matches(
                                "(?s).*tau2-airline\\s+avg_reward\\s+20\\s+1\\s+1\\.00\\s+0\\.350\\s+0\\.650\\s+0\\.109\\s+0\\.421\\s+0\\.879\\s+1\\.02e-05\\s+2\\.44e-04\\s+0\\.323\\n.*"),
                text.out());
        assertTrue(text.out().contains("per task\n"), text.out());
        assertTrue(text.err().contains("chart: " + tmp.resolve("d.png")), text.err());
    }

    @Test
    void theChartIsAPngOfTheDefaultSize() throws Exception {
        Path png = tmp.resolve("chart.png");
        assertEquals(
                0, cli("experiment", "compare", dir, "--chart", png.toString()).code());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(880, img.getWidth());
        Path svg = tmp.resolve("chart.svg");
        assertEquals(
                0, cli("experiment", "compare", dir, "--chart", svg.toString()).code());
        assertTrue(Files.readString(svg).startsWith("<svg"));
    }

    /** Across two directories, aligned by task and trial: the same numbers as within one. */
    @Test
    void acrossTwoDirectories() {
        Out json = cli("experiment", "compare", goldOnly, stopOnly, "--format", "json");
        assertEquals(0, json.code(), json.err());
        PyDict d = Json.parse(json.out()).asDict();
        assertEquals("gold (" + goldOnly + ")", d.get("a").asStr());
        assertEquals("stop (" + stopOnly + ")", d.get("b").asStr());
        PyDict reward = ((PyList) d.get("comparison")).get(0).asDict();
        assertEquals(0.65, number(reward, "diff"), 1e-12);
        assertEquals(0.1094243310, number(reward, "se"), 1e-9);
        // The same candidate in both (a re-run): every difference 0, the t p-value undefined (null), never 0.
        Out same = cli("experiment", "compare", goldOnly, dir, "--format", "json");
        PyDict s = ((PyList) Json.parse(same.out()).asDict().get("comparison"))
                .get(0)
                .asDict();
        assertEquals(0.0, number(s, "diff"));
        assertTrue(s.get("p_t").isNone(), s.toString());
        assertEquals(1.0, number(s, "p_signflip"));
        Out text = cli("experiment", "compare", goldOnly, dir);
        assertTrue(
                text.out()
                        .matches(
                                "(?s).*avg_reward\\s+20\\s+1\\s+1\\.00\\s+1\\.00\\s+0\\s+0\\s+0\\s+0\\s+–\\s+1\\.00\\s+0\\n.*"),
                text.out());
    }

    @Test
    void badArgumentsAreUsageErrors() {
        Out three = cli("experiment", "compare", tmp.resolve("nowhere").toString());
        assertEquals(2, three.code());
        assertTrue(three.err().contains("holds no experiment"), three.err());
        Out unknown = cli("experiment", "compare", dir, "--a", "nobody");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("no candidate 'nobody' (candidates: gold, stop)"), unknown.err());
        Out twoInSecond = cli("experiment", "compare", stopOnly, dir);
        assertEquals(0, twoInSecond.code(), "stop is in both: compared with itself " + twoInSecond.err());
        Out ambiguous = cli("experiment", "compare", dir, goldOnly);
        assertEquals(2, ambiguous.code());
        assertTrue(
                ambiguous.err().contains("the first directory has 2 candidates (gold, stop): name one with --a"),
                ambiguous.err());
        assertEquals(2, cli("experiment", "compare", dir, "--chart", "x.gif").code());
        assertEquals(2, cli("experiment", "compare", dir, "--bogus").code());
        assertEquals(2, cli("experiment", "compare").code());
    }

    private static double number(PyDict d, String key) {
        return d.get(key) instanceof PyFloat f
                ? f.value()
                : ((PyInt) d.get(key)).value().doubleValue();
    }
}
