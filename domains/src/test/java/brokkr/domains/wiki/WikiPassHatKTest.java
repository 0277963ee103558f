package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pass^k on the wiki: a model behind the OpenAI wire on a loopback server whose episodes succeed or not by the
 * episode's number (it reads the charter to know its world, then writes that world's reference wiki, or in some
 * episodes the stale one), four trials on the public set and on variant 17. The scorecard's pass^1..pass^4 are
 * the unbiased estimate computed here by hand from the stored per-trial outcomes: per task C(c, k) / C(n, k),
 * averaged over the tasks.
 */
class WikiPassHatKTest {
    @TempDir
    Path tmp;

    /** The episodes (numbered from 0 as they start) that write the stale wiki instead of the reference. */
    static final Set<Integer> STALE_EPISODES = Set.of(1, 4, 5);

    static ToolCall call(String id, String name, Object... kv) {
        PyDict args = PyDict.of(kv);
        return new ToolCall(id, name, args, PyJson.dumps(args), null);
    }

    /** C(n, k), 0 when k > n: by hand, not the engine's. */
    static double comb(int n, int k) {
        if (k > n) return 0;
        double r = 1;
        for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
        return r;
    }

    @Test
    void theScorecardsPassHatKIsTheUnbiasedEstimateOfThePerTrialOutcomes() throws Exception {
        Map<String, WikiWorld> worlds =
                Map.of("public", WikiWorld.generate(WikiWorld.PUBLIC_SEED), "17", WikiWorld.generate(17));
        AtomicInteger episodes = new AtomicInteger();
        boolean[] stale = {false};
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            DecodedRequest req = r.chat();
            List<Message> h = req.history();
            long steps = h.stream().filter(m -> m instanceof Message.Assistant).count();
            Message.Assistant m;
            if (steps == 0) {
                // a new episode (one at a time: parallelism 1): its number decides what it writes
                stale[0] = STALE_EPISODES.contains(episodes.getAndIncrement());
                m = new Message.Assistant(null, List.of(call("c0", "read_file", "path", "/docs/charter.md")));
            } else if (steps == 1) {
                String charter = ((Message.Tool) h.getLast()).content();
                WikiWorld w = worlds.values().stream()
                        .filter(x ->
                                Documents.of(x).get("/docs/charter.md").text().equals(charter))
                        .findFirst()
                        .orElseThrow();
                List<ToolCall> writes = new ArrayList<>();
                var pages = new TreeMap<>(
                        ReferenceWiki.of(w, stale[0] ? ReferenceWiki.Kind.STALE : ReferenceWiki.Kind.REFERENCE));
                for (var p : pages.entrySet())
                    writes.add(call("w" + writes.size(), "write_file", "path", p.getKey(), "content", p.getValue()));
                m = new Message.Assistant(null, writes);
            } else m = new Message.Assistant("done");
            return Reply.json(OpenAiChat.encodeResponse(m, req.model(), "chatcmpl-" + r.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            ExperimentSpec spec = new ExperimentSpec(
                    "wiki-pass-k",
                    List.of(
                            new ExperimentSpec.DomainSpec("wiki", "public", null),
                            new ExperimentSpec.DomainSpec("wiki", "public", null, PyDict.of("variant", 17))),
                    List.of(new ExperimentSpec.CandidateSpec(
                            "wavering", new ModelRef("openai", "wavering"), "tools", null)),
                    4,
                    1,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(120),
                    false);
            var run = Experiments.run(spec, tmp.resolve("x"), registry);
            assertEquals(8, run.completed(), run.summary());
            assertEquals(8, episodes.get());

            Map<String, int[]> byTask = new TreeMap<>(); // task -> {trials, successes}
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                for (Attempt a : store.attempts(true)) {
                    int[] t = byTask.computeIfAbsent(a.taskId(), k -> new int[2]);
                    t[0]++;
                    if (a.success()) t[1]++;
                    else assertTrue(a.reward() > 0 && a.reward() < 1, "a stale wiki scores below 1: " + a.reward());
                }
            }
            assertEquals(Set.of("catalog", "catalog@17"), byTask.keySet());
            // the outcomes vary across trials: 3 of the 8 episodes failed, so not every task is all-or-nothing
            int successes = byTask.values().stream().mapToInt(t -> t[1]).sum();
            assertEquals(5, successes);
            assertTrue(byTask.values().stream().anyMatch(t -> t[1] > 0 && t[1] < t[0]), "varied outcomes");

            List<Double> byHand = new ArrayList<>();
            for (int k = 1; k <= 4; k++) {
                double sum = 0;
                for (int[] t : byTask.values()) sum += comb(t[1], k) / comb(t[0], k);
                byHand.add(sum / byTask.size());
            }
            Scorecard sc = Experiments.scorecard(tmp.resolve("x"));
            assertEquals(1, sc.rows().size());
            Scorecard.CandidateScore row = sc.rows().getFirst();
            assertEquals(4, row.passHatK().size());
            for (int k = 0; k < 4; k++)
                assertEquals(byHand.get(k), row.passHatK().get(k), 1e-12, "pass^" + (k + 1));
            // pass^1 is the success rate; the curve falls as k grows when outcomes vary
            assertEquals(5 / 8.0, row.passHatK().getFirst(), 1e-12);
            assertTrue(
                    row.passHatK().get(3) < row.passHatK().getFirst(),
                    row.passHatK().toString());
            for (Scorecard.TaskScore t : row.perTask()) {
                int[] o = byTask.get(t.taskId());
                assertEquals(o[0], t.trials());
                assertEquals(o[1], t.successes());
                for (int k = 1; k <= 4; k++)
                    assertEquals(comb(o[1], k) / comb(o[0], k), t.passHatK().get(k - 1), 1e-12, t.taskId() + " k=" + k);
            }
        }
    }
}
