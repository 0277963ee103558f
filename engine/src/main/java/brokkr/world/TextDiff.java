package brokkr.world;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two texts and its unified form ({@code @@ -l,n +l,n @@} hunks of {@code " "}, {@code "-"} and
 * {@code "+"} lines with {@code context} lines around each change), for a person reading what a call changed in a
 * file. The lines are a longest common subsequence's (after the common head and tail are set aside); a middle too
 * large to align ({@value #MAX_CELLS} cells) is shown as removed then added, which is still a correct diff.
 */
public final class TextDiff {
    private TextDiff() {}

    static final long MAX_CELLS = 4_000_000;

    public enum Op {
        SAME,
        REMOVED,
        ADDED
    }

    /** One line of the diff; {@code before}/{@code after} its 1-based line numbers, 0 where it has none. */
    public record Line(Op op, String text, int before, int after) {}

    /** The texts' lines ({@code "\n"}-separated; a final newline is an empty last line) aligned. */
    public static List<Line> lines(String before, String after) {
        String[] a = split(before), b = split(after);
        int head = 0;
        while (head < a.length && head < b.length && a[head].equals(b[head])) head++;
        int tail = 0;
        while (tail < a.length - head
                && tail < b.length - head
                && a[a.length - 1 - tail].equals(b[b.length - 1 - tail])) tail++;
        List<Line> out = new ArrayList<>();
        for (int i = 0; i < head; i++) out.add(new Line(Op.SAME, a[i], i + 1, i + 1));
        int n = a.length - head - tail, m = b.length - head - tail;
        if ((long) n * m <= MAX_CELLS) middle(a, b, head, n, m, out);
        else {
            for (int i = 0; i < n; i++) out.add(new Line(Op.REMOVED, a[head + i], head + i + 1, 0));
            for (int j = 0; j < m; j++) out.add(new Line(Op.ADDED, b[head + j], 0, head + j + 1));
        }
        for (int k = 0; k < tail; k++)
            out.add(new Line(Op.SAME, a[a.length - tail + k], a.length - tail + k + 1, b.length - tail + k + 1));
        return out;
    }

    /** The middle by a longest common subsequence: removals before additions where both are possible. */
    private static void middle(String[] a, String[] b, int off, int n, int m, List<Line> out) {
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--)
            for (int j = m - 1; j >= 0; j--)
                lcs[i][j] =
                        a[off + i].equals(b[off + j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[off + i].equals(b[off + j])) {
                out.add(new Line(Op.SAME, a[off + i], off + i + 1, off + j + 1));
                i++;
                j++;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                out.add(new Line(Op.REMOVED, a[off + i], off + i + 1, 0));
                i++;
            } else {
                out.add(new Line(Op.ADDED, b[off + j], 0, off + j + 1));
                j++;
            }
        }
    }

    /** The unified hunks of the change from {@code before} to {@code after} ("" when they are equal). */
    public static String unified(String before, String after, int context) {
        List<Line> ls = lines(before, after);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < ls.size()) {
            if (ls.get(i).op() == Op.SAME) {
                i++;
                continue;
            }
            // a hunk: from context lines before this change to context lines after the last change within reach
            int start = Math.max(0, i - context), end = i;
            while (true) {
                int next = end;
                while (next < ls.size() && ls.get(next).op() != Op.SAME) next++;
                int same = next;
                while (same < ls.size() && ls.get(same).op() == Op.SAME) same++;
                if (same < ls.size() && same - next <= 2 * context) end = same;
                else {
                    end = Math.min(ls.size(), next + context);
                    break;
                }
            }
            hunk(ls.subList(start, end), ls, start, sb);
            i = end;
        }
        return sb.toString();
    }

    private static void hunk(List<Line> h, List<Line> all, int start, StringBuilder sb) {
        int oldCount = 0, newCount = 0, oldStart = 0, newStart = 0;
        for (Line l : h) {
            if (l.op() != Op.ADDED) {
                if (oldCount++ == 0) oldStart = l.before();
            }
            if (l.op() != Op.REMOVED) {
                if (newCount++ == 0) newStart = l.after();
            }
        }
        // an empty side starts after the line before the hunk (0 at the top), as diff -u writes it
        if (oldCount == 0) oldStart = lastNumber(all, start, true);
        if (newCount == 0) newStart = lastNumber(all, start, false);
        sb.append("@@ -")
                .append(oldStart)
                .append(',')
                .append(oldCount)
                .append(" +")
                .append(newStart)
                .append(',')
                .append(newCount)
                .append(" @@\n");
        for (Line l : h)
            sb.append(
                            switch (l.op()) {
                                case SAME -> ' ';
                                case REMOVED -> '-';
                                case ADDED -> '+';
                            })
                    .append(l.text())
                    .append('\n');
    }

    private static int lastNumber(List<Line> all, int before, boolean old) {
        for (int k = before - 1; k >= 0; k--) {
            int n = old ? all.get(k).before() : all.get(k).after();
            if (n > 0) return n;
        }
        return 0;
    }

    private static String[] split(String s) {
        return s == null || s.isEmpty() ? new String[0] : s.split("\n", -1);
    }
}
