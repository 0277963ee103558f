package brokkr.render.report;

import brokkr.eval.Exploration;
import brokkr.render.Html;
import brokkr.render.Markdown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files an attempt left ({@link Exploration#files}: a wiki's pages) as the report shows them: each rendered
 * (Markdown through {@link Markdown}, anything else as text), a link between them a jump inside the report, and a
 * citation of a source a jump to that source, which the report shows once per world in its Sources section
 * (every attempt on one world cites the same documents). A link that reaches no file is shown marked, as the
 * grader counts it broken.
 *
 * <p>Ids: {@code attempt-N-file-I} for the I-th file attempt N left, {@code sources-K} for the K-th set of sources
 * and {@code sources-K-file-J} for its J-th file (each after a prefix in a {@link #standalone} view).
 */
public final class FilesHtml {
    private FilesHtml() {}

    /**
     * {@code files} on their own (a notebook's {@code %run}): the made files, then the sources folded, every id
     * starting with {@code prefix} so that several such views share one page.
     */
    public static String standalone(String prefix, long attemptId, Exploration.Files files) {
        StringBuilder sb = new StringBuilder();
        Sources sources = new Sources(prefix);
        attempt(sb, prefix, attemptId, files, sources);
        sources.folded(sb);
        return sb.toString();
    }

    /** The source sets the attempts cite, numbered as first seen; written after the attempts. */
    static final class Sources {
        private final String prefix;
        private final Map<String, Integer> number = new LinkedHashMap<>();
        private final List<Exploration.Files> sets = new ArrayList<>();
        private final List<Map<String, Integer>> byPath = new ArrayList<>();

        Sources() {
            this("");
        }

        Sources(String prefix) {
            this.prefix = prefix;
        }

        /** The number of {@code files}' sources, kept when first seen. */
        int of(Exploration.Files files) {
            return number.computeIfAbsent(files.sourcesKey(), key -> {
                sets.add(files);
                Map<String, Integer> paths = new HashMap<>();
                for (int j = 0; j < files.sources().size(); j++)
                    paths.putIfAbsent(files.sources().get(j).path(), j);
                byPath.add(paths);
                return sets.size() - 1;
            });
        }

        /** The id of source {@code path} of set {@code k}, or null when the set has no such file. */
        String id(int k, String path) {
            Integer j = byPath.get(k).get(path);
            return j == null ? null : prefix + "sources-" + k + "-file-" + j;
        }

        /** The report's Sources section. */
        void write(StringBuilder sb) {
            if (sets.isEmpty()) return;
            sb.append("<section id=\"sources\"><h2>Sources</h2><p class=\"sub\">")
                    .append("what the attempts' files cite, once for every world they were made on</p>");
            folded(sb);
            sb.append("</section>");
        }

        /** Each set of sources, folded. */
        void folded(StringBuilder sb) {
            for (int k = 0; k < sets.size(); k++) {
                Exploration.Files set = sets.get(k);
                String filePrefix = prefix + "sources-" + k + "-file-";
                sb.append("<details class=\"sources\" id=\"")
                        .append(prefix)
                        .append("sources-")
                        .append(k)
                        .append("\"><summary><b>")
                        .append(esc(set.sourcesKey()))
                        .append("</b>: ")
                        .append(count(set.sources().size(), "file"))
                        .append("</summary><div class=\"files-body\">");
                nav(sb, set.sources(), filePrefix);
                int kk = k;
                for (int j = 0; j < set.sources().size(); j++) {
                    Exploration.File f = set.sources().get(j);
                    file(sb, filePrefix + j, f, dest -> {
                        String path = f.links().get(dest);
                        return path == null ? null : id(kk, path);
                    });
                }
                sb.append("</div></details>");
            }
        }
    }

    /** Attempt {@code id}'s files, after its grade. */
    static void attempt(StringBuilder sb, long id, Exploration.Files files, Sources sources) {
        attempt(sb, "", id, files, sources);
    }

    private static void attempt(StringBuilder sb, String idPrefix, long id, Exploration.Files files, Sources sources) {
        int k = sources.of(files);
        String prefix = idPrefix + "attempt-" + id + "-file-";
        Map<String, Integer> made = new HashMap<>();
        for (int i = 0; i < files.made().size(); i++)
            made.putIfAbsent(files.made().get(i).path(), i);
        sb.append("<div class=\"files\" id=\"")
                .append(idPrefix)
                .append("attempt-")
                .append(id)
                .append("-files\"><h3>")
                .append(esc(files.title()))
                .append("</h3><p class=\"sub\">");
        if (!files.note().isEmpty()) sb.append(esc(files.note())).append(" · ");
        sb.append("cites <a class=\"md-link\" href=\"#")
                .append(idPrefix)
                .append("sources-")
                .append(k)
                .append("\">")
                .append(esc(files.sourcesKey()))
                .append("</a> (")
                .append(count(files.sources().size(), "file"))
                .append(")</p>");
        if (files.made().isEmpty()) {
            sb.append("<p class=\"sub\">(none)</p></div>");
            return;
        }
        sb.append("<div class=\"files-body\">");
        nav(sb, files.made(), prefix);
        for (int i = 0; i < files.made().size(); i++) {
            Exploration.File f = files.made().get(i);
            file(sb, prefix + i, f, dest -> {
                String path = f.links().get(dest);
                if (path == null) return null;
                Integer to = made.get(path);
                return to != null ? prefix + to : sources.id(k, path);
            });
        }
        sb.append("</div></div>");
    }

    /** A line of links to each file. */
    private static void nav(StringBuilder sb, List<Exploration.File> files, String prefix) {
        sb.append("<nav class=\"file-nav\">");
        for (int i = 0; i < files.size(); i++) {
            if (i > 0) sb.append(" · ");
            sb.append("<a class=\"md-link\" href=\"#")
                    .append(prefix)
                    .append(i)
                    .append("\">")
                    .append(esc(name(files.get(i).path())))
                    .append("</a>");
        }
        sb.append("</nav>");
    }

    private static void file(
            StringBuilder sb, String id, Exploration.File f, java.util.function.Function<String, String> anchors) {
        sb.append("<article class=\"md-file\" id=\"")
                .append(id)
                .append("\"><div class=\"md-path\"><code>")
                .append(esc(f.path()))
                .append("</code></div><div class=\"md-body\">");
        if (f.path().endsWith(".md")) sb.append(Markdown.html(f.text(), anchors));
        else sb.append("<pre>").append(esc(f.text())).append("</pre>");
        sb.append("</div></article>");
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String esc(String s) {
        return Html.esc(s);
    }
}
