package brokkr.domains.wiki;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The twelve dated documents of a world, of different authority, each written from the {@link WikiWorld}
 * (never from the gold): a charter, two annual reports, a newsletter, two sets of board minutes, three press
 * releases (one a duplicate of another), an unofficial blog that is wrong, an agenda that states no fact, and
 * an article about an unrelated organisation with a similar name. Some figures are spelled out in words.
 */
public final class Documents {
    private Documents() {}

    /** One document: its path under {@code /docs}, its kind (what authority it has) and its Markdown text. */
    public record Doc(String path, String kind, String text) {}

    /** The paths of a world's documents, by role (the gold names its sources by these). */
    public record Paths(
            String charter,
            String reportBefore,
            String report,
            String newsletter,
            String appointmentMinutes,
            String noticeMinutes,
            String noticeRelease,
            String noticeReissue,
            String extensionRelease,
            String blog,
            String agenda,
            String unrelated) {
        public static Paths of(WikiWorld w) {
            int y = w.noticeIssued().getYear();
            return new Paths(
                    "/docs/charter.md",
                    "/docs/annual-report-" + w.reportYearBefore() + ".md",
                    "/docs/annual-report-" + w.reportYear() + ".md",
                    "/docs/newsletter-" + y + "-summer.md",
                    "/docs/board-minutes-" + w.directorAppointed() + ".md",
                    "/docs/board-minutes-" + w.noticeLifted() + ".md",
                    "/docs/press-release-" + w.noticeIssued() + ".md",
                    "/docs/press-release-" + w.noticeIssued() + "-reissued.md",
                    "/docs/press-release-" + w.extensionYear() + "-reserve.md",
                    "/docs/riverbank-blog.md",
                    "/docs/agm-agenda.md",
                    "/docs/gazette-" + slug(w.otherOrg()) + ".md");
        }
    }

    static String slug(String name) {
        return name.toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-|-$", "");
    }

