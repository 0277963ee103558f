package brokkr.domains.wiki;

import brokkr.domains.wiki.Term.Day;
import brokkr.domains.wiki.Term.Num;
import brokkr.domains.wiki.Term.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a wiki of a world should say, derived from the {@link WikiWorld} (not from the documents' text): the
 * entities that deserve a page, the facts (each with the documents it comes from; a synthesis comes from
 * several and is stated by none), the stale or wrong values with the document that corrects them, the
 * relations to show as links, and the distractors (the unrelated organisation) no page should carry.
 */
public record Gold(
        List<Entity> entities,
        List<Fact> facts,
        List<Stale> stale,
        List<Relation> relations,
        List<Distractor> distractors) {

    /** An entity: its slug (the reference wiki's file name), its page title and the other titles that name it. */
    public record Entity(String slug, String name, String kind, List<String> aliases) {
        public List<String> titles() {
            List<String> out = new ArrayList<>(List.of(name));
            out.addAll(aliases);
            return out;
        }
    }

    /**
     * A fact about {@code entity}: a sentence states it when it contains {@code value} and (when there are
     * cues) one of the {@code cues} (lower case stems). {@code sources} are the documents it comes from; a
     * synthesis ({@code inputs}: the facts it is computed from) needs all of its inputs' sources cited.
     * {@code statement} is the reference wiki's sentence, {@code {v}} standing for the value.
     */
    public record Fact(
            String id,
            String entity,
            Term value,
            List<String> cues,
            List<String> sources,
            List<String> inputs,
            String statement) {
        public boolean synthesis() {
            return !inputs.isEmpty();
        }

        public boolean statedIn(String sentence, List<Long> numbers) {
            return value.in(sentence, numbers)
                    && (cues.isEmpty() || cues.stream().anyMatch(sentence::contains));
        }

        public String sentence() {
            return sentence(value);
        }

        public String sentence(Term v) {
            return statement.replace("{v}", v.printed());
        }
    }

    /**
     * A stale or wrong value: {@code source} states it, {@code correctedBy} states the current value ({@code
     * fact}). A page may mention it only near a qualifier; {@code qualified} is the reference wiki's sentence.
     */
    public record Stale(String id, String fact, Term value, String source, String correctedBy, String qualified) {}

    /** {@code from}'s page should link to {@code to}'s (or the other way round). */
    public record Relation(String from, String label, String to) {}

    /** A term of the unrelated organisation ({@code source} is the article about it). */
    public record Distractor(String term, String source) {}

    public Map<String, Entity> entitiesBySlug() {
        return entities.stream()
                .collect(
                        Collectors.toMap(Entity::slug, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
    }

    public Fact fact(String id) {
        return facts.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }

    /** The synthesis values: figures a page may give without a source that states them. */
    public List<Long> synthesisValues() {
        return facts.stream()
                .filter(Fact::synthesis)
                .map(f -> f.value() instanceof Num n ? n.n() : -1L)
                .toList();
    }

    static final List<String> FOUNDED = List.of("found", "constitut", "establish", "formed", "set up", "created");

    /** The gold of {@code w}, its sources named by {@link Documents.Paths}. */
    public static Gold of(WikiWorld w) {
        Documents.Paths p = Documents.Paths.of(w);
        String org = Documents.slug(w.org()),
                founder = Documents.slug(w.founder().name());
        String director = Documents.slug(w.director().name()),
                chair = Documents.slug(w.chair().name());
        String station = Documents.slug(w.station()), reserve = Documents.slug(w.reserve());
        String pipeline = Documents.slug(w.pipeline()), notice = Documents.slug(w.notice());
        String extension = Documents.slug(w.extension());
        String year = Integer.toString(w.noticeIssued().getYear());
        List<Entity> entities = List.of(
                new Entity(org, w.org(), "organisation", List.of()),
                new Entity(founder, w.founder().name(), "person", List.of()),
                new Entity(director, w.director().name(), "person", List.of()),
                new Entity(chair, w.chair().name(), "person", List.of()),
                new Entity(station, w.station(), "site", List.of()),
                new Entity(reserve, w.reserve(), "site", List.of()),
                new Entity(pipeline, w.pipeline(), "site", List.of()),
                new Entity(
                        notice,
                        w.notice(),
                        "event",
                        List.of("drought notice of " + year, "drought notice " + year, "drought notice")),
                new Entity(
                        extension,
                        w.extension(),
                        "event",
                        List.of(
                                "reserve extension",
                                w.extensionYear() + " reserve extension",
                                "extension of the " + w.reserve())));
        List<String> press = List.of(p.noticeRelease(), p.noticeReissue());
        List<Fact> facts = List.of(
                fact(
                        "org_founded",
                        org,
                        new Num(w.founded()),
                        FOUNDED,
                        List.of(p.charter()),
                        "The Trust was founded in {v}."),
                fact(
                        "org_hq",
                        org,
                        new Text(w.hqTown()),
                        List.of("office", "headquarter", "based", "seat"),
                        List.of(p.charter()),
                        "Its head office is in {v}."),
                fact(
                        "org_charity",
                        org,
                        new Num(w.charityNumber()),
                        List.of("charit", "regist"),
                        List.of(p.charter()),
                        "It is a registered charity, number {v}."),
                fact(
                        "org_staff",
                        org,
                        new Num(w.staff()),
                        List.of("staff", "employ", "people"),
                        List.of(p.report()),
                        "The Trust employs {v} staff."),
                fact(
                        "org_members",
                        org,
                        new Num(w.members()),
                        List.of("member"),
                        List.of(p.report()),
                        "It has {v} members."),
                fact(
                        "founder_until",
                        founder,
                        new Num(w.directorAppointed()),
                        List.of(
                                "stood down",
                                "stepped down",
                                "step down",
                                "until",
                                "retire",
                                "left",
                                "succeed",
                                "replac",
                                "handed",
                                "ended"),
                        List.of(p.appointmentMinutes()),
                        w.founder().name() + " was the first director, until {v}."),
                synthesis(
                        "founder_tenure",
                        founder,
                        new Num(w.founderTenure()),
                        List.of("year"),
                        List.of("org_founded", "founder_until"),
                        "That makes {v} years in charge."),
                fact(
                        "director_joined",
                        director,
                        new Num(w.directorJoined()),
                        List.of("join"),
                        List.of(p.reportBefore()),
                        w.director().name() + " joined as a field officer in {v}."),
                fact(
                        "director_appointed",
                        director,
                        new Num(w.directorAppointed()),
                        List.of("director", "appoint"),
                        List.of(p.appointmentMinutes(), p.report()),
                        "The board made them director in {v}."),
                fact(
                        "chair_elected",
                        chair,
                        new Num(w.chairElected()),
                        List.of("elect", "chair"),
                        List.of(p.report()),
                        w.chair().name() + " has chaired the board since {v}."),
                fact(
                        "chair_profession",
                        chair,
                        new Text(w.chairProfession()),
                        List.of(),
                        List.of(p.report()),
                        "By profession a {v}."),
                fact(
                        "station_opened",
                        station,
                        new Num(w.stationOpened()),
                        List.of("open"),
                        List.of(p.reportBefore()),
                        "The station opened in {v}."),
                fact(
                        "station_town",
                        station,
                        new Text(w.stationTown()),
                        List.of(),
                        List.of(p.reportBefore()),
                        "It stands at {v}."),
                fact(
                        "station_beds",
                        station,
                        new Num(w.stationBeds()),
                        List.of("sleep", "bed", "research", "capacity"),
                        List.of(p.newsletter()),
                        "Its bunkhouse has room for {v} researchers."),
                fact(
                        "reserve_area",
                        reserve,
                        new Num(w.reserveHectares()),
                        List.of("hectare"),
                        List.of(p.report(), p.extensionRelease()),
                        "The reserve today extends to {v} hectares."),
                fact(
                        "reserve_species",
                        reserve,
                        new Num(w.birdSpecies()),
                        List.of("species"),
                        List.of(p.newsletter()),
                        "Volunteers have recorded {v} species of bird there."),
                fact(
                        "pipeline_km",
                        pipeline,
                        new Num(w.pipelineKm()),
                        List.of("km", "kilomet", "long", "length"),
                        List.of(p.report(), p.extensionRelease()),
                        "The pipeline is {v} km long."),
                fact(
                        "pipeline_completed",
                        pipeline,
                        new Num(w.pipelineCompleted()),
                        List.of("complet", "finish", "built", "open"),
                        List.of(p.report()),
                        "It was finished in {v}."),
                fact(
                        "pipeline_cost",
                        pipeline,
                        new Num(w.pipelineCost()),
                        List.of("cost", "budget", "£"),
                        List.of(p.noticeMinutes()),
                        "The board set aside a budget of £{v} for it."),
                fact(
                        "notice_issued",
                        notice,
                        new Day(w.noticeIssued()),
                        List.of("issu", "declar", "announc", "began", "start", "in force"),
                        press,
                        "The Trust put the notice in force on {v}."),
                fact(
                        "notice_households",
                        notice,
                        new Num(w.households()),
                        List.of("household"),
                        press,
                        "It applied to {v} households."),
                fact(
                        "notice_lifted",
                        notice,
                        new Day(w.noticeLifted()),
                        List.of("lift", "end", "withdr", "revok"),
                        List.of(p.noticeMinutes()),
                        "It was lifted on {v}."),
                synthesis(
                        "notice_days",
                        notice,
                        new Num(w.noticeDays()),
                        List.of("day"),
                        List.of("notice_issued", "notice_lifted"),
                        "In all it lasted {v} days."),
                fact(
                        "extension_year",
                        extension,
                        new Num(w.extensionYear()),
                        List.of("extend", "extension", "grow", "grew", "bought", "purchas", "enlarg", "announc"),
                        List.of(p.extensionRelease()),
                        "The extension was announced in {v}."));
        List<Stale> stale = List.of(
                new Stale(
                        "stale_staff",
                        "org_staff",
                        new Num(w.staffBefore()),
                        p.reportBefore(),
                        p.report(),
                        "Staff numbers were previously " + w.staffBefore() + "."),
                new Stale(
                        "stale_members",
                        "org_members",
                        new Num(w.membersBefore()),
                        p.newsletter(),
                        p.report(),
                        "Earlier, in " + w.noticeIssued().getYear() + ", membership was " + w.membersBefore() + "."),
                new Stale(
                        "stale_area",
                        "reserve_area",
                        new Num(w.reserveHectaresBefore()),
                        p.charter(),
                        p.extensionRelease(),
                        "Originally the holding was " + w.reserveHectaresBefore() + " hectares."),
                new Stale(
                        "stale_blog_km",
                        "pipeline_km",
                        new Num(w.blogPipelineKm()),
                        p.blog(),
                        p.report(),
                        "An unofficial blog claims " + w.blogPipelineKm() + " km, which is wrong."),
                new Stale(
                        "stale_blog_founded",
                        "org_founded",
                        new Num(w.blogFounded()),
                        p.blog(),
                        p.charter(),
                        "An unofficial blog claims it began in " + w.blogFounded()
                                + ", which the charter contradicts."));
        List<Relation> relations = List.of(
                new Relation(founder, "founded", org),
                new Relation(director, "directs", org),
                new Relation(chair, "chairs the board of", org),
                new Relation(org, "runs", station),
                new Relation(org, "manages", reserve),
                new Relation(org, "built", pipeline),
                new Relation(notice, "was issued by", org),
                new Relation(extension, "enlarged", reserve));
        List<Distractor> distractors = List.of(
                new Distractor(w.otherOrg(), p.unrelated()),
                new Distractor(w.otherChair().name(), p.unrelated()));
        return new Gold(entities, withSynthesisSources(facts), stale, relations, distractors);
    }

    private static Fact fact(
            String id, String entity, Term v, List<String> cues, List<String> sources, String statement) {
        return new Fact(id, entity, v, cues, sources, List.of(), statement);
    }

    /** A synthesis; its sources are filled in from its inputs' by {@link #withSynthesisSources}. */
    private static Fact synthesis(
            String id, String entity, Term v, List<String> cues, List<String> inputs, String statement) {
        return new Fact(id, entity, v, cues, List.of(), inputs, statement);
    }

    /** The facts with each synthesis's sources: every source of each of its inputs. */
    private static List<Fact> withSynthesisSources(List<Fact> facts) {
        Map<String, Fact> byId = new java.util.HashMap<>();
        for (Fact f : facts) byId.put(f.id(), f);
        return facts.stream()
                .map(f -> {
                    if (!f.synthesis()) return f;
                    java.util.LinkedHashSet<String> sources = new java.util.LinkedHashSet<>();
                    for (String in : f.inputs()) sources.addAll(byId.get(in).sources());
                    return new Fact(
                            f.id(), f.entity(), f.value(), f.cues(), List.copyOf(sources), f.inputs(), f.statement());
                })
                .toList();
    }
}
