package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.ModelRef;
import brokkr.provider.HttpProvider;
import brokkr.repl.Harness;
import brokkr.run.Plan;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one planner: provider aliases, harness support and model names, the same for every face. */
class PlannerTest {
    @TempDir
    Path tmp;

    static Registry withOpenAi(int tasks) {
        return Registry.of(
                List.of(new QuizBench(tasks)),
                List.of(new QuizBench.Models(), new ProviderModels.OpenAi(), new ProviderModels.Anthropic()));
    }

    /**
     * {@code provider: vllm} in an experiment file resolves to the OpenAI-compatible factory (it used to
     * fail: "unknown model provider 'vllm' (registered: anthropic, openai)"), keeps its own name in the
     * candidate's identity, and opens an OpenAI-wire provider with the environment the face was given.
     */
    @Test
    void providerAliasesResolveInAnExperimentFileThroughTheRegistrysOneResolver() throws Exception {
        Path file = tmp.resolve("alias.yaml");
        Files.writeString(file, """
                name: alias
                domain: quiz
                split: all
                candidates:
                  - {id: local, provider: vllm, model: m-agent}
                  - {id: other, provider: ollama, model: m-agent}
                """);
        Registry registry = withOpenAi(2);
        Plan plan = Planner.plan(ExperimentSpec.read(file), registry);
        assertEquals(4, plan.units().size());
        assertEquals("vllm", plan.units().getFirst().cell().agent().provider(), "the name given stays the candidate's");
        assertFalse(
                plan.units()
                        .get(0)
                        .cell()
                        .agent()
                        .id()
                        .equals(plan.units().get(1).cell().agent().id()),
                "vllm and ollama are distinct candidates");
        for (String alias : List.of("vllm", "ollama", "llamacpp", "openai-compatible")) {
            assertSame(registry.model("openai"), registry.model(alias), alias);
            var model = registry.resolver(Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9"))
                    .apply(new ModelRef(alias, "m"));
            assertInstanceOf(HttpProvider.class, model, alias);
        }
        ExperimentSpec.SpecException unknown =
                assertThrows(ExperimentSpec.SpecException.class, () -> registry.model("vllmx"));
        assertEquals(
                "unknown model provider 'vllmx' (registered: anthropic, fake, openai; openai also as llamacpp, ollama, openai-compatible, vllm)",
                unknown.getMessage());
    }

    /** A harness the domain does not host is refused before anything runs (no store is made), naming what it hosts. */
    @Test
    void aHarnessOrActionSpaceTheDomainDoesNotHostIsRefusedBeforeAnyCellRuns() {
        var repl = new ExperimentSpec.CandidateSpec(
                "repl",
                new ModelRef("fake", "gold"),
                Harness.REPL,
                null,
                Harness.of(Harness.LOOP, Harness.REPL, null, PyDict.empty()));
        var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null), repl));
        Path dir = tmp.resolve("never");
        ExperimentSpec.SpecException e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Experiments.run(spec, dir, ExperimentTest.registry(2, new QuizBench.Models())));
        assertEquals(
                "domain quiz: candidate repl asks for harness loop with action space repl, which quiz does not support"
                        + " (supported: harness reference with action space tools)",
                e.getMessage());
        assertFalse(Files.exists(dir), "nothing ran, nothing was stored");
        var refRepl = new ExperimentSpec.CandidateSpec("ref-repl", new ModelRef("fake", "gold"), Harness.REPL, null);
        assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Planner.cells(
                        new QuizBench(1), List.of("q0"), Map.of(), PyDict.empty(), List.of(refRepl), 1, ref -> null),
                "a preset is planned by the same rule");
    }

    /** Claude Code as the agent runs only where a protocol hosts it (tau2, BFCL single-turn; their tests check those). */
    @Test
    void harnessClaudeCodeIsRefusedWhereTheDomainDoesNotHostIt() {
        var cc = new ExperimentSpec.CandidateSpec(
                "cc",
                new ModelRef("claude-code", "sonnet"),
                "tools",
                null,
                Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.empty()));
        var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(cc));
        ExperimentSpec.SpecException e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Experiments.run(spec, tmp.resolve("never"), ExperimentTest.registry(2, new QuizBench.Models())));
        assertEquals(
                "domain quiz: candidate cc asks for harness claude-code with action space tools, which quiz does not"
                        + " support (supported: harness reference with action space tools)",
                e.getMessage());
    }

    @Test
    void modelNamesAreParsedOnceForEveryFace() {
        assertEquals(new ModelRef("scripted", "gold-50"), Planner.modelRef("gold-50"));
        assertEquals(
                new ModelRef("vllm", "meta/llama:8b"),
                Planner.modelRef("vllm:meta/llama:8b"),
                "split at the first colon");
        for (String bad : List.of("", " ", ":m", "openai:")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Planner.modelRef(bad));
            assertTrue(e.getMessage().startsWith("a candidate is NAME (scripted) or PROVIDER:MODEL"), e.getMessage());
        }
        assertEquals(
                Planner.modelRef("openai:gpt-4.1"),
                Probes.candidate("openai:gpt-4.1"),
                "probes parse through the planner");
    }

    /** An unconfigured provider fails when the plan's models are opened, before any cell, not in every cell. */
    @Test
    void anUnconfiguredProviderFailsWhenThePlanIsOpened() {
        var spec = ExperimentTest.spec(
                "all",
                1,
                1,
                0,
                List.of(new ExperimentSpec.CandidateSpec("x", new ModelRef("anthropic", "m"), "tools", null)));
        Plan plan = Planner.plan(spec, withOpenAi(1));
        if (System.getenv("ANTHROPIC_API_KEY") != null || System.getenv("ANTHROPIC_BASE_URL") != null)
            return; // configured here: nothing to show
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Planner.open(plan, ExperimentSpec.CacheSpec.NONE));
        assertInstanceOf(ExperimentSpec.SpecException.class, e, "a spec error: the README's exit 2");
        assertTrue(e.getMessage().endsWith("ANTHROPIC_API_KEY is not set"), e.getMessage());
    }
}
