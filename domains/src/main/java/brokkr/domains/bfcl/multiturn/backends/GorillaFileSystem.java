package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;
import static brokkr.python.PyObjects.str;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.LongContextData;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Scenario;
import brokkr.domains.bfcl.multiturn.StateDump;
import brokkr.domains.bfcl.multiturn.StateNode;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyStrMethods;
import brokkr.python.TextMemo;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pcollections.HashTreePMap;
import org.pcollections.OrderedPMap;
import org.pcollections.PMap;

/**
 * gorilla {@code func_source_code/gorilla_file_system.py} {@code GorillaFileSystem} (with its {@code File}
 * and {@code Directory}).
 *
 * <p>Upstream's objects alias: {@code mv} of a directory hands the old {@code contents} dict to the new
 * directory, {@code cp} a shallow copy of it (the files and subdirectories are then the same objects in
 * both trees), and children keep {@code parent} pointing at the old directory object. To reproduce that
 * with values, the file system is a persistent heap: every {@code File}, {@code Directory} and
 * {@code contents} dict is a cell addressed by an id, and sharing is sharing ids.
 */
public record GorillaFileSystem(boolean longContext, int root, int currentDir, PMap<Integer, Object> heap, int nextId)
        implements Backend {

    /** A {@code File}: name and content as upstream holds them (any Python object a call wrote). */
    record FileCell(Object name, Object content) {}

    /** A {@code Directory}: its name, its parent directory's id (-1 for None) and its contents dict's id. */
    record DirCell(Object name, int parent, int contents) {}

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("long_context", longContext);
        m.put("root", new NodeView(heap, root));
        return m;
    }

    /** A File or Directory of this heap as the state dump renders it (what its {@code __eq__} compares). */
    record NodeView(PMap<Integer, Object> heap, int id) implements StateNode {
        @Override
        public Value render() {
            Object cell = heap.get(id);
            if (cell instanceof FileCell f) {
                return PyDict.of(
                        "$file",
                        PyDict.of("content", StateDump.render(f.content()), "name", StateDump.render(f.name())));
            }
            DirCell d = (DirCell) cell;
            Map<Object, Object> children = new LinkedHashMap<>();
            for (Map.Entry<Object, Integer> e : contentsOf(heap, d).entrySet())
                children.put(e.getKey(), new NodeView(heap, e.getValue()));
            return PyDict.of(
                    "$dir", PyDict.of("contents", StateDump.render(children), "name", StateDump.render(d.name())));
        }

        @Override
        public void writeCanonical(StringBuilder sb) {
            sb.append(canonicalText());
        }

        /**
         * The canonical text of {@link #render}, remembered per cell: a file's text is a function of its (immutable)
         * cell; a directory's of its cell, its contents dict and its children's texts, so it is reused when the
         * children's remembered texts are the same objects as when it was made (a call changes one path of the
         * tree; every other directory's text is then found, not written).
         */
        String canonicalText() {
            Object cell = heap.get(id);
            if (cell instanceof FileCell f) {
                String known = FILE_TEXTS.get(f);
                if (known != null) return known;
                StringBuilder sb = new StringBuilder(64);
                sb.append("{\"$file\":{\"content\":");
                StateDump.writeCanonical(f.content(), sb);
                sb.append(",\"name\":");
                StateDump.writeCanonical(f.name(), sb);
                sb.append("}}");
                String text = sb.toString();
                FILE_TEXTS.put(f, text);
                return text;
            }
            DirCell d = (DirCell) cell;
            OrderedPMap<Object, Integer> contents = contentsOf(heap, d);
            String[] childTexts = new String[contents.size()];
            int i = 0;
            for (int child : contents.values()) childTexts[i++] = new NodeView(heap, child).canonicalText();
            int slot = System.identityHashCode(d) & (DIR_TEXTS.length - 1);
            DirText known = DIR_TEXTS[slot];
            if (known != null && known.cell == d && known.contents == contents && same(known.childTexts, childTexts))
                return known.text;
            Map<Object, Object> children = new LinkedHashMap<>();
            i = 0;
            for (Object name : contents.keySet()) children.put(name, new Written(childTexts[i++]));
            StringBuilder sb = new StringBuilder(64);
            sb.append("{\"$dir\":{\"contents\":");
            StateDump.writeCanonical(children, sb);
            sb.append(",\"name\":");
            StateDump.writeCanonical(d.name(), sb);
            sb.append("}}");
            String text = sb.toString();
            DIR_TEXTS[slot] = new DirText(d, contents, childTexts, text);
            return text;
        }

        private static boolean same(String[] a, String[] b) {
            if (a.length != b.length) return false;
            for (int i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
            return true;
        }
    }

    /** Files' canonical texts by cell ({@link NodeView#canonicalText}); a file cell is immutable. */
    private static final TextMemo FILE_TEXTS = new TextMemo(1 << 14, 0);

    /** A directory's canonical text and what it was made from (compared by identity). */
    private record DirText(DirCell cell, Object contents, String[] childTexts, String text) {}

    /** Directories' canonical texts, direct-mapped on the cell's identity (one immutable entry per slot). */
    private static final DirText[] DIR_TEXTS = new DirText[1 << 13];

    static {
        // a benchmark's run starts as a fresh process would: without the texts of the run before
        StateDump.forgetWithStateShas(() -> {
            FILE_TEXTS.clear();
            java.util.Arrays.fill(DIR_TEXTS, null);
        });
    }

    /** A child's canonical text, already written, as a value of the contents dict the directory's text writes. */
    private record Written(String text) implements StateNode {
        @Override
        public Value render() {
            throw new UnsupportedOperationException("a written text has no rendering");
        }

        @Override
        public void writeCanonical(StringBuilder sb) {
            sb.append(text);
        }
    }

    // ---------------------------------------------------------------- heap

    @SuppressWarnings("unchecked")
    private static OrderedPMap<Object, Integer> contentsOf(PMap<Integer, Object> heap, DirCell d) {
        return (OrderedPMap<Object, Integer>) heap.get(d.contents());
    }

    private DirCell dir(int id) {
        return (DirCell) heap.get(id);
    }

    private OrderedPMap<Object, Integer> contents(int dirId) {
        return contentsOf(heap, dir(dirId));
    }

    private GorillaFileSystem withHeap(PMap<Integer, Object> h, int next) {
        return new GorillaFileSystem(longContext, root, currentDir, h, next);
    }

    private GorillaFileSystem withCurrent(int dirId) {
        return new GorillaFileSystem(longContext, root, dirId, heap, nextId);
    }

    private GorillaFileSystem withContents(int dirId, OrderedPMap<Object, Integer> c) {
        return withHeap(heap.plus(dir(dirId).contents(), c), nextId);
    }

    /** A new cell; returns the file system and the id in {@code id[0]}. */
    private GorillaFileSystem alloc(Object cell, int[] id) {
        id[0] = nextId;
        return withHeap(heap.plus(nextId, cell), nextId + 1);
    }

    /** {@code name in directory.contents} (TypeError for an unhashable name). */
    private boolean has(int dirId, Object name) {
        PyObjects.requireHashable(name);
        return contents(dirId).containsKey(name);
    }

    /** Directory._get_item: {@code "."} is the directory itself, else {@code contents.get(name)}; -1 for None. */
    private int getItem(int dirId, Object name) {
        if (PyObjects.eq(name, ".")) return dirId;
        PyObjects.requireHashable(name);
        Integer id = contents(dirId).get(name);
        return id == null ? -1 : id;
    }

    private boolean isDir(int id) {
        return id >= 0 && heap.get(id) instanceof DirCell;
    }

    private boolean isFile(int id) {
        return id >= 0 && heap.get(id) instanceof FileCell;
    }

    /** Directory._add_file: ValueError if the name exists. */
    private GorillaFileSystem addFile(int dirId, Object name, Object content) {
        if (has(dirId, name)) {
            throw PyException.valueError("File '" + str(name) + "' already exists in directory '"
                    + str(dir(dirId).name()) + "'.");
        }
        int[] id = new int[1];
        GorillaFileSystem fs = alloc(new FileCell(name, content), id);
        return fs.withContents(dirId, fs.contents(dirId).plus(name, id[0]));
    }

    /** Directory._add_directory: ValueError if the name exists; the new directory's id in {@code out[0]}. */
    private GorillaFileSystem addDirectory(int dirId, Object name, int[] out) {
        if (has(dirId, name)) {
            throw PyException.valueError("Directory '" + str(name) + "' already exists in directory '"
                    + str(dir(dirId).name()) + "'.");
        }
        int[] c = new int[1];
        GorillaFileSystem fs = alloc(OrderedPMap.empty(), c);
        int[] d = new int[1];
        fs = fs.alloc(new DirCell(name, dirId, c[0]), d);
        if (out != null) out[0] = d[0];
        return fs.withContents(dirId, fs.contents(dirId).plus(name, d[0]));
    }

    private GorillaFileSystem pop(int dirId, Object name) {
        return withContents(dirId, contents(dirId).minus(name));
    }

    /** Replaces a directory's contents dict by the cell {@code contentsId} ({@code dest.contents[name].contents = ...}). */
    private GorillaFileSystem setContentsCell(int dirId, int contentsId) {
        DirCell d = dir(dirId);
        return withHeap(heap.plus(dirId, new DirCell(d.name(), d.parent(), contentsId)), nextId);
    }

    // ---------------------------------------------------------------- loading

    private static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> scenario = Scenario.dict(config);
        GorillaFileSystem fs = new GorillaFileSystem(longContext, -1, -1, HashTreePMap.empty(), 0);
        int[] c = new int[1];
        int[] d = new int[1];
        if (scenario.containsKey("root")) {
            Object rootSpec = scenario.get("root");
            Object rootName = PyObjectOps.iterate(rootSpec).getFirst();
            fs = fs.alloc(OrderedPMap.empty(), c);
            fs = fs.alloc(new DirCell(rootName, -1, c[0]), d);
            fs = fs.loadDirectory(PyObjectOps.getItem(PyObjectOps.getItem(rootSpec, rootName), "contents"), d[0]);
        } else {
            // DEFAULT_STATE = {"root": Directory("/", None)}
            fs = fs.alloc(OrderedPMap.empty(), c);
            fs = fs.alloc(new DirCell("/", -1, c[0]), d);
        }
        fs = new GorillaFileSystem(longContext, d[0], d[0], fs.heap, fs.nextId);
        return new Outcome(fs, g, PyNone.NONE);
    }

    /** _load_directory: directories recursively, files (long context: padded unless tail-used), bottommost dirs populated. */
    private GorillaFileSystem loadDirectory(Object current, int parent) {
        GorillaFileSystem fs = this;
        boolean bottommost = true;
        Map<?, ?> entries = (Map<?, ?>) current;
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            Object name = e.getKey();
            Object data = e.getValue();
            Object type = PyObjectOps.getItem(data, "type");
            if (PyObjects.eq(type, "directory")) {
                bottommost = false;
                int[] c = new int[1];
                int[] d = new int[1];
                fs = fs.alloc(OrderedPMap.empty(), c);
                fs = fs.alloc(new DirCell(name, parent, c[0]), d);
                fs = fs.loadDirectory(PyObjectOps.getItem(data, "contents"), d[0]);
                fs = fs.withContents(parent, fs.contents(parent).plus(name, d[0]));
            } else if (PyObjects.eq(type, "file")) {
                Object content = PyObjectOps.getItem(data, "content");
                if (longContext && !PyObjectOps.in(name, LongContextData.get().value("FILES_TAIL_USED"))) {
                    content = PyObjectOps.add(content, LongContextData.get().value("FILE_CONTENT_EXTENSION"));
                }
                int[] f = new int[1];
                fs = fs.alloc(new FileCell(name, content), f);
                fs = fs.withContents(parent, fs.contents(parent).plus(name, f[0]));
            }
        }
        if (bottommost && longContext) {
            for (Object name : PyObjectOps.iterate(LongContextData.get().value("POPULATE_FILE_EXTENSION"))) {
                fs = fs.addFile(parent, name, "");
            }
        }
        return fs;
    }

    // ---------------------------------------------------------------- methods

    private static GorillaFileSystem self(Backend b) {
        return (GorillaFileSystem) b;
    }

    private static Outcome out(GorillaFileSystem fs, Globals g, Object result) {
        return new Outcome(fs, g, result);
    }

    private static Outcome pwd(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        List<Object> path = new ArrayList<>();
        // `dir.name != self.root` compares a name with a Directory: always true, so the root's name is included
        for (int d = fs.currentDir; d >= 0; d = fs.dir(d).parent())
            path.add(fs.dir(d).name());
        Collections.reverse(path);
        return out(fs, g, dict("current_working_directory", "/" + PyObjectOps.join("/", ArrayVector.from(path))));
    }

    private static Outcome ls(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        List<Object> names = new ArrayList<>(fs.contents(fs.currentDir).keySet());
        if (!PyObjects.truthy(a[0])) {
            List<Object> shown = new ArrayList<>();
            for (Object n : names) if (!PyObjectOps.strReceiver(n, "startswith").startsWith(".")) shown.add(n);
            names = shown;
        }
        return out(fs, g, dict("current_directory_content", ArrayVector.from(names)));
    }

    private static Outcome cd(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        String folder = rstrip(PyObjectOps.strReceiver(a[0], "rstrip"), '/');
        if (folder.isEmpty()) folder = "/";
        if (!folder.equals(".") && !folder.equals("..") && !folder.equals("/") && folder.contains("/")) {
            return out(
                    fs,
                    g,
                    dict(
                            "error",
                            "cd: " + folder + ": Unsupported path. Only one folder level at a time is supported."));
        }
        if (folder.equals("..")) {
            int parent = fs.dir(fs.currentDir).parent();
            if (parent >= 0) return out(fs.withCurrent(parent), g, dict());
            if (fs.render(fs.root).equals(fs.render(fs.currentDir))) {
                return out(fs, g, dict("error", "Current directory is already the root. Cannot go back."));
            }
            return out(fs, g, dict("error", "cd: ..: No such directory"));
        }
        Object target = fs.navigate(folder);
        if (target instanceof Map<?, ?>) return out(fs, g, target);
        int t = (Integer) target;
        return out(
                fs.withCurrent(t),
                g,
                dict("current_working_directory", fs.dir(t).name()));
    }

    private Value render(int id) {
        return new NodeView(heap, id).render();
    }

    private static String rstrip(String s, char c) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == c) end--;
        return s.substring(0, end);
    }

    private static String strip(String s, char c) {
        int start = 0;
        while (start < s.length() && s.charAt(start) == c) start++;
        return rstrip(s.substring(start), c);
    }

    /** _validate_file_or_directory_name: {@code any(c in name for c in '|/\\?%*:"><')}. */
    private static boolean validName(Object name) {
        for (char c : "|/\\?%*:\"><".toCharArray()) {
            if (PyObjectOps.in(String.valueOf(c), name)) return false;
        }
        return true;
    }

    private static Outcome mkdir(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0];
        if (!validName(name))
            return out(fs, g, dict("error", "mkdir: cannot create directory '" + str(name) + "': Invalid character"));
        if (fs.has(fs.currentDir, name))
            return out(fs, g, dict("error", "mkdir: cannot create directory '" + str(name) + "': File exists"));
        return out(fs.addDirectory(fs.currentDir, name, null), g, PyNone.NONE);
    }

    private static Outcome touch(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0];
        if (!validName(name))
            return out(fs, g, dict("error", "touch: cannot touch '" + str(name) + "': Invalid character"));
        if (fs.has(fs.currentDir, name))
            return out(fs, g, dict("error", "touch: cannot touch '" + str(name) + "': File exists"));
        return out(fs.addFile(fs.currentDir, name, ""), g, PyNone.NONE);
    }

    private static Outcome echo(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object content = a[0], name = a[1];
        if (name == PyNone.NONE) return out(fs, g, dict("terminal_output", content));
        if (!validName(name))
            return out(fs, g, dict("error", "echo: cannot write to '" + str(name) + "': Invalid character"));
        if (PyObjects.truthy(name)) {
            if (fs.has(fs.currentDir, name)) {
                int item = fs.getItem(fs.currentDir, name);
                if (!(fs.heap.get(item) instanceof FileCell f)) {
                    throw PyException.attributeError("'Directory' object has no attribute '_write'");
                }
                return out(fs.withHeap(fs.heap.plus(item, new FileCell(f.name(), content)), fs.nextId), g, PyNone.NONE);
            }
            return out(fs, g, dict("error", "echo: cannot write to '" + str(name) + "': No such file"));
        }
        return out(fs, g, dict("terminal_output", content));
    }

    private static Outcome cat(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0];
        if (!validName(name)) return out(fs, g, dict("error", "cat: '" + str(name) + "': Invalid character"));
        if (fs.has(fs.currentDir, name)) {
            int item = fs.getItem(fs.currentDir, name);
            if (fs.heap.get(item) instanceof FileCell f) return out(fs, g, dict("file_content", f.content()));
            return out(fs, g, dict("error", "cat: '" + str(name) + "': Is a directory"));
        }
        return out(fs, g, dict("error", "cat: '" + str(name) + "': No such file or directory"));
    }

    /** _navigate_to_directory: the directory's id (Integer) or the error dict. */
    private Object navigate(Object path) {
        if (path == PyNone.NONE || PyObjects.eq(path, ".")) return currentDir;
        if (PyObjects.eq(path, "/")) return root;
        String p = PyObjectOps.strReceiver(path, "strip");
        String[] dirs = strip(p, '/').split("/", -1);
        int temp = p.startsWith("/") ? root : currentDir;
        for (String name : dirs) {
            int next = getItem(temp, name);
            if (isDir(next)) temp = next;
            else return dict("error", "cd: '" + p + "': No such file or directory");
        }
        return temp;
    }

    private static Outcome find(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object path = a[0], name = a[1];
        Object target = fs.navigate(path);
        if (target instanceof Map<?, ?> err) {
            Object msg = err.get("error");
            if (msg instanceof String s && s.startsWith("cd:"))
                return out(fs, g, dict("error", s.replaceFirst("cd:", "find:")));
            return out(fs, g, err);
        }
        List<Object> matches = new ArrayList<>();
        fs.search((Integer) target, rstrip(PyObjectOps.strReceiver(path, "rstrip"), '/'), name, matches);
        return out(fs, g, dict("matches", ArrayVector.from(matches)));
    }

    private void search(int dirId, String base, Object name, List<Object> matches) {
        for (Map.Entry<Object, Integer> e : contents(dirId).entrySet()) {
            String itemPath = base + "/" + str(e.getKey());
            if (name == PyNone.NONE || PyObjectOps.in(name, e.getKey())) matches.add(itemPath);
            if (isDir(e.getValue())) search(e.getValue(), itemPath, name, matches);
        }
    }

    /** The file under {@code name} in the current directory, or null (a missing name or a directory). */
    private FileCell localFile(Object name) {
        if (!has(currentDir, name)) return null;
        int item = getItem(currentDir, name);
        return heap.get(item) instanceof FileCell f ? f : null;
    }

    private static Outcome wc(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0], mode = a[1];
        if (!PyObjectOps.in(mode, PyObjects.list("l", "w", "c")))
            return out(fs, g, dict("error", "wc: invalid mode '" + str(mode) + "'"));
        FileCell f = fs.localFile(name);
        if (f != null) {
            Object content = f.content();
            if (PyObjects.eq(mode, "l")) {
                return out(
                        fs,
                        g,
                        dict(
                                "count",
                                BigInteger.valueOf(
                                        PyStrMethods.splitlines(PyObjectOps.strReceiver(content, "splitlines"))
                                                .size()),
                                "type",
                                "lines"));
            }
            if (PyObjects.eq(mode, "w")) {
                return out(
                        fs,
                        g,
                        dict(
                                "count",
                                BigInteger.valueOf(PyStrMethods.split(PyObjectOps.strReceiver(content, "split"))
                                        .size()),
                                "type",
                                "words"));
            }
            return out(fs, g, dict("count", BigInteger.valueOf(PyObjectOps.len(content)), "type", "characters"));
        }
        return out(fs, g, dict("error", "wc: " + str(name) + ": No such file or directory"));
    }

    private static Outcome sort(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        FileCell f = fs.localFile(a[0]);
        if (f != null) {
            List<String> lines =
                    new ArrayList<>(PyStrMethods.splitlines(PyObjectOps.strReceiver(f.content(), "splitlines")));
            lines.sort(brokkr.python.PyStrings::compare);
            return out(fs, g, dict("sorted_content", String.join("\n", lines)));
        }
        return out(fs, g, dict("error", "sort: " + str(a[0]) + ": No such file or directory"));
    }

    private static Outcome grep(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        FileCell f = fs.localFile(a[0]);
        if (f != null) {
            List<Object> matching = new ArrayList<>();
            for (String line : PyStrMethods.splitlines(PyObjectOps.strReceiver(f.content(), "splitlines"))) {
                if (PyObjectOps.in(a[1], line)) matching.add(line);
            }
            return out(fs, g, dict("matching_lines", ArrayVector.from(matching)));
        }
        return out(fs, g, dict("error", "grep: " + str(a[0]) + ": No such file or directory"));
    }

    private long size(int id) {
        Object cell = heap.get(id);
        if (cell instanceof FileCell f) {
            String s = PyObjectOps.strReceiver(f.content(), "encode");
            return utf8Length(s);
        }
        long total = 0;
        for (int child : contentsOf(heap, (DirCell) cell).values()) total += size(child);
        return total;
    }

    /** {@code len(s.encode("utf-8"))}: a lone surrogate is a UnicodeEncodeError. */
    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new PyException(
                        "UnicodeEncodeError",
                        "'utf-8' codec can't encode character '\\u" + String.format("%04x", (int) c) + "' in position "
                                + s.codePointCount(0, i) + ": surrogates not allowed");
            } else {
                n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
        }
        return n;
    }

    private static Outcome du(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        long total = fs.size(fs.currentDir);
        String sizeStr;
        if (PyObjects.truthy(a[0])) {
            sizeStr = null;
            double t = total;
            for (String unit : List.of("B", "KB", "MB", "GB", "TB")) {
                if (t < 1024) {
                    sizeStr = PyFormat.fixed(t, 2) + " " + unit;
                    break;
                }
                t /= 1024;
            }
            if (sizeStr == null) sizeStr = PyFormat.fixed(t, 2) + " PB";
        } else {
            sizeStr = total + " bytes";
        }
        return out(fs, g, dict("disk_usage", sizeStr));
    }

    private static Outcome tail(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        FileCell f = fs.localFile(a[0]);
        if (f != null) {
            List<Object> content =
                    new ArrayList<>(PyStrMethods.splitlines(PyObjectOps.strReceiver(f.content(), "splitlines")));
            Object lines = a[1];
            if (PyObjectOps.gt(lines, BigInteger.valueOf(content.size()))) lines = BigInteger.valueOf(content.size());
            // content[-lines:]
            Object start = PyObjectOps.neg(lines);
            if (!PyObjects.isInt(start))
                throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
            long s = PyObjects.asBigInteger(start)
                    .max(BigInteger.valueOf(-content.size() - 1L))
                    .min(BigInteger.valueOf(content.size() + 1L))
                    .longValue();
            if (s < 0) s = Math.max(0, s + content.size());
            s = Math.min(s, content.size());
            List<String> last = new ArrayList<>();
            for (Object o : content.subList((int) s, content.size())) last.add((String) o);
            return out(fs, g, dict("last_lines", String.join("\n", last)));
        }
        return out(fs, g, dict("error", "tail: " + str(a[0]) + ": No such file or directory"));
    }

    private static Outcome diff(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object n1 = a[0], n2 = a[1];
        if (fs.has(fs.currentDir, n1) && fs.has(fs.currentDir, n2)) {
            int i1 = fs.getItem(fs.currentDir, n1), i2 = fs.getItem(fs.currentDir, n2);
            if (fs.isFile(i1) && fs.isFile(i2)) {
                List<String> c1 = PyStrMethods.splitlines(
                        PyObjectOps.strReceiver(((FileCell) fs.heap.get(i1)).content(), "splitlines"));
                List<String> c2 = PyStrMethods.splitlines(
                        PyObjectOps.strReceiver(((FileCell) fs.heap.get(i2)).content(), "splitlines"));
                List<String> out = new ArrayList<>();
                for (int i = 0; i < Math.min(c1.size(), c2.size()); i++) {
                    if (!c1.get(i).equals(c2.get(i))) out.add("- " + c1.get(i) + "\n+ " + c2.get(i));
                }
                return out(fs, g, dict("diff_lines", String.join("\n", out)));
            }
        }
        return out(fs, g, dict("error", "diff: " + str(n1) + " or " + str(n2) + ": No such file or directory"));
    }

    private static Outcome mv(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object source = a[0], destination = a[1];
        int cur = fs.currentDir;
        if (!fs.has(cur, source))
            return out(fs, g, dict("error", "mv: cannot move '" + str(source) + "': No such file or directory"));
        int item = fs.getItem(cur, source);
        if (PyObjectOps.in("/", destination)) {
            return out(
                    fs,
                    g,
                    dict("error", "mv: path not allowed in destination. Provide only a file or directory name."));
        }
        if (fs.has(cur, destination)) {
            int dest = fs.getItem(cur, destination);
            if (fs.isDir(dest)) {
                if (fs.has(dest, source)) {
                    return out(
                            fs,
                            g,
                            dict(
                                    "error",
                                    "mv: cannot move '" + str(source) + "' to '" + str(destination) + "/" + str(source)
                                            + "': File exists"));
                }
                fs = fs.pop(cur, source);
                fs = fs.transfer(item, dest, source, false);
                return out(
                        fs,
                        g,
                        dict(
                                "result",
                                "'" + str(source) + "' moved to '" + str(destination) + "/" + str(source) + "'"));
            }
            return out(
                    fs,
                    g,
                    dict(
                            "error",
                            "mv: cannot move '" + str(source) + "' to '" + str(destination) + "': Not a directory"));
        }
        fs = fs.pop(cur, source);
        fs = fs.transfer(item, cur, destination, false);
        return out(fs, g, dict("result", "'" + str(source) + "' moved to '" + str(destination) + "'"));
    }

    /**
     * Adds {@code item} under {@code name} to directory {@code into}: a file as a new File with its content,
     * a directory as a new Directory given the old one's contents dict (mv) or a shallow copy of it (cp).
     */
    private GorillaFileSystem transfer(int item, int into, Object name, boolean copy) {
        Object cell = heap.get(item);
        if (cell instanceof FileCell f) return addFile(into, name, f.content());
        int[] d = new int[1];
        GorillaFileSystem fs = addDirectory(into, name, d);
        DirCell old = (DirCell) cell;
        if (!copy) return fs.setContentsCell(d[0], old.contents());
        int[] c = new int[1];
        fs = fs.alloc(contentsOf(fs.heap, old), c);
        return fs.setContentsCell(d[0], c[0]);
    }

    private static Outcome rm(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0];
        if (fs.has(fs.currentDir, name)) {
            fs.getItem(fs.currentDir, name);
            return out(fs.pop(fs.currentDir, name), g, dict("result", "'" + str(name) + "' removed"));
        }
        return out(fs, g, dict("error", "rm: cannot remove '" + str(name) + "': No such file or directory"));
    }

    private static Outcome rmdir(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object name = a[0];
        if (fs.has(fs.currentDir, name)) {
            int item = fs.getItem(fs.currentDir, name);
            if (fs.isDir(item)) {
                if (!fs.contents(item).isEmpty()) {
                    return out(fs, g, dict("error", "rmdir: cannot remove '" + str(name) + "': Directory not empty"));
                }
                return out(fs.pop(fs.currentDir, name), g, dict("result", "'" + str(name) + "' removed"));
            }
            return out(fs, g, dict("error", "rmdir: cannot remove '" + str(name) + "': Not a directory"));
        }
        return out(fs, g, dict("error", "rmdir: cannot remove '" + str(name) + "': No such file or directory"));
    }

    private static Outcome cp(Backend b, Object[] a, Globals g) {
        GorillaFileSystem fs = self(b);
        Object source = a[0], destination = a[1];
        int cur = fs.currentDir;
        if (!fs.has(cur, source))
            return out(fs, g, dict("error", "cp: cannot copy '" + str(source) + "': No such file or directory"));
        int item = fs.getItem(cur, source);
        if (PyObjectOps.in("/", destination)) {
            return out(
                    fs,
                    g,
                    dict("error", "cp: path not allowed in destination. Provide only a file or directory name."));
        }
        if (fs.has(cur, destination)) {
            int dest = fs.getItem(cur, destination);
            if (fs.isDir(dest)) {
                // upstream looks for the key f"{destination}/{source}", which never exists
                String newDestination = str(destination) + "/" + str(source);
                if (fs.has(dest, newDestination)) {
                    return out(
                            fs,
                            g,
                            dict(
                                    "error",
                                    "cp: cannot copy '" + str(source) + "' to '" + newDestination + "': File exists"));
                }
                fs = fs.transfer(item, dest, source, true);
                return out(fs, g, dict("result", "'" + str(source) + "' copied to '" + newDestination + "'"));
            }
            return out(
                    fs,
                    g,
                    dict(
                            "error",
                            "cp: cannot copy '" + str(source) + "' to '" + str(destination) + "': Not a directory"));
        }
        fs = fs.transfer(item, cur, destination, true);
        return out(fs, g, dict("result", "'" + str(source) + "' copied to '" + str(destination) + "'"));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "GorillaFileSystem",
            false,
            GorillaFileSystem::load,
            List.of(
                    Method.of("pwd", GorillaFileSystem::pwd),
                    Method.of("ls", GorillaFileSystem::ls, optional("a", false)),
                    Method.of("cd", GorillaFileSystem::cd, required("folder")),
                    Method.of("mkdir", GorillaFileSystem::mkdir, required("dir_name")),
                    Method.of("touch", GorillaFileSystem::touch, required("file_name")),
                    Method.of("echo", GorillaFileSystem::echo, required("content"), optional("file_name", PyNone.NONE)),
                    Method.of("cat", GorillaFileSystem::cat, required("file_name")),
                    Method.of("find", GorillaFileSystem::find, optional("path", "."), optional("name", PyNone.NONE)),
                    Method.of("wc", GorillaFileSystem::wc, required("file_name"), optional("mode", "l")),
                    Method.of("sort", GorillaFileSystem::sort, required("file_name")),
                    Method.of("grep", GorillaFileSystem::grep, required("file_name"), required("pattern")),
                    Method.of("du", GorillaFileSystem::du, optional("human_readable", false)),
                    Method.of(
                            "tail", GorillaFileSystem::tail, required("file_name"), optional("lines", BigInteger.TEN)),
                    Method.of("diff", GorillaFileSystem::diff, required("file_name1"), required("file_name2")),
                    Method.of("mv", GorillaFileSystem::mv, required("source"), required("destination")),
                    Method.of("rm", GorillaFileSystem::rm, required("file_name")),
                    Method.of("rmdir", GorillaFileSystem::rmdir, required("dir_name")),
                    Method.of("cp", GorillaFileSystem::cp, required("source"), required("destination"))));
}
