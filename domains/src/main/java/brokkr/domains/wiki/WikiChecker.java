package brokkr.domains.wiki;

import brokkr.eval.Check;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wiki checker: reads only the files under {@code /wiki} and grades them against the gold, one boolean
 * check per reason a wiki can lose and a score in [0, 1] (the weights are {@link Weights#DEFAULT}, the one
 * place they are written).
 *
 * <ul>
 *   <li>coverage: a fact counts on a page that states it (its value, in digits or words for a number, in a
 *       sentence with one of its cues), cites a document it comes from (a synthesis: a source of each input)
 *       and is not a copy of the sources (75% of its 8-word shingles found in them). An uncounted fact loses
 *       for exactly one reason: not stated anywhere ({@code facts_stated}), stated only on copied pages
 *       ({@code original_prose}), or stated on original pages none of which cite it ({@code facts_cited}).
 *   <li>currency ({@code current_values}): a stale or wrong value appears only in a sentence with a qualifier
 *       ("formerly", "until 2010", "the blog claims").
 *   <li>grounding ({@code numbers_grounded}): every number of two or more digits (in digits or words) on a
 *       page, outside its title and its links, appears in a source the page cites or is a gold synthesis
 *       value; each 1% unsupported costs 5% of the weight.
 *   <li>structure: a page per entity (titled by its name, {@code entity_pages}), each relation a link between
 *       the two pages ({@code relations_linked}), every link and citation resolving ({@code links_resolve}),
 *       {@code /wiki/index.md} linking every entity page ({@code index_page}), no term of the unrelated
 *       organisation ({@code no_distractors}), and citations that each support something on their page
 *       ({@code citations_precise}).
 *   <li>faithfulness ({@code faithful}, only with the judge tier on: {@link WikiJudge}): no claim of any page
 *       judged unsupported by the documents the page cites; each 1% of the judged claims unsupported costs 5% of
 *       the weight. Off (the default), the check is absent and the score is the one of {@link Weights#DEFAULT}.
 * </ul>
 *
 * Citations are judged where they stand: on a line that states something, citations of which under half are a
 * source of what the line says count as none (as when every document is cited on every line: spraying citations
 * buys neither coverage nor grounding); a line that states nothing (a list of sources) is judged against its page.
 * The hygiene checks (currency, grounding, links, precision, distractors, and faithfulness when judged) earn
 * their weight in proportion to the share of entities that have a page, so an empty or off-topic wiki, where
 * they hold of nothing, earns nothing from them.
 */
public final class WikiChecker {
    private WikiChecker() {}

    /**
     * The weights of the score's parts; they sum to 1. {@link #DEFAULT} grades without the judge tier (faithfulness
     * weighs nothing and is no check); {@link #JUDGED} with it: faithfulness takes 0.10 and every other part keeps
     * nine tenths of its default weight.
     */
    public record Weights(
            double coverage,
            double currency,
            double grounding,
            double entityPages,
            double relations,
            double links,
            double index,
            double distractors,
            double precision,
            double faithfulness) {
        public static final Weights DEFAULT = new Weights(0.40, 0.10, 0.10, 0.10, 0.10, 0.05, 0.05, 0.05, 0.05, 0.0);
        public static final Weights JUDGED =
                new Weights(0.36, 0.09, 0.09, 0.09, 0.09, 0.045, 0.045, 0.045, 0.045, 0.10);

        public double sum() {
            return coverage
                    + currency
                    + grounding
                    + entityPages
                    + relations
                    + links
                    + index
                    + distractors
                    + precision
                    + faithfulness;
        }
    }

    /** The shingle length and the share of a page's shingles found in the sources that makes it a copy. */
    static final int SHINGLE = 8;

    static final double COPY_THRESHOLD = 0.75;
    /** Below this share of supported citations, a line's citations (or a page's list of sources) count as none. */
    static final double PRECISION_FLOOR = 0.5;
    /** Each 1% of unsupported numbers costs this many % of the grounding weight. */
    static final double GROUNDING_PENALTY = 5.0;
    /** Each 1% of the claims the judge finds unsupported costs this many % of the faithfulness weight. */
    static final double FAITHFULNESS_PENALTY = 5.0;

    static final Pattern QUALIFIER = Pattern.compile(
            "\\b(formerly|previous|originally|earlier|until|before|claim|incorrect|wrong|outdated|superseded|no longer"
                    + "|used to|from|had been|at the time|reported as|once|old)");

    /** The checks in their order, as a verdict lists them. */
    public static final List<String> CHECKS = List.of(
            "facts_stated",
            "facts_cited",
            "original_prose",
            "current_values",
            "numbers_grounded",
            "entity_pages",
            "relations_linked",
            "links_resolve",
            "citations_precise",
            "index_page",
            "no_distractors");

    /** The check of the judge tier, after {@link #CHECKS} when a judge graded the prose ({@link WikiJudge}). */
    public static final String FAITHFUL = "faithful";

    /** A grade: the checks (in {@link #CHECKS}'s order, then {@value #FAITHFUL} when judged), the score and what explains it. */
    public record Grade(List<Check> checks, double score, PyDict details) {
        public Set<String> failed() {
            Set<String> out = new TreeSet<>();
            for (Check c : checks) if (!c.passed()) out.add(c.name());
            return out;
        }
    }

    static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    /** A page as the checks read it. */
    record Page(
            String path,
            String title,
            List<String[]> links,
            Set<String> cited,
            Set<String> linked,
            List<String> broken,
            List<String> sentences,
            List<List<Long>> sentenceNumbers,
            String claims,
            String prose,
            List<Line> lines) {}

    /** A line of a page: its number (1-based), the documents it cites, and its sentences' range in the page's list. */
    record Line(int number, Set<String> cited, int from, int to) {}

    public static Grade grade(Gold gold, Map<String, String> docs, Map<String, String> wiki) {
        return grade(gold, docs, wiki, Weights.DEFAULT, null);
    }

    /** The grade with the judge tier's verdicts ({@link Weights#JUDGED}); {@code judged} null: without it. */
    public static Grade grade(
            Gold gold, Map<String, String> docs, Map<String, String> wiki, WikiJudge.Verdicts judged) {
        return grade(gold, docs, wiki, judged == null ? Weights.DEFAULT : Weights.JUDGED, judged);
    }

    public static Grade grade(Gold gold, Map<String, String> docs, Map<String, String> wiki, Weights weights) {
        return grade(gold, docs, wiki, weights, null);
    }

    /**
     * The grade of {@code wiki}; with {@code judged} (the judge tier's verdicts on its pages) also the
     * {@value #FAITHFUL} check (no claim judged unsupported) and the faithfulness part of the score: the share of
     * claims supported, each 1% unsupported costing {@value #FAITHFULNESS_PENALTY}% of its weight, earned like the
     * other hygiene parts in proportion to the share of entities with a page.
     */
    public static Grade grade(
            Gold gold, Map<String, String> docs, Map<String, String> wiki, Weights weights, WikiJudge.Verdicts judged) {
        List<Page> pages = new ArrayList<>();
        for (var e : wiki.entrySet()) pages.add(page(e.getKey(), e.getValue(), docs.keySet(), wiki.keySet()));

        // Sources: their numbers (for grounding) and their shingles (for copies).
        Map<String, Set<Long>> docNumbers = new LinkedHashMap<>();
        Set<String> sourceShingles = new HashSet<>();
        for (var e : docs.entrySet()) {
            docNumbers.put(e.getKey(), new HashSet<>(Numbers.in(e.getValue())));
            sourceShingles.addAll(shingles(e.getValue()));
        }

        Map<String, Reading> reading = new LinkedHashMap<>();
        for (Page p : pages) reading.put(p.path(), Reading.of(gold, p));

        // Entity pages: a page titled by the entity's name (or an alias).
        Map<String, String> entityPage = new LinkedHashMap<>();
        for (Gold.Entity ent : gold.entities()) {
            for (Page p : pages) {
                if (p.path().equals(INDEX) || p.title() == null) continue;
                String t = normaliseTitle(p.title());
                if (ent.titles().stream().anyMatch(n -> normaliseTitle(n).equals(t))) {
                    entityPage.put(ent.slug(), p.path());
                    break;
                }
            }
        }
        double pageShare = (double) entityPage.size() / gold.entities().size();

        // Copies.
        Set<String> copied = new TreeSet<>();
        for (Page p : pages) {
            List<String> sh = shingles(p.prose());
            if (sh.isEmpty()) continue;
            long found = sh.stream().filter(sourceShingles::contains).count();
            if (found >= COPY_THRESHOLD * sh.size()) copied.add(p.path());
        }

        // Citation precision: a cited document is used when it is a source of a fact stated on the page, of a
        // stale value mentioned there, or of a distractor the page carries. Citations are judged where they stand:
        // on a line that states something, under half of its citations used by that line voids them; a line
        // that states nothing (a list of sources) is judged against the whole page.
        Map<String, Set<String>> effective = new LinkedHashMap<>();
        Set<String> imprecise = new TreeSet<>(), voided = new TreeSet<>();
        for (Page p : pages) {
            Reading r = reading.get(p.path());
            Set<String> pageUsed = r.used(0, p.sentences().size());
            Set<String> eff = new LinkedHashSet<>(), pool = new LinkedHashSet<>();
            for (Line l : p.lines()) {
                if (l.cited().isEmpty()) continue;
                Set<String> lineUsed = r.used(l.from(), l.to());
                if (lineUsed.isEmpty()) {
                    pool.addAll(l.cited());
                } else if (precise(l.cited(), lineUsed)) {
                    eff.addAll(l.cited());
                } else voided.add(p.path() + ":" + l.number());
            }
            if (!pool.isEmpty()) {
                if (precise(pool, pageUsed)) eff.addAll(pool);
                else voided.add(p.path() + " (sources)");
            }
            if (!pageUsed.containsAll(p.cited())) imprecise.add(p.path());
            effective.put(p.path(), eff);
        }

        // Coverage, each uncounted fact lost for one reason.
        List<String> notStated = new ArrayList<>(), onlyCopied = new ArrayList<>(), uncited = new ArrayList<>();
        int counted = 0;
        for (Gold.Fact f : gold.facts()) {
            boolean stated = false, original = false, ok = false;
            for (Page p : pages) {
                if (!reading.get(p.path()).states(f)) continue;
                stated = true;
                if (copied.contains(p.path())) continue;
                original = true;
                if (citesFact(gold, f, effective.get(p.path()))) ok = true;
            }
            if (ok) counted++;
            else if (!stated) notStated.add(f.id());
            else if (!original) onlyCopied.add(f.id());
            else uncited.add(f.id());
        }
        double coverage = (double) counted / gold.facts().size();

        // Currency.
        List<String> staleUnqualified = new ArrayList<>();
        for (Gold.Stale s : gold.stale())
            for (Page p : pages)
                for (int i = 0; i < p.sentences().size(); i++) {
                    String sentence = p.sentences().get(i);
                    if (s.value().in(sentence, p.sentenceNumbers().get(i))
                            && !QUALIFIER.matcher(sentence).find()) staleUnqualified.add(s.id() + " on " + p.path());
                }

        // Grounding.
        Set<Long> synthesis = new HashSet<>(gold.synthesisValues());
        int numbers = 0;
        List<String> unsupported = new ArrayList<>();
        for (Page p : pages) {
            Set<Long> supported = new HashSet<>(synthesis);
            for (String d : effective.get(p.path())) supported.addAll(docNumbers.getOrDefault(d, Set.of()));
            for (long n : Numbers.in(p.claims())) {
                if (n < 10) continue;
                numbers++;
                if (!supported.contains(n)) unsupported.add(n + " on " + p.path());
            }
        }
        double unsupportedShare = numbers == 0 ? 0 : (double) unsupported.size() / numbers;
        double grounding = Math.max(0, 1 - GROUNDING_PENALTY * unsupportedShare);

        // Relations, links, index, distractors.
        List<String> unlinked = new ArrayList<>();
        Map<String, Page> byPath = new LinkedHashMap<>();
        for (Page p : pages) byPath.put(p.path(), p);
        for (Gold.Relation r : gold.relations()) {
            String a = entityPage.get(r.from()), b = entityPage.get(r.to());
            boolean linked = a != null
                    && b != null
                    && (byPath.get(a).linked().contains(b)
                            || byPath.get(b).linked().contains(a));
            if (!linked) unlinked.add(r.from() + " " + r.label() + " " + r.to());
        }
        double relations = 1 - (double) unlinked.size() / gold.relations().size();
        List<String> broken = pages.stream()
                .flatMap(p -> p.broken().stream().map(t -> t + " on " + p.path()))
                .toList();
        Page index = byPath.get(INDEX);
        boolean indexOk =
                index != null && !index.linked().isEmpty() && index.linked().containsAll(entityPage.values());
        List<String> distractorsFound = new ArrayList<>();
        for (Gold.Distractor d : gold.distractors())
            for (Page p : pages)
                if (p.prose().toLowerCase(Locale.ROOT).contains(d.term().toLowerCase(Locale.ROOT)))
                    distractorsFound.add(d.term() + " on " + p.path());

        // Faithfulness (the judge tier, when on).
        List<String> unfaithful = judged == null ? List.of() : judged.unsupported();
        int claims = judged == null ? 0 : judged.claims();
        double faithfulness =
                claims == 0 ? 1 : Math.max(0, 1 - FAITHFULNESS_PENALTY * unfaithful.size() / (double) claims);

        List<Check> checks = new ArrayList<>(List.of(
                new Check("facts_stated", notStated.isEmpty()),
                new Check("facts_cited", uncited.isEmpty()),
                new Check("original_prose", onlyCopied.isEmpty()),
                new Check("current_values", staleUnqualified.isEmpty()),
                new Check("numbers_grounded", unsupported.isEmpty()),
                new Check("entity_pages", entityPage.size() == gold.entities().size()),
                new Check("relations_linked", unlinked.isEmpty()),
                new Check("links_resolve", broken.isEmpty()),
                new Check("citations_precise", imprecise.isEmpty()),
                new Check("index_page", indexOk),
                new Check("no_distractors", distractorsFound.isEmpty())));
        if (judged != null) checks.add(new Check(FAITHFUL, unfaithful.isEmpty()));
        double hygiene = weights.currency() * (staleUnqualified.isEmpty() ? 1 : 0)
                + weights.grounding() * grounding
                + weights.links() * (broken.isEmpty() ? 1 : 0)
                + weights.precision() * (imprecise.isEmpty() ? 1 : 0)
                + weights.distractors() * (distractorsFound.isEmpty() ? 1 : 0);
        if (judged != null) hygiene += weights.faithfulness() * faithfulness;
        double score = weights.coverage() * coverage
                + weights.entityPages() * pageShare
                + weights.relations() * relations
                + weights.index() * (indexOk ? 1 : 0)
                + pageShare * hygiene;
        score = Math.round(score * 1e6) / 1e6;

        PyDict.Builder details = PyDict.builder()
                .put("coverage", new PyFloat(coverage))
                .put("facts_counted", counted)
                .put("facts", gold.facts().size())
                .put("grounding", new PyFloat(grounding))
                .put("numbers", numbers)
                .put("relations", new PyFloat(relations))
                .put("entity_pages", strs(entityPage.values()))
                .put(
                        "missing_entities",
                        strs(gold.entities().stream()
                                .map(Gold.Entity::slug)
                                .filter(s -> !entityPage.containsKey(s))
                                .toList()))
                .put("not_stated", strs(notStated))
                .put("only_copied", strs(onlyCopied))
                .put("uncited", strs(uncited))
                .put("copied_pages", strs(copied))
                .put("stale_unqualified", strs(staleUnqualified))
                .put("unsupported_numbers", strs(unsupported))
                .put("unlinked_relations", strs(unlinked))
                .put("broken_links", strs(broken))
                .put("imprecise_citations", strs(imprecise))
                .put("void_citations", strs(voided))
                .put("distractors", strs(distractorsFound));
        if (judged != null)
            details.put("judge", judged.judge())
                    .put("faithfulness", new PyFloat(faithfulness))
                    .put("claims", claims)
                    .put("unfaithful_claims", strs(unfaithful));
        return new Grade(checks, score, details.build());
    }

    static final String INDEX = Workspace.WIKI + "index.md";

    private static PyList strs(java.util.Collection<String> xs) {
        return PyList.of(xs.stream().map(s -> (Value) new PyStr(s)).toList());
    }

    private static boolean precise(Set<String> cited, Set<String> used) {
        long ok = cited.stream().filter(used::contains).count();
        return ok >= PRECISION_FLOOR * cited.size();
    }

    /** What each sentence of a page says that the gold knows: the facts it states and the documents it draws on. */
    record Reading(List<Set<String>> facts, List<Set<String>> sources) {
        static Reading of(Gold gold, Page p) {
            List<Set<String>> facts = new ArrayList<>(), sources = new ArrayList<>();
            for (int i = 0; i < p.sentences().size(); i++) {
                String sentence = p.sentences().get(i);
                List<Long> numbers = p.sentenceNumbers().get(i);
                Set<String> stated = new HashSet<>(), used = new HashSet<>();
                for (Gold.Fact f : gold.facts())
                    if (f.statedIn(sentence, numbers)) {
                        stated.add(f.id());
                        used.addAll(sourcesOf(gold, f));
                    }
                for (Gold.Stale s : gold.stale())
                    if (s.value().in(sentence, numbers)) {
                        used.add(s.source());
                        used.add(s.correctedBy());
                    }
                for (Gold.Distractor d : gold.distractors())
                    if (sentence.contains(d.term().toLowerCase(Locale.ROOT))) used.add(d.source());
                facts.add(stated);
                sources.add(used);
            }
            return new Reading(facts, sources);
        }

        /** The documents the sentences {@code from} (inclusive) to {@code to} draw on. */
        Set<String> used(int from, int to) {
            Set<String> out = new HashSet<>();
            for (int i = from; i < to; i++) out.addAll(sources.get(i));
            return out;
        }

        boolean states(Gold.Fact f) {
            for (Set<String> s : facts) if (s.contains(f.id())) return true;
            return false;
        }
    }

    /** A fact's documents: its own sources, and for a synthesis its inputs' too. */
    static Set<String> sourcesOf(Gold gold, Gold.Fact f) {
        Set<String> out = new LinkedHashSet<>(f.sources());
        for (String in : f.inputs()) out.addAll(gold.fact(in).sources());
        return out;
    }

    /** A page's citations support a fact: one of its sources, or for a synthesis one source of each input. */
    static boolean citesFact(Gold gold, Gold.Fact f, Set<String> cited) {
        if (!f.synthesis()) return f.sources().stream().anyMatch(cited::contains);
        for (String in : f.inputs()) if (gold.fact(in).sources().stream().noneMatch(cited::contains)) return false;
        return true;
    }

    static Page page(String path, String text, Set<String> docs, Set<String> wiki) {
        String title = null;
        String body = text;
        for (String line : text.split("\n")) {
            if (line.startsWith("# ")) {
                title = line.substring(2).strip();
                break;
            }
            if (!line.isBlank()) break;
        }
        if (title != null) body = text.replaceFirst("(?m)^# .*$", "");
        List<String[]> links = new ArrayList<>();
        Set<String> cited = new LinkedHashSet<>(), linked = new LinkedHashSet<>();
        List<String> broken = new ArrayList<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            String target = m.group(2);
            links.add(new String[] {m.group(1), target});
            String resolved = resolve(path, target);
            if (resolved == null) continue;
            if (docs.contains(resolved)) cited.add(resolved);
            else if (wiki.contains(resolved)) linked.add(resolved);
            else broken.add(target);
        }
        String prose = LINK.matcher(text).replaceAll(r -> Matcher.quoteReplacement(r.group(1)));
        String claims = LINK.matcher(body).replaceAll(" ");
        List<String> sentences = new ArrayList<>();
        List<List<Long>> numbers = new ArrayList<>();
        List<Line> lines = new ArrayList<>();
        String[] raw = text.split("\n");
        for (int n = 0; n < raw.length; n++) {
            Set<String> lineCited = new LinkedHashSet<>();
            Matcher lm = LINK.matcher(raw[n]);
            while (lm.find()) {
                String resolved = resolve(path, lm.group(2));
                if (resolved != null && docs.contains(resolved)) lineCited.add(resolved);
            }
            int from = sentences.size();
            String lineProse = LINK.matcher(raw[n]).replaceAll(r -> Matcher.quoteReplacement(r.group(1)));
            for (String s : lineProse.split("(?<=[.!?])\\s+")) {
                String lower = s.strip().toLowerCase(Locale.ROOT);
                if (lower.isEmpty()) continue;
                sentences.add(lower);
                numbers.add(Numbers.in(lower));
            }
            lines.add(new Line(n + 1, lineCited, from, sentences.size()));
        }
        return new Page(path, title, links, cited, linked, broken, sentences, numbers, claims, prose, lines);
    }

    /** Each link destination written on the page at {@code path} and the workspace path it reaches, as the checks read them. */
    static Map<String, String> links(String path, String text) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            String resolved = resolve(path, m.group(2));
            if (resolved != null) out.putIfAbsent(m.group(2), resolved);
        }
        return out;
    }

    /** A link's target as a workspace path; null for an external link or an anchor in the page. */
    static String resolve(String from, String target) {
        String t = target.strip();
        int cut = t.indexOf('#');
        if (cut >= 0) t = t.substring(0, cut);
        cut = t.indexOf('?');
        if (cut >= 0) t = t.substring(0, cut);
        if (t.isEmpty() || t.contains("://") || t.startsWith("mailto:")) return null;
        String joined = t.startsWith("/") ? t : from.substring(0, from.lastIndexOf('/') + 1) + t;
        List<String> parts = new ArrayList<>();
        for (String s : joined.split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) {
                if (!parts.isEmpty()) parts.removeLast();
            } else parts.add(s);
        }
        return "/" + String.join("/", parts);
    }

    static String normaliseTitle(String title) {
        String t = title.toLowerCase(Locale.ROOT)
                .replaceAll("\\([^)]*\\)", " ")
                .replaceAll("[^a-z0-9]+", " ")
                .strip();
        return t.startsWith("the ") ? t.substring(4) : t;
    }

    private static final Pattern WORD = Pattern.compile("[a-z0-9]+");

    static List<String> shingles(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) words.add(m.group());
        List<String> out = new ArrayList<>();
        for (int i = 0; i + SHINGLE <= words.size(); i++) out.add(String.join(" ", words.subList(i, i + SHINGLE)));
        return out;
    }
}
