package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Experiments;
import brokkr.experiment.Scorecard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment run --dry-run} without {@code --estimate-from}: the benchmark's typical tokens shipped with
 * Brokkr (typical-tokens.tsv) price the agent, said to be an estimate of that kind; a role without typical tokens
 * (the user simulator) makes its row a dash. The table's tau2-retail row is what the gold run of the test split
 * measures today (its request characters per episode), so a change of prompts or tools that moves it fails here.
 */
class DryRunTypicalTokensTest {
    @TempDir
    Path tmp;

    @Test
    void aDryRunPricesTheDomainsTypicalTokensAndTheTableMatchesAGoldRun() throws Exception {
        Path file = tmp.resolve("est.yaml");
        Files.writeString(file, """
                name: est
                domain: tau2-retail
                split: test
                candidates:
                  - {id: gpt, provider: openai, model: gpt-4.1}
                progress: false
                """);
        var dry = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("x").toString(), "--dry-run");
        assertEquals(0, dry.code(), dry.err());
        // gpt-4.1 at LiteLLM's $2 / $8 per million: 31109 input and 117 output tokens an episode.
        double perEpisode = (31109 * 2.0 + 117 * 8.0) / 1e6;
        assertTrue(dry.out().contains(String.format(Locale.ROOT, "$%.4f", 40 * perEpisode)), dry.out());
        assertTrue(dry.out().contains("the estimate is of the benchmark's typical tokens per episode"), dry.out());
        assertTrue(dry.out().contains("known for tau2-airline, tau2-retail, tau2-telecom"), dry.out());

        // With a priced customer model the row is a dash: the user simulator's typical tokens are not known.
        Files.writeString(file, Files.readString(file) + "user: {provider: openai, model: gpt-4.1}\n");
        var withUser = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("y").toString(), "--dry-run");
        assertTrue(
                withUser.out().contains("estimated cost – (a model without a price, or no typical tokens"),
                withUser.out());

        // The table's numbers are today's gold run of the split: its request characters per episode / 4.
        Path gold = tmp.resolve("gold.yaml");
        Files.writeString(gold, """
                name: gold
                domain: tau2-retail
                split: test
                candidates: [{id: gold, provider: scripted, model: gold}]
                progress: false
                """);
        assertEquals(
                0,
                ExperimentCommandTest.cli(
                                "experiment",
                                "run",
                                gold.toString(),
                                "--dir",
                                tmp.resolve("g").toString())
                        .code());
        Scorecard card = Experiments.scorecard(tmp.resolve("g"));
        EpisodeCost.Means m = card.rows().getFirst().cost().perEpisode();
        assertEquals(40, m.episodes());
        assertEquals(124435.1, m.requestChars(), 0.05, "re-measure typical-tokens.tsv: the prompts changed");
        assertEquals(31109, Math.round(m.requestChars() / 4));
    }
}
