package brokkr.domains.wiki;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted faithfulness judge ({@code judge: {provider: scripted, model: gold}}): answers a {@link WikiJudge}
 * request, in the judge's format, from the world's gold instead of a model. A deterministic stand-in for tests and
 * model-free runs, never a measurement of prose. A pure function of the request, so it also works behind a wire.
 *
 * <p>Its claims are the page's sentences that name something of the world: a figure of two or more digits (in
 * digits or words; a date's year counts), an entity's title, a place or profession the gold knows, a term of the
 * unrelated organisation. Headings, lines that are only links, and the citations themselves are not claims
 * (a citation is dropped from its sentence, a link to a page keeps its text). A claim is supported, given the
 * documents the page cites, when
 *
 * <ol>
 *   <li>it states a gold fact and the page cites a source of it (a synthesis: a source of each input);
 *   <li>it gives a stale or wrong value and the page cites the document that states it or the one correcting it;
 *   <li>it names both ends of a gold relation with the relation's words, and the page cites a source of a fact
 *       about either end;
 *   <li>it is copied word for word from a cited document;
 *   <li>it names a term of the unrelated organisation and the page cites the article about it; or
 *   <li>it gives figures and every one of them is in a cited document (or is a synthesis value).
 * </ol>
 *
 * Anything else naming the world is unsupported: an invented figure, a made-up detail about a person or place, any
 * claim on a page that cites nothing.
 */
public record GoldJudge(Gold gold) implements Candidate {
    /** The scripted judge's model name. */
    public static final String NAME = "gold";

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        WikiJudge.Request r = WikiJudge.read(history);
        return Turn.of(new Message.Assistant(WikiJudge.answer(claims(r.path(), r.text(), r.documents()))));
    }

    private static final Pattern WORD = Pattern.compile("[a-z0-9]+");

    /** The claims of the page at {@code path} and whether each follows from the {@code cited} documents. */
    public List<WikiJudge.Claim> claims(String path, String text, Map<String, String> cited) {
        Set<Long> docFigures = new HashSet<>(gold.synthesisValues());
        Map<String, String> docWords = new LinkedHashMap<>();
        cited.forEach((p, t) -> {
            docFigures.addAll(Numbers.in(t));
            docWords.put(p, " " + words(t) + " ");
        });
        Set<String> names = names();
        List<WikiJudge.Claim> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("#")) continue;
            if (WikiChecker.LINK
                    .matcher(line)
                    .replaceAll("")
                    .replaceAll("[^\\p{L}\\p{N}]", "")
                    .isEmpty()) continue;
            String prose = WikiChecker.LINK.matcher(line).replaceAll(m -> {
                String target = WikiChecker.resolve(path, m.group(2));
                return target != null && target.startsWith(Workspace.DOCS) ? "" : Matcher.quoteReplacement(m.group(1));
            });
            prose = prose.replaceAll("\\(\\s*(,\\s*)*\\)", " ")
                    .replaceAll("^\\s*[-*+]\\s+", "")
                    .strip();
            for (String s : prose.split("(?<=[.!?])\\s+")) {
                String sentence = s.strip();
                String lower = sentence.toLowerCase(Locale.ROOT);
                List<Long> figures =
                        Numbers.in(lower).stream().filter(n -> n >= 10).toList();
                if (figures.isEmpty() && names.stream().noneMatch(lower::contains)) continue;
                String why = support(lower, Numbers.in(lower), figures, cited, docWords, docFigures);
                out.add(new WikiJudge.Claim(
                        sentence,
                        why != null,
                        why != null
                                ? why
                                : cited.isEmpty() ? "the page cites no document" : "no cited document supports it"));
            }
        }
        return out;
    }

    /** Why the claim is supported, or null. */
    private String support(
            String s,
            List<Long> numbers,
            List<Long> figures,
            Map<String, String> cited,
            Map<String, String> docWords,
            Set<Long> docFigures) {
        if (cited.isEmpty()) return null;
        Set<String> c = cited.keySet();
        for (Gold.Fact f : gold.facts())
            if (f.statedIn(s, numbers) && WikiChecker.citesFact(gold, f, c)) return "states " + f.id();
        for (Gold.Stale st : gold.stale())
            if (st.value().in(s, numbers) && (c.contains(st.source()) || c.contains(st.correctedBy())))
                return "gives " + st.id() + " as " + st.source() + " does";
        Map<String, Gold.Entity> bySlug = gold.entitiesBySlug();
        for (Gold.Relation r : gold.relations())
            if (s.contains(r.label().toLowerCase(Locale.ROOT))
                    && names(bySlug.get(r.from()), s)
                    && names(bySlug.get(r.to()), s)
                    && gold.facts().stream()
                            .filter(f ->
                                    f.entity().equals(r.from()) || f.entity().equals(r.to()))
                            .anyMatch(f -> f.sources().stream().anyMatch(c::contains)))
                return "the relation " + r.from() + " " + r.label() + " " + r.to();
        String w = words(s);
        if (!w.isEmpty())
            for (var e : docWords.entrySet())
                if (e.getValue().contains(" " + w + " ")) return "copied from " + e.getKey();
        for (Gold.Distractor d : gold.distractors())
            if (s.contains(d.term().toLowerCase(Locale.ROOT)) && c.contains(d.source()))
                return "about " + d.term() + ", as " + d.source() + " says";
        if (!figures.isEmpty() && docFigures.containsAll(figures)) return "its figures are in the cited documents";
        return null;
    }

    private static boolean names(Gold.Entity e, String s) {
        return e.titles().stream().anyMatch(t -> s.contains(t.toLowerCase(Locale.ROOT)));
    }

    /** What names the world in a sentence: entity titles, the places and professions of facts, distractor terms. */
    private Set<String> names() {
        Set<String> out = new HashSet<>();
        for (Gold.Entity e : gold.entities()) for (String t : e.titles()) out.add(t.toLowerCase(Locale.ROOT));
        for (Gold.Fact f : gold.facts())
            if (f.value() instanceof Term.Text t) out.add(t.text().toLowerCase(Locale.ROOT));
        for (Gold.Distractor d : gold.distractors()) out.add(d.term().toLowerCase(Locale.ROOT));
        return out;
    }

    private static String words(String text) {
        List<String> ws = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) ws.add(m.group());
        return String.join(" ", ws);
    }
}
