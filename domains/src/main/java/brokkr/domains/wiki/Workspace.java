package brokkr.domains.wiki;

import brokkr.python.PyException;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.FileDiff;
import brokkr.world.WorldDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The world of one wiki attempt: an immutable file tree, a persistent map from absolute path to text
 * ({@link PyDict}, so a fork is the value itself, O(1), and two workspaces share every file neither changed).
 * Every operation returns a new workspace or a result and leaves this one as it was; {@link #diff} says what
 * changed between two. {@code /docs} is read-only (the sources); the agent writes under {@code /wiki}.
 */
public record Workspace(PyDict files) {
    public static final String DOCS = "/docs/";
    public static final String WIKI = "/wiki/";
    /** The most a file may hold and the most files a workspace may have: a wiki, not a disk. */
    static final int MAX_FILE_CHARS = 200_000, MAX_FILES = 500;

    public static Workspace of(Map<String, String> files) {
        PyDict.Builder b = PyDict.builder();
        new TreeMap<>(files).forEach((k, v) -> b.put(k, new PyStr(v)));
        return new Workspace(b.build());
    }

    /** The workspace seeded with a world's documents under {@code /docs}. */
    public static Workspace seeded(WikiWorld w) {
        Map<String, String> docs = new TreeMap<>();
        Documents.of(w).forEach((path, d) -> docs.put(path, d.text()));
        return of(docs);
    }

    public static Workspace fromValue(Value v) {
        return new Workspace(v.asDict());
    }

    public String read(String path) {
        Value v = files.get(normalise(path));
        if (v == null) throw new PyException("FileNotFoundError", "no such file: " + path);
        return v.asStr();
    }

    public boolean exists(String path) {
        return files.containsKey(path);
    }

    /** The files under {@code dir} (a directory path, "/" for all), sorted. */
    public List<String> list(String dir) {
        String d = normalise(dir);
        String prefix = d.endsWith("/") ? d : d + "/";
        List<String> out = new ArrayList<>();
        for (String k : files.keys()) if (prefix.equals("/") || k.startsWith(prefix)) out.add(k);
        out.sort(null);
        return out;
    }

    /** This workspace with {@code path} holding {@code text} (created or replaced). */
    public Workspace write(String path, String text) {
        String p = writable(path);
        if (text.length() > MAX_FILE_CHARS)
            throw new PyException(
                    "ValueError", "file too large: " + text.length() + " characters (at most " + MAX_FILE_CHARS + ")");
        if (!files.containsKey(p) && files.size() >= MAX_FILES)
            throw new PyException("ValueError", "too many files (at most " + MAX_FILES + ")");
        return new Workspace(files.with(p, new PyStr(text)));
    }

    /** This workspace with the one occurrence of {@code old} in {@code path} replaced by {@code replacement}. */
    public Workspace edit(String path, String old, String replacement) {
        String p = writable(path);
        String text = read(p);
        if (old.isEmpty()) throw new PyException("ValueError", "old_text is empty");
        int at = text.indexOf(old);
        if (at < 0) throw new PyException("ValueError", "old_text not found in " + p);
        int count = 0;
        for (int i = at; i >= 0; i = text.indexOf(old, i + 1)) count++;
        if (count > 1)
            throw new PyException(
                    "ValueError", "old_text occurs " + count + " times in " + p + "; include more context");
        return write(p, text.substring(0, at) + replacement + text.substring(at + old.length()));
    }

    /** Lines containing {@code query} (case-insensitive) in the files under {@code dir}: {@code path:line: text}. */
    public List<String> search(String query, String dir, int limit) {
        if (query.isBlank()) throw new PyException("ValueError", "query is empty");
        String q = query.toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String path : list(dir)) {
            String[] lines = read(path).split("\n", -1);
            for (int i = 0; i < lines.length && out.size() < limit; i++)
                if (lines[i].toLowerCase(Locale.ROOT).contains(q))
                    out.add(path + ":" + (i + 1) + ": " + lines[i].strip());
        }
        return out;
    }

    /** The pages under {@code /wiki} by path: all the grade reads. */
    public Map<String, String> wiki() {
        Map<String, String> out = new TreeMap<>();
        for (String p : list(WIKI)) out.put(p, read(p));
        return out;
    }

    /** What changed from {@code before} to this workspace, file by file. */
    public List<WorldDiff.Change> diff(Workspace before) {
        return WorldDiff.diff(before.files, files);
    }

    /** What changed from {@code before} to this workspace as files: added, changed, removed, each with its unified diff. */
    public List<FileDiff.Change> fileDiff(Workspace before) {
        return FileDiff.of(before.files, files);
    }

    /** An absolute path with no empty, "." or ".." segments; a relative path is taken from the root. */
    static String normalise(String path) {
        if (path == null || path.isBlank()) throw new PyException("ValueError", "path is empty");
        List<String> parts = new ArrayList<>();
        for (String s : path.strip().split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) throw new PyException("ValueError", "path may not contain '..': " + path);
            parts.add(s);
        }
        return "/" + String.join("/", parts) + (path.endsWith("/") && !parts.isEmpty() ? "/" : "");
    }

    private static String writable(String path) {
        String p = normalise(path);
        if (p.endsWith("/")) throw new PyException("IsADirectoryError", "not a file path: " + path);
        if (!p.startsWith(WIKI))
            throw new PyException("PermissionError", "only files under /wiki/ can be written (" + path + ")");
        return p;
    }
}
