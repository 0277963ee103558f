package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model candidate on the wiki benchmark: Brokkr's agent loop with the file tools, the model behind the OpenAI
 * wire format on a loopback server. The model lists /docs, reads every document in one turn (parallel calls),
 * writes the pages of an honest partial wiki one per step, fixes the index with edit_file and stops; the grade
 * is the checker's for those pages. Two attempts run at once, each in its own workspace.
 */
class WikiOverHttpTest {
    @TempDir
    Path tmp;

    /** A reading author: its plan is a pure function of how many steps it has taken. */
    record ReadingAuthor(List<String> docs, Map<String, String> pages) implements Candidate {
        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) {
            long step =
                    history.stream().filter(m -> m instanceof Message.Assistant).count();
            List<ToolCall> calls = new ArrayList<>();
            List<Map.Entry<String, String>> ps = new ArrayList<>(new TreeMap<>(pages).entrySet());
            if (step == 0) calls.add(call(0, "list_files", "path", "/docs"));
            else if (step == 1)
                for (int i = 0; i < docs.size(); i++) calls.add(call(i, "read_file", "path", docs.get(i)));
            else if (step - 2 < ps.size()) {
                var p = ps.get((int) step - 2);
                // The index goes out with a broken link (links_resolve would fail), put right next step by edit_file.
                String text = p.getKey().equals(WikiChecker.INDEX)
                        ? p.getValue().replaceFirst("[.]md[)]", ".mdx)")
                        : p.getValue();
                calls.add(call(0, "write_file", "path", p.getKey(), "content", text));
            } else if (step - 2 == ps.size()) {
                calls.add(call(0, "edit_file", "path", WikiChecker.INDEX, "old_text", ".mdx)", "new_text", ".md)"));
            } else return Turn.of(new Message.Assistant("done"));
            return Turn.of(new Message.Assistant(null, calls));
        }

        static ToolCall call(int i, String name, Object... kv) {
            PyDict args = PyDict.of(kv);
            return new ToolCall("call_" + i, name, args, PyJson.dumps(args), null);
        }
    }

    @Test
    void aModelOverTheWireWritesPagesAndIsGraded() throws Exception {
        WikiWorld w = WikiWorld.generate(WikiWorld.PUBLIC_SEED);
        Map<String, String> pages = ReferenceWiki.of(w, ReferenceWiki.Kind.MISSING_PAGES);
        ReadingAuthor author = new ReadingAuthor(List.copyOf(Documents.of(w).keySet()), pages);
        AtomicInteger requests = new AtomicInteger();
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            requests.incrementAndGet();
            DecodedRequest req = r.chat();
            assertEquals(
                    WikiTools.NAMES, req.tools().stream().map(ToolSpec::name).toList());
            Turn t = author.next(req.history(), req.tools());
            return Reply.json(OpenAiChat.encodeResponse(t.message(), req.model(), "chatcmpl-" + r.index()));
        })) {
            ProviderModels openai = new ProviderModels("openai", server.openAiEnv()) {};
            Registry registry = Registry.load().with(List.of(), List.of(openai));
            var candidate = new ExperimentSpec.CandidateSpec(
                    "author", new ModelRef("openai", "reading-author", PyDict.of("temperature", 0.0)), "tools", null);
            var spec = new ExperimentSpec(
                    "wiki-http",
                    List.of(new ExperimentSpec.DomainSpec("wiki", "public", null)),
                    List.of(candidate),
                    2,
                    2,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(60),
                    false);
            var r = Experiments.run(spec, tmp.resolve("http"), registry);
            assertEquals(2, r.completed(), r.summary());
            Map<String, String> docs = WikiBenchmark.docs(w);
            WikiChecker.Grade expected = WikiChecker.grade(Gold.of(w), docs, pages);
            assertEquals(0.7125, expected.score());
            int steps = 2 + pages.size() + 1 + 1;
            assertEquals(2 * steps, requests.get());
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("http"))) {
                for (Attempt a : store.attempts(true)) {
                    assertEquals(expected.score(), a.reward());
                    assertEquals(
                            expected.checks(), a.checks().subList(1, a.checks().size()));
                    assertEquals(steps, a.evidence().modelCalls().size());
                    assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches());
                }
            }
        }
    }
}
