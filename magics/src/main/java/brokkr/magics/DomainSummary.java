package brokkr.magics;

import brokkr.eval.Exploration;
import brokkr.eval.Exploration.DataFile;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What {@code %domain load NAME} shows: tasks per split, the tools, the policy's size, and the data
 * files with their pinned digests and whether they were verified (synthetic domains are seeded, no files).
 */
public record DomainSummary(
        String name,
        String description,
        int tasks,
        Map<String, Integer> tasksPerSplit,
        List<String> tools,
        int policyChars,
        List<DataFile> files)
        implements Rich {
    public DomainSummary {
        tasksPerSplit = Map.copyOf(tasksPerSplit);
        tools = List.copyOf(tools);
        files = List.copyOf(files);
    }

    /** The summary a domain's exploration gives, under the domain's name. */
    public static DomainSummary of(String name, Exploration.Summary s) {
        return new DomainSummary(
                name, s.description(), s.tasks(), s.tasksPerSplit(), s.tools(), s.policyChars(), s.files());
    }

    public Table table() {
        List<String> keys = new ArrayList<>(), values = new ArrayList<>();
        keys.add("domain");
        values.add(name);
        keys.add("tasks");
        values.add(String.valueOf(tasks));
        tasksPerSplit.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            keys.add("split " + e.getKey());
            values.add(String.valueOf(e.getValue()));
        });
        keys.add("tools");
        values.add(tools.size() + ": " + Session.clip(String.join(", ", tools), 60));
        keys.add("policy size");
        values.add(policyChars + " chars");
        if (files.isEmpty()) {
            keys.add("data digests");
            values.add("none: worlds are generated from a seed");
        } else {
            long ok = files.stream().filter(DataFile::verified).count();
            keys.add("data digests");
            values.add(ok + "/" + files.size() + " verified (sha256)");
            for (DataFile f : files) {
                keys.add("  " + f.path());
                values.add(f.sha256().substring(0, 16) + "... " + (f.verified() ? "verified" : "NOT verified"));
            }
        }
        return Table.create(
                name + " — " + description,
                StringColumn.create("property", keys),
                StringColumn.create("value", values));
    }

    @Override
    public String text() {
        return Tables.text(table());
    }

    @Override
    public String html() {
        return Tables.html(table());
    }

    @Override
    public String markdown() {
        return Tables.markdown(table());
    }
}
