package brokkr.domains.bfcl.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The experiment path: domain {@code bfcl-web-search} with the domain option {@code web_recording: FILE} (a recording
 * written here that holds the gold candidate's IO for two tasks); gold graded 1.0 on both, a third task the recording
 * lacks an infrastructure failure naming the missing search; without the option the experiment is refused.
 */
class WebSearchExperimentTest {
    @TempDir
    Path tmp;

    /** For each subquestion of {@code tasks}: a search with one result and its page. */
    private static Path recording(Path file, int... questions) throws Exception {
        WebSearchData data = WebSearchData.load();
        WebRecording.Builder b = new WebRecording.Builder();
        for (int q : questions) {
            int i = 0;
            for (String sub : data.questions().get(q).subquestions()) {
                String link = "https://pages.example/" + q + "/" + i++;
                b.search(
                        new WebRecording.Query(sub, "wt-wt"),
                        () -> WebRecording.Outcome.searched(PyDict.of(
                                "organic_results",
                                PyList.of(PyDict.of(
                                        "title",
                                        new PyStr("T"),
                                        "link",
                                        new PyStr(link),
                                        "snippet",
                                        new PyStr(sub))))));
                b.fetch(link, () -> WebRecording.Outcome.fetched("<p>" + sub + "</p>"));
            }
        }
        Files.write(file, b.bytes());
        return file;
    }

    @Test
    void goldOnARecordingThroughAnExperiment() throws Exception {
        Path rec = recording(tmp.resolve("web.jsonl"), 0, 1);
        Path spec = tmp.resolve("ws.yaml");
        Files.writeString(spec, """
                name: ws-gold
                domain: bfcl-web-search
                options: {web_recording: %s}
                tasks: [web_search_base_0, web_search_no_snippet_1, web_search_base_2]
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: reference}
                """.formatted(rec));
        Registry registry = Registry.load();
        var r = Experiments.run(ExperimentSpec.read(spec), tmp.resolve("run"), registry);
        assertEquals(2, r.completed());
        Map<String, Attempt> byTask = new HashMap<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("run"))) {
            for (Attempt a : store.attempts(true)) byTask.put(a.taskId(), a);
        }
        assertEquals(1.0, byTask.get("web_search_base_0").reward());
        assertEquals(1.0, byTask.get("web_search_no_snippet_1").reward());
        Attempt missing = byTask.get("web_search_base_2");
        assertFalse(missing.completed());
        assertTrue(missing.error().contains("web.jsonl has no search for q="), missing.error());
    }

    @Test
    void withoutARecordingTheExperimentIsRefused() throws Exception {
        Path spec = tmp.resolve("ws.yaml");
        Files.writeString(spec, """
                name: ws-none
                domain: bfcl-web-search
                tasks: [web_search_base_0]
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: reference}
                """);
        RuntimeException e = assertThrows(
                RuntimeException.class,
                () -> Experiments.run(ExperimentSpec.read(spec), tmp.resolve("run"), Registry.load()));
        assertTrue(e.getMessage().contains("runs on a web recording only"), e.getMessage());
    }
}
