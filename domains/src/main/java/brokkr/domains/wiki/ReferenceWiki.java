package brokkr.domains.wiki;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Wikis written from the gold, for calibration and as scripted candidates: the reference (what a careful
 * author writes: a page per entity, every fact in its own words with its sources cited, stale values only
 * qualified, relations as links, an index) and variants of it, each damaged in one way, plus the wikis a gaming
 * agent would try. Each is a map from {@code /wiki/...} path to Markdown.
 */
public final class ReferenceWiki {
    private ReferenceWiki() {}

    /** A wiki to write: the reference, one damage of it, or a gaming strategy. */
    public enum Kind {
        REFERENCE("reference"),
        /** The reference with no citations. */
        NO_CITATIONS("no-citations"),
        /** Three current values replaced by their stale ones, unqualified (cited to the stale document). */
        STALE("stale"),
        /** The reference with one made-up figure per entity page. */
        INVENTED("invented"),
        /** The reference without three entity pages (and the links to them). */
        MISSING_PAGES("missing-pages"),
        /** The reference plus a page about the unrelated organisation. */
        UNRELATED("unrelated"),
        /** Adversarial: each source copied to a page of its own, with an index. */
        DUMP("dump"),
        /** Adversarial: every sentence of every source on one page titled by the organisation. */
        ONE_PAGE("one-page"),
        /** Adversarial: every fact on the organisation's page, no citations, no other pages. */
        FACTS_UNCITED("facts-uncited"),
        /** Adversarial: the reference's prose with every document cited on every line. */
        CITE_ALL("cite-all"),
        /** Nothing. */
        EMPTY("empty");

        public final String id;

        Kind(String id) {
            this.id = id;
        }

        public static Kind of(String id) {
            for (Kind k : values()) if (k.id.equals(id)) return k;
            throw new IllegalArgumentException("unknown wiki candidate '" + id + "' (one of "
                    + String.join(
                            ", ",
                            java.util.Arrays.stream(values()).map(k -> k.id).toList()) + ")");
        }
    }

    /** The entities the missing-pages variant leaves out: the chair, the field station, the extension. */
    static final List<Integer> MISSING = List.of(3, 4, 8);
    /** How many stale values the stale variant writes as current (staff, members, area). */
    static final int STALE_COUNT = 3;

    public static Map<String, String> of(WikiWorld w, Kind kind) {
        Gold gold = Gold.of(w);
        Map<String, Documents.Doc> docs = Documents.of(w);
        return switch (kind) {
            case EMPTY -> Map.of();
            case DUMP -> dump(docs);
            case ONE_PAGE -> onePage(w, docs);
            case FACTS_UNCITED -> factsUncited(w, gold);
            default -> pages(w, gold, docs, kind);
        };
    }

    private static Map<String, String> pages(WikiWorld w, Gold gold, Map<String, Documents.Doc> docs, Kind kind) {
        Set<String> dropped = new HashSet<>();
        if (kind == Kind.MISSING_PAGES)
            for (int i : MISSING) dropped.add(gold.entities().get(i).slug());
        Map<String, Gold.Stale> staleAsCurrent = new LinkedHashMap<>();
        if (kind == Kind.STALE)
            for (Gold.Stale s : gold.stale().subList(0, STALE_COUNT)) staleAsCurrent.put(s.fact(), s);
        Set<Long> known = new HashSet<>(gold.synthesisValues());
        for (Documents.Doc d : docs.values()) known.addAll(Numbers.in(d.text()));
        long invented = 10;

        Map<String, String> out = new TreeMap<>();
        StringBuilder index =
                new StringBuilder("# " + w.org() + " wiki\n\nOne page per organisation, person, site and event:\n\n");
        for (Gold.Entity e : gold.entities()) {
            if (dropped.contains(e.slug())) continue;
            StringBuilder page = new StringBuilder("# " + e.name() + "\n\n");
            for (Gold.Fact f : gold.facts()) {
                if (!f.entity().equals(e.slug())) continue;
                Gold.Stale asCurrent = staleAsCurrent.get(f.id());
                if (asCurrent != null)
                    line(page, f.sentence(asCurrent.value()), List.of(asCurrent.source()), kind, docs);
                else line(page, f.sentence(), cited(gold, f), kind, docs);
            }
            for (Gold.Stale s : gold.stale())
                if (gold.fact(s.fact()).entity().equals(e.slug()) && !staleAsCurrent.containsKey(s.fact()))
                    line(page, s.qualified(), List.of(s.source()), kind, docs);
            if (kind == Kind.INVENTED) {
                while (known.contains(invented)) invented++;
                line(page, "It also counts " + invented++ + " regular volunteers.", List.of(), kind, docs);
            }
            for (Gold.Relation r : gold.relations()) {
                if (!r.from().equals(e.slug()) || dropped.contains(r.to())) continue;
                Gold.Entity to = gold.entitiesBySlug().get(r.to());
                line(
                        page,
                        e.name() + " " + r.label() + " the [" + to.name() + "](" + to.slug() + ".md).",
                        List.of(),
                        kind,
                        docs);
            }
            out.put(Workspace.WIKI + e.slug() + ".md", page.toString());
            index.append("- [").append(e.name()).append("](").append(e.slug()).append(".md)\n");
        }
        if (kind == Kind.UNRELATED) {
            String slug = Documents.slug(w.otherOrg());
            String source = Documents.Paths.of(w).unrelated();
            out.put(
                    Workspace.WIKI + slug + ".md",
                    "# " + w.otherOrg() + "\n\n- Founded in " + w.otherFounded() + ", it has "
                            + w.otherMembers() + " members " + cite(List.of(source)) + ".\n- "
                            + w.otherChair().name()
                            + " chairs it " + cite(List.of(source)) + ".\n");
            index.append("- [").append(w.otherOrg()).append("](").append(slug).append(".md)\n");
        }
        out.put(WikiChecker.INDEX, index.toString());
        return out;
    }

