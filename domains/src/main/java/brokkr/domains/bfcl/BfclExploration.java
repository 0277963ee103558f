package brokkr.domains.bfcl;

import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * BFCL's single-turn categories to explore: the splits are the categories, a task is a question with
 * its function docs and possible answers. Loading verifies every data file against its pinned digest
 * ({@link BfclData#load()} refuses a mismatch). A task is one call graded by AST match, so there is no
 * world to fork, and runs go through experiments ({@code domain: bfcl}), not single runs.
 */
final class BfclExploration implements Exploration {
    private final Supplier<BfclData> data;

    BfclExploration(Supplier<BfclData> data) {
        this.data = data;
    }

    @Override
    public Summary summary() {
        BfclData d = data.get();
        Map<String, Integer> perCategory = new LinkedHashMap<>();
        List<DataFile> files = new ArrayList<>();
        for (BfclCategory c : BfclCategory.values()) {
            perCategory.put(c.id(), d.tasks(c).size());
            files.add(file(c.questionFile()));
            if (!c.relevance()) files.add(file(c.answerFile()));
        }
        return new Summary(
                "Berkeley function-calling leaderboard, single-turn categories",
                d.all().size(),
                perCategory,
                List.of("(per task: the question's function docs)"),
                0,
                files);
    }

    /** Loading already refused any file whose bytes are not the pinned ones. */
    private static DataFile file(String rel) {
        return new DataFile(rel, BfclData.DIGESTS.get(rel), true);
    }

    private static String question(BfclTask t) {
        StringBuilder sb = new StringBuilder();
        if (t.question() instanceof PyList turns) {
            for (Value turn : turns) {
                if (!(turn instanceof PyList msgs)) continue;
                for (Value m : msgs) {
                    if (m instanceof PyDict d
                            && d.get("content") != null
                            && !d.get("content").isNone()) {
                        if (!sb.isEmpty()) sb.append('\n');
                        sb.append(d.get("role") == null ? "" : d.get("role").asStr() + ": ")
                                .append(d.get("content").asStr());
                    }
                }
            }
        }
        return sb.toString();
    }

    private static String basis(BfclTask t) {
        if (!t.category().relevance()) return "AST match of the call(s)";
        return t.category().expectsCall() ? "relevance: some call" : "irrelevance: no call";
    }

    private static List<String> answers(BfclTask t) {
        List<String> out = new ArrayList<>();
        if (t.possibleAnswer() != null) for (PyObj a : t.possibleAnswer().items()) out.add(String.valueOf(a));
        return out;
    }

    @Override
    public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (BfclTask t : data.get().all()) {
            out.add(new TaskRow(
                    t.id(),
                    List.of(t.category().id()),
                    question(t).replaceFirst("^user: ", ""),
                    basis(t),
                    answers(t).size()));
        }
        return out;
    }

    @Override
    public TaskDetail task(String id) {
        BfclTask t = data.get().byId().get(id);
        if (t == null) throw new IllegalArgumentException("no bfcl task '" + id + "'");
        List<String> functions = new ArrayList<>();
        for (Value f : t.functions())
            if (f instanceof PyDict d && d.get("name") != null)
                functions.add(d.get("name").asStr());
        String scenario = question(t) + "\nfunctions: " + String.join(", ", functions);
        return new TaskDetail(id, scenario, basis(t), answers(t), "none (a single call, no world)");
    }

    @Override
    public ToolWorld fork(String taskId) {
        throw new UnsupportedOperationException(
                "bfcl tasks are single function calls graded by their AST: there is no world to fork"
                        + " (the task detail shows its function docs and possible answers)");
    }

    /** None: a task is one model call, run in experiments with the scripted candidate {@code gold} or a model. */
    @Override
    public List<String> candidates() {
        return List.of();
    }
}
