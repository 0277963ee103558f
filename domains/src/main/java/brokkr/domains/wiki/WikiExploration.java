package brokkr.domains.wiki;

import brokkr.conversation.ToolSpec;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.FileDiff;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The wiki benchmark to explore ({@code %domain load wiki}, {@code %task catalog}, {@code %fork}, {@code %call}):
 * one task per world ({@code catalog}, {@code catalog@SEED} for a variant), its reference wiki as the gold
 * actions, and forks that are workspaces: a call returns the workspace after it and leaves the fork as it was,
 * so {@code %call write_file} shows the file it added as the diff ({@link Workspace#fileDiff}: a unified diff per file).
 */
final class WikiExploration implements Exploration {
    private final WikiBenchmark benchmark;

    WikiExploration(WikiBenchmark benchmark) {
        this.benchmark = benchmark;
    }

    @Override
    public Summary summary() {
        return new Summary(
                "wiki catalog: twelve dated documents of different authority in /docs, a linked wiki out in /wiki, "
                        + "graded by a calibrated checker (variants: catalog@SEED, a fresh world per seed)",
                1,
                Map.of("public", 1),
                WikiTools.NAMES,
                WikiBenchmark.INSTRUCTIONS.length(),
                List.of());
    }

    static final String BASIS =
            "coverage 0.40 (a fact counts on an original page that states and cites it), currency 0.10, "
                    + "grounding 0.10, entity pages 0.10, relations as links 0.10, links resolve 0.05, index 0.05, "
                    + "no distractors 0.05, precise citations 0.05; with a judge (judge tier): faithfulness 0.10, "
                    + "the rest nine tenths of the above";

    @Override
    public List<TaskRow> tasks() {
        return List.of(row(WikiBenchmark.TASK));
    }

    private TaskRow row(String id) {
        WikiWorld w = world(id);
        Gold g = Gold.of(w);
        return new TaskRow(
                id,
                id.equals(WikiBenchmark.TASK) ? List.of("public") : List.of(),
                "catalogue " + Documents.of(w).size() + " documents about the " + w.org() + " into a wiki ("
                        + g.entities().size() + " entities, " + g.facts().size() + " facts)",
                BASIS,
                ReferenceWiki.of(w, ReferenceWiki.Kind.REFERENCE).size());
    }

    private WikiWorld world(String id) {
        return WikiBenchmark.world(benchmark.environment(id == null ? WikiBenchmark.TASK : id, Map.of()));
    }

    @Override
    public TaskDetail task(String id) {
        WikiWorld w = world(id);
        List<String> gold = ReferenceWiki.of(w, ReferenceWiki.Kind.REFERENCE).keySet().stream()
                .sorted()
                .map(p -> "write_file(path=\"" + p + "\", content=...)")
                .toList();
        return new TaskDetail(
                row(id).id(),
                WikiBenchmark.INSTRUCTIONS,
                BASIS,
                gold,
                WorldHash.sha256(Workspace.seeded(w).files(), true));
    }

    @Override
    public ToolWorld fork(String taskId) {
        return new Fork(Workspace.seeded(world(taskId)));
    }

    /** A forked workspace with the file tools. */
    record Fork(Workspace workspace) implements ToolWorld {
        @Override
        public Value state() {
            return workspace.files();
        }

        @Override
        public List<String> tools() {
            return WikiTools.NAMES;
        }

        @Override
        public List<ToolSpec> toolSpecs() {
            return WikiTools.SPECS;
        }

        /** The workspace's own diff: files added, changed, removed, each changed text as a unified diff. */
        @Override
        public Optional<List<FileDiff.Change>> fileChanges(ToolWorld before) {
            return Optional.of(workspace.fileDiff(Workspace.fromValue(before.state())));
        }

        @Override
        public Step call(String tool, PyDict args) {
            WikiTools.Step s = WikiTools.call(workspace, tool, args);
            return new Step(s.result(), s.after() == workspace ? this : new Fork(s.after()));
        }
    }

    /** What each check's failure lists, in the grade's details. */
    static final Map<String, String> EXPLAINED_BY = Map.ofEntries(
            Map.entry("facts_stated", "not_stated"),
            Map.entry("facts_cited", "uncited"),
            Map.entry("original_prose", "copied_pages"),
            Map.entry("current_values", "stale_unqualified"),
            Map.entry("numbers_grounded", "unsupported_numbers"),
            Map.entry("entity_pages", "missing_entities"),
            Map.entry("relations_linked", "unlinked_relations"),
            Map.entry("links_resolve", "broken_links"),
            Map.entry("citations_precise", "imprecise_citations"),
            Map.entry("no_distractors", "distractors"),
            Map.entry(WikiChecker.FAITHFUL, "unfaithful_claims"));

    /** The score with its main counts, and per check what it found wrong (the first few items). */
    @Override
    public RunReport report(Attempt a) {
        PyDict d = a.evidence().details();
        String line = d.containsKey("facts")
                ? "score " + a.reward() + ": " + d.get("facts_counted") + "/" + d.get("facts") + " facts counted, "
                        + d.get("entity_pages").asList().size() + "/"
                        + Gold.of(world(a.taskId())).entities().size()
                        + " entity pages, "
                        + d.get("unsupported_numbers").asList().size() + "/" + d.get("numbers")
                        + " numbers unsupported"
                        + (d.containsKey("claims")
                                ? ", " + d.get("unfaithful_claims").asList().size() + "/" + d.get("claims")
                                        + " claims unsupported (judge "
                                        + d.get("judge").asStr() + ")"
                                : "")
                : "score " + a.reward() + ", " + a.evidence().termination();
        List<CheckLine> checks = a.checks().stream()
                .map(c -> new CheckLine(c.name(), c.passed(), c.passed() ? "passed" : why(d, c.name())))
                .toList();
        return new RunReport(line, checks);
    }

    private static String why(PyDict details, String check) {
        String key = EXPLAINED_BY.get(check);
        if (key == null || !details.containsKey(key)) return "failed";
        List<String> items =
                details.get(key).asList().stream().map(Value::asStr).toList();
        String shown = String.join("; ", items.subList(0, Math.min(4, items.size())));
        return items.size() > 4 ? shown + " (+" + (items.size() - 4) + " more)" : shown;
    }

    /**
     * The pages the attempt left under {@code /wiki} (the index first) with their links as the checker resolves
     * them, and the task's documents as the sources they cite. The final workspace is not stored, only its hash:
     * it is the transcript's tool calls replayed on the seeded workspace ({@link WikiBenchmark#worldReplay}), and
     * the note says whether that matches the recorded hash.
     */
    @Override
    public Optional<Files> files(Attempt a) {
        if (!a.completed() || a.evidence().transcript().isNone()) return Optional.empty();
        EnvironmentDef env = benchmark.environment(a.taskId(), Map.of());
        Workspace ws = Workspace.fromValue(benchmark.worldReplay().orElseThrow().replay(env, a.evidence()));
        String recorded = a.evidence().finalWorldSha256();
        String note = recorded == null
                ? "replayed from the transcript (no final world was recorded to compare)"
                : WorldHash.sha256(ws.files(), true).equals(recorded)
                        ? "replayed from the transcript: the recorded final world"
                        : "replayed from the transcript, but NOT the recorded final world (sha256 " + recorded
                                + "): shown as replayed";
        Map<String, String> pages = ws.wiki();
        List<File> made = new ArrayList<>();
        String index = pages.get(WikiChecker.INDEX);
        if (index != null) made.add(page(WikiChecker.INDEX, index));
        pages.forEach((path, text) -> {
            if (!path.equals(WikiChecker.INDEX)) made.add(page(path, text));
        });
        List<File> sources = new ArrayList<>();
        WikiBenchmark.docs(WikiBenchmark.world(env))
                .forEach((path, text) -> sources.add(new File(path, text, Map.of())));
        String title = "the wiki: "
                + (made.isEmpty() ? "no pages" : made.size() == 1 ? "1 page" : made.size() + " pages") + " under /wiki";
        return Optional.of(new Files(title, note, made, "wiki " + env.taskId(), sources));
    }

    private static File page(String path, String text) {
        return new File(path, text, WikiChecker.links(path, text));
    }

    @Override
    public List<String> candidates() {
        return Arrays.stream(ReferenceWiki.Kind.values()).map(k -> k.id).toList();
    }
}