    /** A fact's citations: its sources without the duplicate press release; for a synthesis, one source per input. */
    static List<String> cited(Gold gold, Gold.Fact f) {
        if (f.synthesis())
            return f.inputs().stream()
                    .map(i -> gold.fact(i).sources().getFirst())
                    .toList();
        return f.sources().stream().filter(s -> !s.endsWith("-reissued.md")).toList();
    }

    private static void line(
            StringBuilder page, String sentence, List<String> sources, Kind kind, Map<String, Documents.Doc> docs) {
        List<String> cites = switch (kind) {
            case NO_CITATIONS -> List.of();
            case CITE_ALL -> List.copyOf(docs.keySet());
            default -> sources;
        };
        page.append("- ").append(sentence);
        if (!cites.isEmpty()) page.append(' ').append(cite(cites));
        page.append('\n');
    }

    static String cite(List<String> sources) {
        List<String> links = new ArrayList<>();
        for (String s : sources) links.add("[" + s.substring(s.lastIndexOf('/') + 1, s.length() - 3) + "](" + s + ")");
        return "(" + String.join(", ", links) + ")";
    }

    private static Map<String, String> dump(Map<String, Documents.Doc> docs) {
        Map<String, String> out = new TreeMap<>();
        StringBuilder index = new StringBuilder("# Documents\n\n");
        for (Documents.Doc d : docs.values()) {
            String stem = d.path().substring(Workspace.DOCS.length(), d.path().length() - 3);
            out.put(Workspace.WIKI + stem + ".md", d.text() + "\nSource: " + cite(List.of(d.path())) + "\n");
            index.append("- [").append(stem).append("](").append(stem).append(".md)\n");
        }
        out.put(WikiChecker.INDEX, index.toString());
        return out;
    }

    private static Map<String, String> onePage(WikiWorld w, Map<String, Documents.Doc> docs) {
        StringBuilder page = new StringBuilder("# " + w.org() + "\n\n");
        for (Documents.Doc d : docs.values())
            for (String line : d.text().split("\n"))
                if (!line.startsWith("#") && !line.isBlank()) page.append(line).append('\n');
        String slug = Documents.slug(w.org());
        return Map.of(
                Workspace.WIKI + slug + ".md",
                page.toString(),
                WikiChecker.INDEX,
                "# " + w.org() + " wiki\n\n- [" + w.org() + "](" + slug + ".md)\n");
    }

    private static Map<String, String> factsUncited(WikiWorld w, Gold gold) {
        StringBuilder page = new StringBuilder("# " + w.org() + "\n\n");
        for (Gold.Fact f : gold.facts()) page.append("- ").append(f.sentence()).append('\n');
        String slug = Documents.slug(w.org());
        return Map.of(
                Workspace.WIKI + slug + ".md",
                page.toString(),
                WikiChecker.INDEX,
                "# " + w.org() + " wiki\n\n- [" + w.org() + "](" + slug + ".md)\n");
    }
}
