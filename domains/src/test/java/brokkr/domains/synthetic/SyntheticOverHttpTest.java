package brokkr.domains.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Turn;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop benchmark against a model behind the OpenAI wire format (the loopback
 * ScriptedModelServer serving the ideal follower): a server answering 500 for one task's requests
 * and stalling past the client timeout for another gives infrastructure failures, recorded with the
 * exact requests, excluded from the scorecard, and completed on the next run; the provider's
 * concurrency limit holds at the server (measured on the healthy run: a request the client abandoned
 * at its timeout still occupies the server).
 */
class SyntheticOverHttpTest {
    @TempDir
    Path tmp;

    @Test
    void serverErrorsAndTimeoutsAreInfrastructureFailuresCompletedOnResume() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        AtomicInteger inFlight = new AtomicInteger(), maxInFlight = new AtomicInteger();
        String start10 = PointerChain.of(10).start(),
                start5 = PointerChain.of(5).start();
        LoopFollower ideal = LoopFollower.ideal();
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                DecodedRequest req = r.chat();
                String system = req.history().getFirst().content();
                if (broken.get() && system.contains(start10))
                    return Reply.json(500, "{\"error\": {\"message\": \"overloaded\", \"type\": \"server_error\"}}");
                if (broken.get() && system.contains(start5)) {
                    Thread.sleep(2500); // past the client's 1 s timeout
                }
                Turn t = ideal.next(req.history(), req.tools());
                return Reply.json(OpenAiChat.encodeResponse(t.message(), req.model(), "chatcmpl-" + r.index()));
            } finally {
                inFlight.decrementAndGet();
            }
        })) {
            ProviderModels openai = new ProviderModels("openai", server.openAiEnv()) {};
            Registry registry = Registry.load().with(List.of(), List.of(openai));
            var candidate = new ExperimentSpec.CandidateSpec(
                    "model",
                    new ModelRef(
                            "openai",
                            "scripted-ideal",
                            PyDict.of("max_attempts", 1, "timeout_seconds", 1.0, "temperature", 0.0)),
                    "tools",
                    null);
            var spec = new ExperimentSpec(
                    "http",
                    List.of(new ExperimentSpec.DomainSpec("loop", "smoke", null)),
                    List.of(candidate),
                    2,
                    4,
                    Map.of("openai", new ExperimentSpec.ProviderLimit(1, 0)),
                    Map.of(),
                    3,
                    Duration.ofSeconds(60),
                    false);
            Path dir = tmp.resolve("http");

            var first = Experiments.run(spec, dir, registry);
            assertEquals(4, first.infrastructureFailures(), first.summary());
            assertEquals(0, first.completed());
            try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                for (Attempt a : store.attempts(true)) {
                    var calls = a.evidence().modelCalls();
                    assertEquals(1, calls.size(), a.error());
                    assertTrue(
                            calls.getFirst().call().requestBody().contains("\"temperature\""),
                            "the exact request is recorded");
                    if (a.taskId().equals("10"))
                        assertEquals(500, calls.getFirst().call().status());
                    else assertEquals(0, calls.getFirst().call().status(), "a timeout has no response");
                }
            }

            broken.set(false);
            Thread.sleep(2600); // let the server finish the requests the client abandoned
            maxInFlight.set(0);
            var second = Experiments.run(spec, dir, registry);
            assertEquals(1, maxInFlight.get(), "the provider's concurrency limit holds at the server");
            assertEquals(4, second.ran());
            assertEquals(4, second.completed());
            assertEquals(List.of(1.0, 1.0), second.scorecard().rows().getFirst().passHatK());
            assertEquals(4, second.scorecard().rows().getFirst().infrastructureFailures());
            // Every successful attempt recorded each model request: depth + 1 of them.
            try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                for (Attempt a : store.attempts(true)) {
                    if (a.completed())
                        assertEquals(
                                Integer.parseInt(a.taskId()) + 1,
                                a.evidence().modelCalls().size());
                }
            }
        }
    }
}
