package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.CommandContext;
import brokkr.command.ModelSource;
import brokkr.domains.synthetic.cli.LoopCommand;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.tau2.cli.Tau2Command;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.RunView;
import brokkr.provider.testing.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider alias ({@code vllm}, {@code ollama}, {@code llamacpp}, {@code openai-compatible}) means the same
 * in an experiment file, on the command line ({@code loop}, {@code tau2 run}) and in {@code %run}: every face
 * resolves models through the registry's one resolver. Before, {@code provider: vllm} in an experiment file
 * failed with "unknown model provider 'vllm' (registered: anthropic, openai)" while {@code tau2 run --provider
 * vllm} took it; and an unknown provider was worded two ways.
 */
class ProviderAliasesTest {
    @TempDir
    Path tmp;

    static final List<String> ALIASES = List.of("openai", "vllm", "ollama", "llamacpp", "openai-compatible");

    /** The process's benchmarks with the OpenAI-compatible factory pointed at the test's server. */
    static Registry registry(ScriptedModelServer server) {
        return Registry.process().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
    }

    @Test
    void eachAliasRunsTheSameEpisodeInAnExperimentFileTheLoopCommandAndRun() throws Exception {
        for (String alias : ALIASES) {
            try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(LoopFollower.ideal())) {
                Registry registry = registry(server);
                // An experiment file.
                Path file = tmp.resolve(alias + ".yaml");
                Files.writeString(file, """
                        name: alias-%s
                        domain: loop
                        tasks: ["6"]
                        candidates:
                          - {id: local, provider: %s, model: loopback-model}
                        """.formatted(alias, alias));
                var r = Experiments.run(ExperimentSpec.read(file), tmp.resolve("exp-" + alias), registry);
                assertEquals(1, r.completed(), alias + ": " + r.summary());
                assertEquals(1.0, r.scorecard().rows().getFirst().avgReward(), alias);
                int afterExperiment = server.requestCount();
                assertEquals(7, afterExperiment, alias + ": six hops and the answer through the server");
                // The command line.
                ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
                int code = new LoopCommand(registry, ModelSource.of(registry, server.openAiEnv()))
                        .run(
                                List.of("6", "--model", "loopback-model", "--provider", alias),
                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8));
                assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
                assertEquals("PASS depth=6 toolCalls=6/6\n", out.toString(StandardCharsets.UTF_8), alias);
                assertEquals(2 * afterExperiment, server.requestCount(), alias);
                // %run in a session over the same registry.
                Session s = new Session(MagicRegistry.standard(), registry);
                s.domain("loop");
                RunView run = s.run(alias + ":loopback-model", "6", Map.of());
                assertEquals(1.0, run.attempt().reward(), alias);
                assertEquals(3 * afterExperiment, server.requestCount(), alias);
                for (var req : server.requests())
                    assertEquals("loopback-model", req.json().get("model").asStr());
            }
        }
    }

    /** tau2 run resolves the alias the same way: its episodes' requests reach the OpenAI-compatible server named by the environment. */
    @Test
    void tau2RunTakesEachAliasThroughTheSameResolver() throws Exception {
        for (String alias : ALIASES) {
            try (var server = ScriptedModelServer.start(
                    req -> ScriptedModelServer.Reply.json(400, "{\"error\": {\"message\": \"no such model\"}}"))) {
                ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
                int code = new Tau2Command(new CommandContext(Registry.process(), server.openAiEnv()))
                        .run(
                                List.of(
                                        "run",
                                        "--domain",
                                        "retail",
                                        "--agent",
                                        "llm",
                                        "--provider",
                                        alias,
                                        "--model",
                                        "m",
                                        "--user-model",
                                        "u",
                                        "--judge-model",
                                        "j",
                                        "--task",
                                        "0"),
                                new PrintStream(o, true, StandardCharsets.UTF_8),
                                new PrintStream(e, true, StandardCharsets.UTF_8));
                assertEquals(3, code, alias + ": " + e.toString(StandardCharsets.UTF_8));
                assertTrue(server.requestCount() >= 1, alias + ": the user simulator's request reached the server");
                assertEquals(
                        "u", server.requests().getFirst().json().get("model").asStr(), alias);
            }
        }
    }

    /** An unknown provider is refused in the same words by every face, before anything runs. */
    @Test
    void anUnknownProviderIsRefusedAlikeByEveryFace() throws Exception {
        String expected =
                "unknown model provider 'vllmx' (registered: anthropic, claude-code, openai, openai-responses, say; openai also as llamacpp, ollama, openai-compatible, vllm)";
        Path file = tmp.resolve("bad.yaml");
        Files.writeString(
                file, "name: bad\ndomain: loop\ntasks: [\"3\"]\ncandidates:\n  - {id: x, provider: vllmx, model: m}\n");
        assertEquals(
                expected,
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Experiments.run(
                                        ExperimentSpec.read(file), tmp.resolve("bad"), Registry.process()))
                        .getMessage());
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of("loop", "3", "--model", "m", "--provider", "vllmx"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals(
                "brokkr loop: " + expected, err.toString(StandardCharsets.UTF_8).strip());
        Session s = new Session(MagicRegistry.standard(), Registry.process());
        s.domain("loop");
        assertEquals(
                expected,
                assertThrows(MagicUsageException.class, () -> s.run("vllmx:m", "3", Map.of()))
                        .getMessage());
    }
}
