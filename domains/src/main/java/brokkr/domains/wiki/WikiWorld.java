package brokkr.domains.wiki;

import brokkr.value.PyDict;
import brokkr.value.Value;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The fictional world a wiki task is written from, the single source of truth: an organisation, its
 * people, sites and events, with their figures and dates, the stale figures older documents still carry,
 * the wrong ones an unofficial blog gives, and an unrelated organisation with a similar name. The documents
 * ({@link Documents}) and the gold ({@link Gold}) are both derived from it, never from each other.
 *
 * <p>{@link #generate} makes one from a seed; the public set is {@link #PUBLIC_SEED}. Every figure of a world
 * is distinct from every other (and from the days of its dates), so a number on a page names one thing.
 */
public record WikiWorld(
        long seed,
        String org,
        String hqTown,
        String mission,
        int founded,
        long charityNumber,
        Person founder,
        Person director,
        Person chair,
        int directorJoined,
        int directorAppointed,
        int chairElected,
        String chairProfession,
        String station,
        String stationTown,
        int stationOpened,
        int stationBeds,
        String reserve,
        int reserveHectaresBefore,
        int reserveHectares,
        int extensionYear,
        int birdSpecies,
        String pipeline,
        int pipelineKm,
        int pipelineCompleted,
        long pipelineCost,
        LocalDate noticeIssued,
        LocalDate noticeLifted,
        int households,
        int staffBefore,
        int staff,
        int membersBefore,
        int members,
        int blogPipelineKm,
        int blogFounded,
        String otherOrg,
        Person otherChair,
        int otherFounded,
        int otherMembers,
        int reportYearBefore,
        int reportYear) {

    public record Person(String first, String last) {
        public String name() {
            return first + " " + last;
        }
    }

    /** The public set's world: a fixed seed, so its documents and gold are the same everywhere. */
    public static final long PUBLIC_SEED = 2018;

    /** The drought notice's name (its year is part of it: "2019 Drought Notice"). */
    public String notice() {
        return noticeIssued.getYear() + " Drought Notice";
    }

    /** The reserve extension's name ("Saltmarsh Reserve Extension"). */
    public String extension() {
        return reserve + " Extension";
    }

    /** How long the notice was in force, in days: a figure no document states (a synthesis of two). */
    public long noticeDays() {
        return java.time.temporal.ChronoUnit.DAYS.between(noticeIssued, noticeLifted);
    }

    /** The founder's years as director, from founding to the successor's appointment (a synthesis). */
    public int founderTenure() {
        return directorAppointed - founded;
    }

    private static final String[] STEMS = {
        "Tallow",
        "Marrow",
        "Bracken",
        "Heddle",
        "Corran",
        "Wyndham",
        "Osgood",
        "Fennick",
        "Larch",
        "Quillan",
        "Rushmere",
        "Saltry",
        "Amberly",
        "Caddon",
        "Dunmore",
        "Eskby"
    };
    private static final String[] KINDS = {"River Trust", "Water Trust", "Catchment Trust", "Wetlands Trust"};
    private static final String[] OTHER_KINDS = {"Valley Rowing Club", "Town Brass Band", "Chess Society", "Harriers"};
    private static final String[] FIRST = {
        "Ada",
        "Bram",
        "Clara",
        "Dimitri",
        "Esther",
        "Farid",
        "Greta",
        "Hollis",
        "Ines",
        "Jonah",
        "Kemi",
        "Lucan",
        "Mira",
        "Nils",
        "Odile",
        "Piet",
        "Rosalind",
        "Sefton",
        "Thea",
        "Umar",
        "Vera",
        "Wendell"
    };
    private static final String[] LAST = {
        "Okafor",
        "Achebe",
        "Lindqvist",
        "Marsh",
        "Penhaligon",
        "Quist",
        "Rowntree",
        "Sato",
        "Tremayne",
        "Ulloa",
        "Varga",
        "Whitlock",
        "Yardley",
        "Zeller",
        "Brennan",
        "Castellan",
        "Drummond",
        "Easterby"
    };
    private static final String[] TOWNS = {
        "Hollowmere",
        "Ashcombe",
        "Brindle Cross",
        "Cawley",
        "Dunstan Ford",
        "Elsworth",
        "Fairholm",
        "Gorran",
        "Hatherby",
        "Ivel Green",
        "Kestwick",
        "Lowmoor"
    };
    private static final String[] BIRDS = {"Heron", "Otter", "Kingfisher", "Alder", "Curlew", "Plover"};
    private static final String[] PLACES = {"Point", "Ford", "Hollow", "Reach"};
    private static final String[] MARSHES = {"Saltmarsh", "Reedbed", "Fenwick", "Ashby", "Greylag", "Moorhen"};
    private static final String[] PIPES = {"Northgate", "Eastwater", "Millbrook", "Southfold", "Westering"};
    private static final String[] PROFESSIONS = {"hydrologist", "ecologist", "surveyor", "geologist", "agronomist"};
    private static final String[] MISSIONS = {
        "keep the river clean and its marshes wild",
        "restore the catchment's wetlands for people and wildlife",
        "protect the river's water and the life it carries"
    };

    /** The world of {@code seed}: the same seed, the same world. */
    public static WikiWorld generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        // Redraw the figures until they are all distinct (a number on a page must name one thing).
        while (true) {
            WikiWorld w = draw(seed, r);
            if (w.figuresDistinct()) return w;
        }
    }

    private static WikiWorld draw(long seed, SplittableRandom r) {
        String stem = pick(r, STEMS);
        List<String> firsts = new ArrayList<>(List.of(FIRST));
        List<String> lasts = new ArrayList<>(List.of(LAST));
        Person founder = person(r, firsts, lasts), director = person(r, firsts, lasts);
        Person chair = person(r, firsts, lasts), otherChair = person(r, firsts, lasts);
        List<String> towns = new ArrayList<>(List.of(TOWNS));
        String hq = towns.remove(r.nextInt(towns.size())), stationTown = towns.remove(r.nextInt(towns.size()));
        int founded = 1984 + r.nextInt(12);
        int stationOpened = founded + 3 + r.nextInt(5);
        int joined = stationOpened + 1 + r.nextInt(3);
        int appointed = joined + 3 + r.nextInt(4);
        int chairElected = appointed + 1 + r.nextInt(3);
        int noticeYear = Math.max(chairElected + 2, 2016) + r.nextInt(3);
        LocalDate issued = LocalDate.of(noticeYear, 3 + r.nextInt(3), 10 + r.nextInt(18));
        LocalDate lifted = issued.plusDays(40 + r.nextInt(100));
        int extension = noticeYear + 1 + r.nextInt(2);
        int completed = extension + 1 + r.nextInt(2);
        int before = 200 + r.nextInt(300);
        int staffBefore = 21 + r.nextInt(20);
        int membersBefore = 1000 + r.nextInt(2000);
        int km = 12 + r.nextInt(48);
        return new WikiWorld(
                seed,
                stem + " " + pick(r, KINDS),
                hq,
                pick(r, MISSIONS),
                founded,
                1_000_000 + r.nextInt(200_000),
                founder,
                director,
                chair,
                joined,
                appointed,
                chairElected,
                pick(r, PROFESSIONS),
                pick(r, BIRDS) + " " + pick(r, PLACES) + " Field Station",
                stationTown,
                stationOpened,
                12 + r.nextInt(19),
                pick(r, MARSHES) + " Reserve",
                before,
                before + 100 + r.nextInt(200),
                extension,
                90 + r.nextInt(110),
                pick(r, PIPES) + " Pipeline",
                km,
                completed,
                (300 + r.nextInt(600)) * 1000L,
                issued,
                lifted,
                1000 + r.nextInt(8000),
                staffBefore,
                staffBefore + 5 + r.nextInt(10),
                membersBefore,
                membersBefore + 200 + r.nextInt(700),
                km + 5 + r.nextInt(8),
                founded + 2 + r.nextInt(3),
                stem + " " + pick(r, OTHER_KINDS),
                otherChair,
                1900 + r.nextInt(30),
                100 + r.nextInt(300),
                noticeYear - 1,
                completed + 1);
    }

    private static String pick(SplittableRandom r, String[] xs) {
        return xs[r.nextInt(xs.length)];
    }

    private static Person person(SplittableRandom r, List<String> firsts, List<String> lasts) {
        return new Person(firsts.remove(r.nextInt(firsts.size())), lasts.remove(r.nextInt(lasts.size())));
    }

    /** Every figure (and every day of a date) differs from every other. */
    boolean figuresDistinct() {
        List<Long> all = figures();
        return new HashSet<>(all).size() == all.size();
    }

    /** The world's figures, each once: what a number on a page can mean. */
    List<Long> figures() {
        List<Long> xs = new ArrayList<>(List.of(
                (long) founded,
                charityNumber,
                (long) directorJoined,
                (long) directorAppointed,
                (long) chairElected,
                (long) stationOpened,
                (long) stationBeds,
                (long) reserveHectaresBefore,
                (long) reserveHectares,
                (long) extensionYear,
                (long) birdSpecies,
                (long) pipelineKm,
                (long) pipelineCompleted,
                pipelineCost,
                (long) noticeIssued.getDayOfMonth(),
                (long) noticeLifted.getDayOfMonth(),
                (long) households,
                (long) staffBefore,
                (long) staff,
                (long) membersBefore,
                (long) members,
                (long) blogPipelineKm,
                (long) blogFounded,
                (long) otherFounded,
                (long) otherMembers,
                noticeDays(),
                (long) founderTenure(),
                (long) reportYearBefore,
                (long) reportYear));
        // The notice's year is the report-before year + 1; the lifted date shares it unless it runs into the next.
        if (noticeLifted.getYear() != noticeIssued.getYear()) xs.add((long) noticeLifted.getYear());
        xs.add((long) noticeIssued.getYear());
        return xs;
    }

    /** The world as a value (its content id pins what the generator made for a seed). */
    public Value toValue() {
        PyDict.Builder b = PyDict.builder();
        for (var c : WikiWorld.class.getRecordComponents()) {
            try {
                Object v = c.getAccessor().invoke(this);
                b.put(c.getName(), v instanceof Person p ? p.name() : String.valueOf(v));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return b.build();
    }
}
