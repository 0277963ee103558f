package brokkr.domains.wiki;

import brokkr.agent.ToolHandler;
import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
import brokkr.domains.synthetic.SyntheticTools;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolSet;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The agent's file tools on a {@link Workspace}: {@code list_files}, {@code read_file}, {@code write_file},
 * {@code edit_file} (one exact replacement), {@code search}. Each is a pure function (workspace, arguments) ->
 * (result, workspace); a failing call (a missing file, a write outside /wiki, an ambiguous edit) is an
 * {@code ERROR: ...} result and leaves the workspace as it was.
 */
public final class WikiTools {
    private WikiTools() {}

    static final int SEARCH_LIMIT = 50;

    public static final List<ToolSpec> SPECS = List.of(
            spec(
                    "list_files",
                    "Lists the files under a directory (default: all), one path per line.",
                    PyDict.of("path", str("Directory, e.g. /docs or /wiki (default /)")),
                    List.of()),
            spec(
                    "read_file",
                    "Returns the text of a file.",
                    PyDict.of("path", str("Absolute file path")),
                    List.of("path")),
            spec(
                    "write_file",
                    "Creates or replaces a file under /wiki with the given text (Markdown).",
                    PyDict.of(
                            "path",
                            str("Absolute path under /wiki, e.g. /wiki/index.md"),
                            "content",
                            str("The file's full text")),
                    List.of("path", "content")),
            spec(
                    "edit_file",
                    "Replaces the one exact occurrence of old_text in a file under /wiki by new_text.",
                    PyDict.of(
                            "path",
                            str("Absolute path under /wiki"),
                            "old_text",
                            str("Text that occurs exactly once"),
                            "new_text",
                            str("Its replacement")),
                    List.of("path", "old_text", "new_text")),
            spec(
                    "search",
                    "Finds lines containing a text (case-insensitive) in the files under a directory: path:line: text.",
                    PyDict.of("query", str("The text to look for"), "path", str("Directory to search (default /)")),
                    List.of("query")));

    public static final List<String> NAMES = SPECS.stream().map(ToolSpec::name).toList();

    static final ToolSet TOOLS = new ToolSet(List.of(
            new ToolDef(
                    "list_files",
                    "list_files",
                    List.of(Param.optional("path", new PyStr("/"))),
                    (w, a) -> {
                        List<String> files = ws(w.get()).list(text(a.get("path")));
                        return new PyStr(files.isEmpty() ? "(no files)" : String.join("\n", files));
                    },
                    false),
            new ToolDef(
                    "read_file",
                    "read_file",
                    List.of(Param.required("path")),
                    (w, a) -> new PyStr(ws(w.get()).read(text(a.get("path")))),
                    false),
            new ToolDef(
                    "write_file",
                    "write_file",
                    List.of(Param.required("path"), Param.required("content")),
                    (w, a) -> {
                        String path = Workspace.normalise(text(a.get("path")));
                        w.set(ws(w.get()).write(path, text(a.get("content"))).files());
                        return new PyStr("wrote " + path);
                    },
                    true),
            new ToolDef(
                    "edit_file",
                    "edit_file",
                    List.of(Param.required("path"), Param.required("old_text"), Param.required("new_text")),
                    (w, a) -> {
                        String path = Workspace.normalise(text(a.get("path")));
                        w.set(ws(w.get())
                                .edit(path, text(a.get("old_text")), text(a.get("new_text")))
                                .files());
                        return new PyStr("edited " + path);
                    },
                    true),
            new ToolDef(
                    "search",
                    "search",
                    List.of(Param.required("query"), Param.optional("path", new PyStr("/"))),
                    (w, a) -> {
                        List<String> hits = ws(w.get()).search(text(a.get("query")), text(a.get("path")), SEARCH_LIMIT);
                        return new PyStr(hits.isEmpty() ? "(no matches)" : String.join("\n", hits));
                    },
                    false)));

    /** One call on {@code before}: its result and the workspace after it (the same one when it failed). */
    public record Step(ToolResult result, Workspace after) {}

    public static Step call(Workspace before, String tool, PyDict args) {
        return switch (TOOLS.dispatch(before.files(), tool, args)) {
            case ToolSet.Outcome.Ok ok ->
                new Step(ToolResult.ok(SyntheticTools.text(ok.result())), Workspace.fromValue(ok.world()));
            // A failed call writes nothing: the workspace before it stands.
            case ToolSet.Outcome.Failed f ->
                new Step(ToolResult.error("ERROR: " + f.error().str()), before);
            case ToolSet.Outcome.Unknown u ->
                new Step(ToolResult.error("ERROR: unknown tool '" + u.name() + "'."), before);
        };
    }

    /** A handler over a workspace it holds: calls run one at a time, each on the workspace the last one left. */
    public static ToolHandler handler(AtomicReference<Workspace> workspace) {
        return call -> {
            synchronized (workspace) {
                Step s = call(
                        workspace.get(), call.name(), call.arguments() == null ? PyDict.empty() : call.arguments());
                workspace.set(s.after());
                return s.result();
            }
        };
    }

    private static Workspace ws(Value v) {
        return Workspace.fromValue(v);
    }

    private static String text(Value v) {
        return SyntheticTools.text(v);
    }

    private static PyDict str(String description) {
        return PyDict.of("type", "string", "description", description);
    }

    private static ToolSpec spec(String name, String description, PyDict properties, List<String> required) {
        return new ToolSpec(
                name,
                description,
                PyDict.of(
                        "type",
                        "object",
                        "properties",
                        properties,
                        "required",
                        PyList.of(
                                required.stream().map(s -> (Value) new PyStr(s)).toList())));
    }
}
