package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Experiments;
import brokkr.experiment.Scorecard;
import brokkr.render.Numbers;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an episode costs, as {@code experiment run} and {@code experiment show} print it in the scorecard:
 * tau2 retail's scripted gold under the reference agent and under Brokkr's batching loop. Scripted models
 * report no tokens (a dash in text, empty in CSV, null in JSON); the protocol counts the agent's steps and
 * request characters, and the loop asks its model less often than the reference agent for the same calls.
 */
class ExperimentCostColumnsTest {
    @TempDir
    Path tmp;

    @Test
    void runAndShowPrintTheCostsPerEpisodeInTheScorecard() throws Exception {
        Path file = tmp.resolve("harnesses.yaml");
        Files.writeString(file, """
                name: costs
                domain: tau2-retail
                tasks: ["0", "5"]
                candidates:
                  - {id: reference, provider: scripted, model: gold}
                  - {id: loop-tools, provider: scripted, model: gold-batch, harness: loop, action_space: tools}
                """);
        String dir = tmp.resolve("costs").toString();
        var run = ExperimentCommandTest.cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        Scorecard card = Experiments.scorecard(Path.of(dir));
        EpisodeCost.Means reference = card.rows().get(0).cost().perEpisode(),
                loop = card.rows().get(1).cost().perEpisode();
        assertTrue(reference.modelSteps() > loop.modelSteps(), reference + " vs " + loop);
        assertEquals(reference.toolCalls(), loop.toolCalls(), "the same gold calls under both harnesses");
        assertTrue(
                loop.requestChars() > 0 && loop.requestChars() < reference.requestChars(), reference + " vs " + loop);

        for (String out : List.of(
                run.out(), ExperimentCommandTest.cli("experiment", "show", dir).out())) {
            assertTrue(
                    out.matches(
                            "(?s).*\\bin_tok/ep  out_tok/ep  steps/ep  calls/ep  req_chars/ep  usd_agent/ep  usd_user/ep  usd_judge/ep  mean_duration\\b.*"),
                    out);
            for (var r : card.rows()) {
                EpisodeCost.Means m = r.cost().perEpisode();
                // tokens –, –; then steps, calls and request characters as the scorecard has them, three significant
                // digits
                Matcher line = Pattern.compile(
                                "(?m)^tau2-retail\\s+" + Pattern.quote(r.candidate()) + "\\s.*\\s–\\s+–\\s+"
                                        + Pattern.quote(Numbers.sig3(m.modelSteps())) + "\\s+"
                                        + Pattern.quote(Numbers.sig3(m.toolCalls())) + "\\s+"
                                        + Pattern.quote(Numbers.sig3(m.requestChars())) + "\\s")
                        .matcher(out);
                assertTrue(line.find(), r.candidate() + " " + m + ":\n" + out);
            }
        }

        String csv = ExperimentCommandTest.cli("experiment", "show", dir, "--format", "csv")
                .out();
        List<String> header = List.of(csv.lines()
                .filter(l -> l.startsWith("benchmark,"))
                .findFirst()
                .orElseThrow()
                .split(","));
        int at = header.indexOf("in_tok/ep");
        assertEquals(
                List.of("in_tok/ep", "out_tok/ep", "steps/ep", "calls/ep", "req_chars/ep"),
                header.subList(at, at + 5),
                csv);
        String referenceRow = csv.lines()
                .filter(l -> l.startsWith("tau2-retail,reference,"))
                .findFirst()
                .orElseThrow();
        List<String> fields = List.of(referenceRow.split(",", -1));
        assertEquals(List.of("", "", String.valueOf(reference.modelSteps())), fields.subList(at, at + 3), referenceRow);

        PyList summary = (PyList) Json.parse(ExperimentCommandTest.cli("experiment", "show", dir, "--format", "json")
                        .out())
                .asDict()
                .get("summary");
        PyDict row = summary.get(1).asDict();
        assertEquals("loop-tools", row.get("candidate").asStr());
        assertTrue(
                row.get("in_tok/ep").isNone() && row.get("out_tok/ep").isNone(),
                "scripted: no tokens, null not 0: " + row);
        assertEquals(loop.modelSteps(), ((PyFloat) row.get("steps/ep")).value());
        assertEquals(loop.requestChars(), ((PyFloat) row.get("req_chars/ep")).value());
    }
}
