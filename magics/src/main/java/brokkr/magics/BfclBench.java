package brokkr.magics;

import brokkr.domains.bfcl.BfclCategory;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.BfclTask;
import brokkr.domains.bfcl.PyObj;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BFCL (the Berkeley function-calling leaderboard's single-turn categories) as a {@link Bench}: the
 * splits are the categories, a task is a question with its function docs and possible answers.
 * Loading verifies every data file against its pinned digest ({@link BfclData#load()} refuses a
 * mismatch). Tasks are single calls graded by AST match, so there is no world to fork, and episodes
 * run through experiments ({@code domain: bfcl}), not {@code %run}.
 */
final class BfclBench implements Bench {
    private final BfclData data;

    BfclBench(BfclData data) { this.data = data; }

    @Override public String name() { return "bfcl"; }

    @Override public DomainSummary summary() {
        Map<String, Integer> perCategory = new LinkedHashMap<>();
        List<DomainSummary.DataFile> files = new ArrayList<>();
        for (BfclCategory c : BfclCategory.values()) {
            perCategory.put(c.id(), data.tasks(c).size());
            files.add(file(c.questionFile()));
            if (!c.relevance()) files.add(file(c.answerFile()));
        }
        return new DomainSummary(name(), "Berkeley function-calling leaderboard, single-turn categories", data.all().size(),
                perCategory, List.of("(per task: the question's function docs)"), 0, files);
    }

    /** A data file with its SHA-256 as read now; loading already refused any file that is not the pinned one. */
    private DomainSummary.DataFile file(String rel) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(data.dir().resolve(rel)));
            return new DomainSummary.DataFile(rel, HexFormat.of().formatHex(sha), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String question(BfclTask t) {
        StringBuilder sb = new StringBuilder();
        if (t.question() instanceof PyList turns) {
            for (Value turn : turns) {
                if (!(turn instanceof PyList msgs)) continue;
                for (Value m : msgs) {
                    if (m instanceof PyDict d && d.get("content") != null && !d.get("content").isNone()) {
                        if (!sb.isEmpty()) sb.append('\n');
                        sb.append(d.get("role") == null ? "" : d.get("role").asStr() + ": ").append(d.get("content").asStr());
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

    @Override public List<TaskRow> tasks() {
        List<TaskRow> out = new ArrayList<>();
        for (BfclTask t : data.all()) {
            String q = question(t);
            out.add(new TaskRow(t.id(), List.of(t.category().id()), q.replaceFirst("^user: ", ""), basis(t), answers(t).size()));
        }
        return out;
    }

    @Override public TaskView task(String id) {
        BfclTask t = data.byId().get(id);
        if (t == null) throw new MagicUsageException("no bfcl task '" + id + "' (%tasks lists them)");
        List<String> functions = new ArrayList<>();
        for (Value f : t.functions()) if (f instanceof PyDict d && d.get("name") != null) functions.add(d.get("name").asStr());
        String scenario = question(t) + "\nfunctions: " + String.join(", ", functions);
        return new TaskView(name(), id, scenario, basis(t), answers(t), "none (a single call, no world)");
    }

    @Override public ToolWorld fork(String taskId) {
        throw new MagicUsageException("bfcl tasks are single function calls graded by their AST: there is no world to fork"
                + " (%task ID shows the function docs and possible answers)");
    }

    @Override public List<String> candidates() { return List.of(); }

    @Override public RunView run(String candidate, String taskId) {
        throw new MagicUsageException("bfcl runs through experiments: %%experiment with domain: bfcl"
                + " (scripted candidate: {id: gold, provider: scripted, model: gold})");
    }
}
