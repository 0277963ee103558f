package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.magics.builtin.RegradeMagics;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code %regrade}: a stored tau2 gold experiment judged again by a loopback judge model that denies every assertion. */
class RegradeMagicsTest {
    @TempDir
    Path tmp;

    @Test
    void regradeShowsTheDisagreementsAndChangedEpisodesAsTables() throws Exception {
        Path dir = tmp.resolve("exp");
        Experiments.run(ExperimentSpec.parse("""
                name: regrade-magic
                domain: tau2-retail
                tasks: ["62", "5"]
                candidates: [{id: gold, provider: scripted, model: gold}]
                progress: false
                """, true, "test", "x", tmp), dir);
        // Answers one denied result whatever it is asked: task 62's first assertion flips, its second is not covered
        // (missing).
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            String answer = PyJson.dumps(PyDict.of(
                    "results",
                    PyList.of(PyDict.of("expectedOutcome", "x", "reasoning", "no", "metExpectation", PyBool.FALSE))));
            return Reply.json(
                    OpenAiChat.encodeResponse(new Message.Assistant(answer), d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry models =
                    Registry.process().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            Session s = new Session(MagicRegistry.standard(), models);
            var view =
                    (RegradeMagics.RegradeView) s.magic("%regrade " + dir + " --judge openai:denier --parallelism 1");
            assertEquals(1, view.result().rejudged(), view.text());
            assertEquals(2, view.disagreements().rowCount());
            assertEquals(
                    List.of("62", "62"),
                    view.disagreements().stringColumn("task").asList());
            assertEquals(
                    List.of("met", "met"),
                    view.disagreements().stringColumn("recorded").asList());
            assertEquals(
                    List.of("not met", "missing"),
                    view.disagreements().stringColumn("new").asList());
            assertEquals(1, view.episodeChanges().rowCount());
            assertEquals(0.0, view.episodeChanges().doubleColumn("new_reward").get(0));
            assertTrue(view.text().contains("assertions agreeing: 0/2 (0.0%)"), view.text());
            assertTrue(
                    view.html().contains("<caption>disagreements</caption>")
                            && view.html().contains("<caption>episode verdicts changed</caption>"),
                    view.html());
            var e = assertThrows(MagicUsageException.class, () -> s.magic("%regrade " + dir));
            assertTrue(e.getMessage().contains("--judge PROVIDER:MODEL is required"), e.getMessage());
            e = assertThrows(MagicUsageException.class, () -> s.magic("%regrade " + dir + " --judge nope:m"));
            assertTrue(e.getMessage().contains("unknown model provider 'nope'"), e.getMessage());
        }
    }
}