    /** The documents of {@code w} by path, in a stable order. */
    public static Map<String, Doc> of(WikiWorld w) {
        Paths p = Paths.of(w);
        String org = w.org();
        String pressText =
                """
                # %s issues drought notice

                For immediate release.

                On %s the %s issued a drought notice covering %s households downstream of %s. \
                Customers are asked to save water until further notice.

                Contact: the press office.
                """.formatted(org, Term.Day.spelled(w.noticeIssued()), org, Numbers.digits(w.households()), w.hqTown());
        List<Doc> docs = List.of(
                new Doc(p.charter(), "charter", """
                        # Charter of the %s

                        Adopted by the founding members.

                        1. The %s is hereby constituted in %d at %s, where its office shall be kept.
                        2. Its purpose is to %s.
                        3. %s shall serve as its first director.
                        4. The Trust is entered in the register of charities under number %d.
                        5. It holds the %s, %d hectares of grazing marsh, in trust for the public.
                        """.formatted(
                                org,
                                org,
                                w.founded(),
                                w.hqTown(),
                                w.mission(),
                                w.founder().name(),
                                w.charityNumber(),
                                w.reserve(),
                                w.reserveHectaresBefore())),
                new Doc(p.reportBefore(), "annual report", """
                        # %s: Annual Report %d

                        The Trust employed %d staff at the close of %d.

                        Our %s at %s, opened in %d, remained the base of our survey work. \
                        %s, who joined us as a field officer in %d, led the survey programme.
                        """.formatted(
                                org,
                                w.reportYearBefore(),
                                w.staffBefore(),
                                w.reportYearBefore(),
                                w.station(),
                                w.stationTown(),
                                w.stationOpened(),
                                w.director().name(),
                                w.directorJoined())),
                new Doc(p.report(), "annual report", """
                        # %s: Annual Report %d

                        At the end of %d the Trust employed %s people. \
                        Membership stood at %s households and individuals.

                        %s has been director since %d. \
                        The board is chaired by %s, a %s, who was elected chair in %d.

                        The %s, completed in %d, now carries water over %d kilometres. \
                        The %s now covers %d hectares.
                        """.formatted(
                                org,
                                w.reportYear(),
                                w.reportYear(),
                                Numbers.words(w.staff()),
                                Numbers.digits(w.members()),
                                w.director().name(),
                                w.directorAppointed(),
                                w.chair().name(),
                                w.chairProfession(),
                                w.chairElected(),
                                w.pipeline(),
                                w.pipelineCompleted(),
                                w.pipelineKm(),
                                w.reserve(),
                                w.reserveHectares())),
                new Doc(p.newsletter(), "newsletter", """
                        # Riverwatch: the %s newsletter, summer %d

                        Spring count: volunteers logged %d bird species on the %s this year!

                        We now have %s members, thank you all.

                        The bunkhouse at the %s sleeps %s visiting researchers, so book early.
                        """.formatted(
                                org,
                                w.noticeIssued().getYear(),
                                w.birdSpecies(),
                                w.reserve(),
                                Numbers.digits(w.membersBefore()),
                                w.station(),
                                Numbers.words(w.stationBeds()))),
                new Doc(p.appointmentMinutes(), "board minutes", """
                        # Minutes of the board of the %s, %d

                        Present: the board.

                        The board appointed %s as director with effect from %d. \
                        %s stood down as director at this meeting, in %d, with the board's thanks.
                        """.formatted(
                                org,
                                w.directorAppointed(),
                                w.director().name(),
                                w.directorAppointed(),
                                w.founder().name(),
                                w.directorAppointed())),
                new Doc(p.noticeMinutes(), "board minutes", """
                        # Minutes of the board of the %s, %s

                        The board noted that the drought notice was lifted on %s. \
                        The board approved a budget of £%s for the %s.
                        """.formatted(
                                org,
                                Term.Day.spelled(w.noticeLifted()),
                                Term.Day.spelled(w.noticeLifted()),
                                Numbers.digits(w.pipelineCost()),
                                w.pipeline())),
                new Doc(p.noticeRelease(), "press release", pressText),
                new Doc(
                        p.noticeReissue(),
                        "press release (duplicate)",
                        pressText + "\n(Reissued to the regional list.)\n"),
                new Doc(p.extensionRelease(), "press release", """
                        # %s to be extended

                        The %s grows from %d to %d hectares, the %s announced in %d. \
                        Work on the %d-kilometre %s continues.
                        """.formatted(
                                w.reserve(),
                                w.reserve(),
                                w.reserveHectaresBefore(),
                                w.reserveHectares(),
                                org,
                                w.extensionYear(),
                                w.pipelineKm(),
                                w.pipeline())),
                new Doc(p.blog(), "unofficial blog", """
                        # Notes from the riverbank (an unofficial blog)

                        Fun fact: the %s was founded back in %d. \
                        The %s runs for %d km, I'm told. \
                        %s still runs the place, as far as I know.
                        """.formatted(
                                org,
                                w.blogFounded(),
                                w.pipeline(),
                                w.blogPipelineKm(),
                                w.founder().name())),
                new Doc(p.agenda(), "agenda", """
                        # Agenda: Annual General Meeting

                        To be held in the main hall.

                        1. Welcome and apologies
                        2. Minutes of the last meeting
                        3. The director's report
                        4. Election of officers
                        5. Any other business
                        """),
                new Doc(p.unrelated(), "newspaper article", """
                        # %s marks another season

                        The %s, founded in %d, now has %d members. \
                        Its chair, %s, thanked the volunteers who keep the club going.
                        """.formatted(
                                w.otherOrg(),
                                w.otherOrg(),
                                w.otherFounded(),
                                w.otherMembers(),
                                w.otherChair().name())));
        Map<String, Doc> out = new LinkedHashMap<>();
        for (Doc d : docs) out.put(d.path(), d);
        return java.util.Collections.unmodifiableMap(out);
    }
}
