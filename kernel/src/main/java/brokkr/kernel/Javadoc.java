package brokkr.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Javadoc comment as JShell's {@code documentation()} hands it over (the raw comment: inline tags,
 * HTML, block tags) rendered for reading, as Markdown (inspection in JupyterLab) or plain text (the
 * classic pager, terminals): {@code {@code x}} becomes {@code `x`}, {@code {@link A#b label}} its
 * label, {@code <p>} a paragraph break, {@code <pre>} a code block, lists bullets, and the block tags
 * ({@code @param}, {@code @return}, {@code @throws}, ...) headed sections.
 */
final class Javadoc {
    private Javadoc() {}

    enum Style {
        MARKDOWN,
        PLAIN
    }

    private static final Pattern BLOCK_TAG = Pattern.compile("^@([A-Za-z]+)\\b\\s*(.*)$", Pattern.DOTALL);
    private static final Map<String, String> TAG_TITLES = new LinkedHashMap<>();

    static {
        TAG_TITLES.put("param", "Parameters");
        TAG_TITLES.put("return", "Returns");
        TAG_TITLES.put("throws", "Throws");
        TAG_TITLES.put("exception", "Throws");
        TAG_TITLES.put("apiNote", "API note");
        TAG_TITLES.put("implSpec", "Implementation requirements");
        TAG_TITLES.put("implNote", "Implementation note");
        TAG_TITLES.put("deprecated", "Deprecated");
        TAG_TITLES.put("since", "Since");
        TAG_TITLES.put("see", "See also");
        TAG_TITLES.put("author", "Author");
        TAG_TITLES.put("version", "Version");
    }
    /** Tags with a name before their text: {@code @param a desc}, {@code @throws X desc}. */
    private static final List<String> NAMED = List.of("param", "throws", "exception");

    /** The comment rendered; blank for a blank comment. */
    static String render(String raw, Style style) {
        if (raw == null || raw.isBlank()) return "";
        String text = dedent(raw.replace("\r\n", "\n"));
        // the main description, then the block tags, each a line starting with '@' outside {@...} and <pre>
        List<String> parts = splitBlockTags(text);
        StringBuilder out = new StringBuilder(body(parts.getFirst(), style));
        Map<String, List<String[]>> sections = new LinkedHashMap<>();
        for (String part : parts.subList(1, parts.size())) {
            Matcher m = BLOCK_TAG.matcher(part.strip());
            if (!m.matches()) continue;
            String tag = m.group(1), rest = m.group(2).strip();
            String title = TAG_TITLES.getOrDefault(tag, tag);
            String name = null;
            if (NAMED.contains(tag)) {
                int sp = indexOfWhitespace(rest);
                name = sp < 0 ? rest : rest.substring(0, sp);
                rest = sp < 0 ? "" : rest.substring(sp).strip();
            }
            sections.computeIfAbsent(title, t -> new ArrayList<>()).add(new String[] {name, inline(rest, style, true)});
        }
        for (var e : sections.entrySet()) {
            out.append("\n\n");
            boolean list = e.getValue().size() > 1 || e.getValue().getFirst()[0] != null;
            String head = style == Style.MARKDOWN ? "**" + e.getKey() + ":**" : e.getKey() + ":";
            out.append(head);
            for (String[] item : e.getValue()) {
                if (!list) {
                    out.append(' ').append(item[1]);
                    continue;
                }
                out.append(style == Style.MARKDOWN ? "\n- " : "\n  ");
                if (item[0] != null)
                    out.append(style == Style.MARKDOWN ? "`" + item[0] + "`" : item[0])
                            .append(item[1].isEmpty() ? "" : " – ");
                out.append(item[1]);
            }
        }
        return out.toString().strip();
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) if (Character.isWhitespace(s.charAt(i))) return i;
        return -1;
    }

    /** Removes the indentation all non-blank lines share (JShell keeps the space after each {@code *}). */
    private static String dedent(String s) {
        List<String> lines = s.lines().toList();
        int min = Integer.MAX_VALUE;
        for (String l : lines) {
            if (l.isBlank()) continue;
            int i = 0;
            while (i < l.length() && l.charAt(i) == ' ') i++;
            min = Math.min(min, i);
        }
        int cut = min == Integer.MAX_VALUE ? 0 : min;
        StringBuilder sb = new StringBuilder();
        for (String l : lines)
            sb.append(l.length() >= cut ? l.substring(cut) : l.strip()).append('\n');
        return sb.toString();
    }

    private static List<String> splitBlockTags(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int braces = 0;
        boolean pre = false;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (braces == 0 && !pre && t.startsWith("@") && t.length() > 1 && Character.isLetter(t.charAt(1))) {
                parts.add(cur.toString());
                cur.setLength(0);
            }
            cur.append(line).append('\n');
            for (int i = 0; i < line.length(); i++) {
                if (line.startsWith("{@", i)) braces++;
                else if (line.charAt(i) == '}' && braces > 0) braces--;
            }
            String lower = line.toLowerCase();
            if (lower.contains("<pre")) pre = true;
            if (lower.contains("</pre>")) pre = false;
        }
        parts.add(cur.toString());
        return parts;
    }

    /** The main description: paragraphs, code blocks and lists. */
    private static String body(String s, Style style) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        String lower = s.toLowerCase();
        while (i < s.length()) {
            int pre = lower.indexOf("<pre", i);
            if (pre < 0) {
                out.append(inline(s.substring(i), style, false));
                break;
            }
            out.append(inline(s.substring(i, pre), style, false));
            int open = s.indexOf('>', pre);
            int close = lower.indexOf("</pre>", open < 0 ? pre : open);
            if (open < 0 || close < 0) {
                out.append(inline(s.substring(pre), style, false));
                break;
            }
            String code = s.substring(open + 1, close);
            // <pre>{@code ...}</pre>: the code tag only protects the text
            String c = code.strip();
            if (c.startsWith("{@code") && c.endsWith("}"))
                code = code.substring(code.indexOf("{@code") + 6, code.lastIndexOf('}'));
            else code = entities(inlineTags(code, Style.PLAIN).replaceAll("(?i)</?[a-z][a-z0-9]*[^>]*>", ""));
            code = dedent(code.replaceFirst("^[ \t]*\n+", "")).stripTrailing();
            out.append("\n\n")
                    .append(style == Style.MARKDOWN ? "```java\n" + code + "\n```" : indent(code, "    "))
                    .append("\n\n");
            i = close + 6;
        }
        return out.toString().replaceAll("\n{3,}", "\n\n").strip();
    }

    private static String indent(String s, String by) {
        StringBuilder sb = new StringBuilder();
        for (String l : s.split("\n", -1)) sb.append(by).append(l).append('\n');
        return sb.toString().stripTrailing();
    }

    private static final Pattern TAG = Pattern.compile("<(/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>");

    /** Inline tags and HTML of running text; whitespace collapsed, paragraphs and list items on lines of their own. */
    static String inline(String s, Style style, boolean oneLine) {
        String t = inlineTags(s, style);
        StringBuilder out = new StringBuilder();
        Matcher m = TAG.matcher(t);
        int at = 0;
        boolean md = style == Style.MARKDOWN;
        while (m.find()) {
            out.append(t, at, m.start());
            at = m.end();
            boolean closing = !m.group(1).isEmpty();
            String name = m.group(2).toLowerCase();
            switch (name) {
                case "p" -> out.append(closing ? "" : "\n\n");
                case "br" -> out.append("\n");
                case "ul", "ol", "dl", "table" -> out.append("\n\n");
                case "li", "dt" -> out.append(closing ? "" : "\n- ");
                case "dd" -> out.append(closing ? "" : " ");
                case "tr" -> out.append(closing ? "" : "\n");
                case "td", "th" -> out.append(closing ? "" : " ");
                case "h1", "h2", "h3", "h4", "h5", "h6" -> out.append(closing ? "\n\n" : md ? "\n\n### " : "\n\n");
                case "code", "tt", "var", "samp", "kbd" -> out.append(md ? "`" : "");
                case "b", "strong" -> out.append(md ? "**" : "");
                case "i", "em", "cite" -> out.append(md ? "*" : "");
                default -> {}
            }
        }
        out.append(t.substring(at));
        // list items are lines of one block: the source's line breaks between </li> and <li> are no paragraph break
        String text = entities(out.toString().replaceAll("\n[ \t]*\n([ \t]*- )", "\n$1"));
        // collapse the comment's line breaks and indentation inside paragraphs, keep paragraph and item breaks
        StringBuilder result = new StringBuilder();
        for (String para : text.split("\n\\s*\n")) {
            if (para.isBlank()) continue;
            StringBuilder p = new StringBuilder();
            for (String line : para.split("\n")) {
                String l = line.replaceAll("[ \t]+", " ").strip();
                if (l.isEmpty()) continue;
                boolean item = l.startsWith("- ");
                if (!p.isEmpty()) p.append(item ? "\n" : " ");
                p.append(l);
            }
            if (!result.isEmpty()) result.append(oneLine ? " " : "\n\n");
            result.append(p);
        }
        return result.toString();
    }

    /** {@code {@code x}}, {@code {@link A#b label}} and the other inline tags; braces inside them balanced. */
    private static String inlineTags(String s, Style style) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        boolean md = style == Style.MARKDOWN;
        while (i < s.length()) {
            int start = s.indexOf("{@", i);
            if (start < 0) {
                out.append(s.substring(i));
                break;
            }
            out.append(s, i, start);
            int depth = 0, end = -1;
            for (int j = start; j < s.length(); j++) {
                char c = s.charAt(j);
                if (c == '{') depth++;
                else if (c == '}' && --depth == 0) {
                    end = j;
                    break;
                }
            }
            if (end < 0) {
                out.append(s.substring(start));
                break;
            }
            String inner = s.substring(start + 2, end);
            int sp = indexOfWhitespace(inner);
            String tag = sp < 0 ? inner : inner.substring(0, sp);
            String arg = sp < 0 ? "" : inner.substring(sp).strip();
            // text of {@code} and {@literal} is not HTML: escaped here, so the tag pass leaves List<String> alone
            String lit = arg.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
            out.append(
                    switch (tag) {
                        case "code" -> md ? code(lit) : lit;
                        case "literal" -> lit;
                        case "link", "linkplain" -> {
                            int ls = indexOfWhitespace(arg);
                            String ref = ls < 0 ? arg : arg.substring(0, ls);
                            String label = ls < 0 ? null : arg.substring(ls).strip();
                            if (label != null && !label.isEmpty()) yield label;
                            String shown = reference(ref);
                            yield md && tag.equals("link") ? code(shown) : shown;
                        }
                        case "value", "systemProperty" -> md ? code(reference(arg)) : reference(arg);
                        case "index" -> {
                            String term = arg.startsWith("\"") && arg.indexOf('"', 1) > 0
                                    ? arg.substring(1, arg.indexOf('"', 1))
                                    : (indexOfWhitespace(arg) < 0 ? arg : arg.substring(0, indexOfWhitespace(arg)));
                            yield term;
                        }
                        case "summary" -> arg;
                        case "inheritDoc", "docRoot" -> "";
                        default -> arg;
                    });
            i = end + 1;
        }
        return out.toString();
    }

    /** {@code java.util.List#of(Object...)} reads {@code List.of(Object...)}; {@code #max} reads {@code max}. */
    private static String reference(String ref) {
        String r = ref.startsWith("#") ? ref.substring(1) : ref.replace('#', '.');
        int paren = r.indexOf('(');
        String head = paren < 0 ? r : r.substring(0, paren);
        String tail = paren < 0 ? "" : r.substring(paren);
        // qualified names read by their simple class name: java.lang.StrictMath.sqrt -> StrictMath.sqrt
        String[] segs = head.split("\\.");
        int firstUpper = -1;
        for (int k = 0; k < segs.length; k++) {
            if (!segs[k].isEmpty() && Character.isUpperCase(segs[k].charAt(0))) {
                firstUpper = k;
                break;
            }
        }
        if (firstUpper > 0) head = String.join(".", Arrays.copyOfRange(segs, firstUpper, segs.length));
        return head + tail;
    }

    private static String code(String s) {
        return s.contains("`") ? "`` " + s + " ``" : "`" + s + "`";
    }

    private static String entities(String s) {
        if (s.indexOf('&') < 0) return s;
        Matcher m = Pattern.compile("&(#x?[0-9A-Fa-f]+|[a-zA-Z]+);").matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String e = m.group(1);
            String rep = switch (e) {
                case "lt" -> "<";
                case "gt" -> ">";
                case "amp" -> "&";
                case "quot" -> "\"";
                case "apos" -> "'";
                case "nbsp" -> " ";
                case "mdash" -> "—";
                case "ndash" -> "–";
                case "hellip" -> "…";
                case "le" -> "≤";
                case "ge" -> "≥";
                case "ne" -> "≠";
                case "times" -> "×";
                case "pi" -> "π";
                case "infin" -> "∞";
                default -> {
                    try {
                        if (e.startsWith("#x") || e.startsWith("#X"))
                            yield new String(Character.toChars(Integer.parseInt(e.substring(2), 16)));
                        if (e.startsWith("#")) yield new String(Character.toChars(Integer.parseInt(e.substring(1))));
                    } catch (IllegalArgumentException ignored) {
                        // not a character reference after all: keep it as written
                    }
                    yield m.group();
                }
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(rep));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
