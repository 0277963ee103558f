package brokkr.render;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.HtmlWriter;

/**
 * Markdown that a run wrote (a wiki page, a source document) as HTML safe to put in a page: CommonMark (with GFM
 * tables) through commonmark-java, with raw HTML shown as text, never as markup, and the invisible controls
 * {@link Html#esc} shows shown the same way. A link is followed only inside the page it is put in: {@code anchors}
 * maps its destination to the id of the element it reaches there, and a link that reaches none is shown, marked,
 * with no {@code href}. A link with a scheme ({@code https:}, {@code javascript:}) is never followed, only named
 * (the report loads nothing and sends its reader nowhere), and an image is its alt text, never fetched.
 */
public final class Markdown {
    private Markdown() {}

    private static final Parser PARSER =
            Parser.builder().extensions(List.of(TablesExtension.create())).build();

    /** A destination with a URI scheme ({@code https:}, {@code mailto:}, {@code javascript:}): outside the page. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    /**
     * {@code markdown} as HTML; {@code anchors} gives the element id a link destination reaches in the page
     * (without '#'), or null when it reaches nothing there.
     */
    public static String html(String markdown, Function<String, String> anchors) {
        Node doc = PARSER.parse(visibleControls(markdown == null ? "" : markdown));
        HtmlRenderer renderer = HtmlRenderer.builder()
                .extensions(List.of(TablesExtension.create()))
                .escapeHtml(true)
                .nodeRendererFactory(ctx -> new Links(ctx, anchors))
                .build();
        return renderer.render(doc);
    }

    /** The text with the characters {@link Html#esc} shows as escapes already replaced by them. */
    static String visibleControls(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Html.shownEscaped(c)) {
                if (sb == null) sb = new StringBuilder(s.length() + 16).append(s, 0, i);
                sb.append(String.format("\\u%04X", (int) c));
            } else if (sb != null) sb.append(c);
        }
        return sb == null ? s : sb.toString();
    }

    /** Links and images as this page shows them (see the class comment). */
    private static final class Links implements NodeRenderer {
        private final HtmlNodeRendererContext ctx;
        private final HtmlWriter html;
        private final Function<String, String> anchors;

        Links(HtmlNodeRendererContext ctx, Function<String, String> anchors) {
            this.ctx = ctx;
            this.html = ctx.getWriter();
            this.anchors = anchors;
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(Link.class, Image.class);
        }

        @Override
        public void render(Node node) {
            switch (node) {
                case Link link -> link(link);
                case Image image -> image(image);
                default -> throw new IllegalArgumentException("not a link: " + node);
            }
        }

        private void link(Link link) {
            String dest = link.getDestination() == null ? "" : link.getDestination();
            Map<String, String> attrs = new LinkedHashMap<>(); // written in this order
            String tag;
            if (SCHEME.matcher(dest).find()) {
                tag = "span";
                attrs.put("class", "md-external");
                attrs.put("title", dest + " (outside this page: not followed)");
            } else {
                String id = anchors.apply(dest);
                if (id != null) {
                    tag = "a";
                    attrs.put("href", "#" + id);
                    attrs.put("class", "md-link");
                    attrs.put("data-dest", dest);
                } else {
                    tag = "span";
                    attrs.put("class", "md-broken");
                    attrs.put("title", "broken link: " + dest + " reaches no file");
                }
            }
            if (link.getTitle() != null && tag.equals("a")) attrs.put("title", link.getTitle());
            // HtmlWriter escapes attribute values.
            html.tag(tag, ctx.extendAttributes(link, tag, attrs));
            for (Node child = link.getFirstChild(); child != null; child = child.getNext()) ctx.render(child);
            html.tag("/" + tag);
        }

        private void image(Image image) {
            StringBuilder alt = new StringBuilder();
            image.accept(new AbstractVisitor() {
                @Override
                public void visit(Text text) {
                    alt.append(text.getLiteral());
                }

                @Override
                public void visit(Code code) {
                    alt.append(code.getLiteral());
                }
            });
            Map<String, String> attrs = new LinkedHashMap<>();
            attrs.put("class", "md-image");
            attrs.put("title", "image " + image.getDestination() + " (not loaded)");
            html.tag("span", attrs);
            html.text("[image: " + alt + "]");
            html.tag("/span");
        }
    }
}
