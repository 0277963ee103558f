package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class MultiTurnInferenceTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    /** Every task's tool set (and every held-out turn's additions) equals the corpus's tools.jsonl, as upstream compiles it. */
    @Test
    void toolSetsAsUpstreamCompilesThem() throws IOException {
        MultiTurnData data = MultiTurnData.load();
        MultiTurnTools tools = MultiTurnTools.load();
        Map<String, PyDict> toolsets = new HashMap<>();
        List<PyDict> tasks = new ArrayList<>();
        lines("tools.jsonl.gz", r -> {
            if (r.get("record").asStr().equals("toolset"))
                toolsets.put(r.get("toolset_id").asStr(), r);
            else tasks.add(r);
        });
        assertEquals(800, tasks.size());
        int holdouts = 0;
        for (PyDict t : tasks) {
            MultiTurnData.Task task = data.task(t.get("task_id").asStr());
            PyDict initial = toolsets.get(t.get("initial_toolset").asStr());
            PyList functions = tools.initial(task);
            assertEquals(dumps(initial.get("model_functions")), dumps(functions), task.id());
            assertEquals(
                    dumps(initial.get("openai_completions")),
                    dumps(ToolCompiler.compile(functions, ToolCompiler.Style.OPENAI_COMPLETIONS)),
                    task.id());
            assertEquals(
                    dumps(initial.get("anthropic")),
                    dumps(ToolCompiler.compile(functions, ToolCompiler.Style.ANTHROPIC)),
                    task.id());
            for (Value h : t.get("holdout").asList()) {
                PyDict hd = h.asDict();
                int turn = ((brokkr.value.PyInt) hd.get("turn")).value().intValueExact();
                PyList added = tools.added(task, turn);
                assertEquals(dumps(hd.get("added_functions")), dumps(added), task.id() + " turn " + turn);
                List<Value> after = new ArrayList<>(functions.items());
                after.addAll(added.items());
                functions = PyList.of(after);
                assertEquals(
                        dumps(toolsets.get(hd.get("toolset_after").asStr()).get("model_functions")),
                        dumps(functions),
                        task.id());
                assertEquals(
                        MultiTurnInference.ADDITIONAL_FUNCTION_PROMPT,
                        hd.get("fc_user_message").asStr());
                holdouts++;
            }
        }
        assertEquals(200, holdouts);
    }

    /**
     * The scripted reference candidate played through upstream's loop: one step per non-empty turn with the
     * ground truth's calls in function-calling spelling, then a text step; the tool results it sees are the
     * ground truth's results of gold-exec (classes of this branch only).
     */
    @Test
    void goldCandidateThroughTheLoop() throws IOException {
        MultiTurnData data = MultiTurnData.load();
        MultiTurnTools tools = MultiTurnTools.load();
        Set<String> classes = Set.of("TradingBot", "TravelAPI", "VehicleControlAPI");
        int[] played = {0};
        lines("gold-exec.jsonl.gz", r -> {
            MultiTurnData.Task task = data.task(r.get("task_id").asStr());
            if (!classes.containsAll(task.involvedClasses()) || task.setup().longContext()) return;
            MultiTurnInference.Trajectory t = MultiTurnInference.run(
                    task,
                    tools,
                    new MultiTurnInference.GoldCandidate(task),
                    ToolCompiler.Style.OPENAI_COMPLETIONS,
                    MODEL,
                    null);
            assertFalse(t.forceQuit());
            assertEquals(task.groundTruth().size(), t.turns().size(), task.id());
            List<String> results = new ArrayList<>();
            for (Message m : t.messages()) if (m instanceof Message.Tool tm) results.add(tm.content());
            List<String> expected = new ArrayList<>();
            for (Value turn : r.get("turns").asList()) {
                for (Value c : turn.asDict().get("calls").asList())
                    expected.add(c.asDict().get("result").asStr());
            }
            assertEquals(expected, results, task.id());
            for (int i = 0; i < t.turns().size(); i++) {
                List<List<String>> steps = t.turns().get(i);
                assertEquals(task.groundTruth().get(i).isEmpty() ? 1 : 2, steps.size(), task.id() + " turn " + i);
                assertTrue(steps.getLast().isEmpty());
                assertEquals(task.groundTruth().get(i).size(), steps.getFirst().size());
            }
            played[0]++;
        });
        assertTrue(played[0] >= 150, "played " + played[0]);
    }

    private static String dumps(Value v) {
        return PyJson.dumps(v);
    }

    private static void lines(String corpus, Consumer<PyDict> each) throws IOException {
        Path f = null;
        for (Path d = Path.of("").toAbsolutePath(); d != null && f == null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn").resolve(corpus);
            if (Files.isRegularFile(s)) f = s;
        }
        if (f == null) throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + corpus);
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(f)), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine())
                each.accept(Json.parse(line).asDict());
        }
    }
}
