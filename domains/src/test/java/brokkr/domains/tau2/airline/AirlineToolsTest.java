package brokkr.domains.tau2.airline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Environment.ToolMessage;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The airline quirks the issue names, each on upstream's recorded behaviour: the scripted
 * {@code airline-quirks.jsonl} and the random {@code airline-targeted-seed1.jsonl.gz}
 * (domains/src/test/oracle/tau2_airline_oracle.py, upstream's own environment, DB hash after every call),
 * replayed with 0 mismatches, and the facts they show asserted one by one.
 */
class AirlineToolsTest {
    static AirlineDomain domain;

    @BeforeAll
    static void load() {
        domain = new AirlineDomain(new Tau2Data(SharedDirs.tau2Data()));
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(AirlineToolsTest.class.getResource(name).toURI());
    }

    @Test
    void scriptedQuirksReplayAsUpstream() throws Exception {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), resource("airline-quirks.jsonl"), System.out);
        assertEquals(5, r.sequences());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void targetedRandomSequencesReplayAsUpstream(@TempDir Path tmp) throws Exception {
        Path corpus = tmp.resolve("airline-targeted-seed1.jsonl");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(resource("airline-targeted-seed1.jsonl.gz")))) {
            Files.write(corpus, in.readAllBytes());
        }
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), corpus, System.out);
        assertEquals(60, r.sequences());
        assertTrue(r.calls() > 600, r.toString());
        assertEquals(0, r.mismatches(), r.toString());
    }

    private static ToolMessage call(Tau2Environment env, String name, String argsJson) {
        return env.getResponse(name, Json.parse(argsJson).asDict(), "assistant");
    }

    private static PyDict reservation(Tau2Environment env, String id) {
        return env.db().asDict().get("reservations").asDict().get(id).asDict();
    }

    private static PyDict paymentMethod(Tau2Environment env, String user, String id) {
        return env.db()
                .asDict()
                .get("users")
                .asDict()
                .get(user)
                .asDict()
                .get("payment_methods")
                .asDict()
                .get(id)
                .asDict();
    }

    @Test
    void baggageCountsAreStoredAsGivenAndAGiftCardStaysChargedWhenThePaymentIsRefused() {
        Tau2Environment env = domain.environment();
        ToolMessage m = call(
                env,
                "update_reservation_baggages",
                "{\"reservation_id\": \"R9QDGB\", \"total_baggages\": \"5\", \"nonfree_baggages\": 1.5, \"payment_id\": \"credit_card_6082923\"}");
        assertFalse(m.error(), m.content());
        assertTrue(m.content().contains("\"total_baggages\": \"5\", \"nonfree_baggages\": 1.5,"), m.content());
        assertEquals(new PyStr("5"), reservation(env, "R9QDGB").get("total_baggages"));
        // 50 * max(0, 1.5 - 0) = 75.0, which Payment(amount=...) takes as the int 75
        assertEquals(
                PyInt.of(75),
                reservation(env, "R9QDGB")
                        .get("payment_history")
                        .asList()
                        .get(1)
                        .asDict()
                        .get("amount"));

        String before = env.dbHash();
        m = call(
                env,
                "update_reservation_baggages",
                "{\"reservation_id\": \"R9QDGB\", \"total_baggages\": 2, \"nonfree_baggages\": 1.51, \"payment_id\": \"gift_card_5309492\"}");
        assertTrue(m.error());
        assertTrue(
                m.content()
                        .startsWith(
                                "Error: 1 validation error for Payment\namount\n  Input should be a valid integer, "
                                        + "got a number with a fractional part [type=int_from_float, input_value=0.5000000000000004, input_type=float]"),
                m.content());
        assertTrue(!before.equals(env.dbHash()), "the gift card charge before the failing Payment stays");
        assertEquals(
                new PyFloat(98.0 - 0.5000000000000004),
                paymentMethod(env, "mei_hernandez_8984", "gift_card_5309492").get("amount"));
        assertEquals(new PyFloat(1.5), reservation(env, "R9QDGB").get("nonfree_baggages"));
    }

    @Test
    void newIdsAreUpstreamsFixedOnesAndCancellingReleasesNoSeat() {
        Tau2Environment env = domain.environment();
        String book =
                "{\"user_id\": \"mei_hernandez_8984\", \"origin\": \"JFK\", \"destination\": \"MIA\", \"flight_type\": \"one_way\","
                        + " \"cabin\": \"economy\", \"flights\": [{\"flight_number\": \"HAT014\", \"date\": \"2024-05-17\"}],"
                        + " \"passengers\": [{\"first_name\": \"Ann\", \"last_name\": \"Lee\", \"dob\": \"1990-01-01\"}],"
                        + " \"payment_methods\": [{\"payment_id\": \"credit_card_6082923\", \"amount\": 198}],"
                        + " \"total_baggages\": 1, \"nonfree_baggages\": 0, \"insurance\": \"no\"}";
        PyDict flightDate = env.db()
                .asDict()
                .get("flights")
                .asDict()
                .get("HAT014")
                .asDict()
                .get("dates")
                .asDict()
                .get("2024-05-17")
                .asDict();
        Value seats = flightDate.get("available_seats").asDict().get("economy");
        for (String id : new String[] {"HATHAT", "HATHAU", "HATHAV"}) {
            ToolMessage m = call(env, "book_reservation", book);
            assertTrue(m.content().startsWith("{\"reservation_id\": \"" + id + "\""), m.content());
            assertEquals(new PyStr(AirlineTools.NOW), reservation(env, id).get("created_at"));
        }
        assertEquals(
                "Error: Too many reservations",
                call(env, "book_reservation", book).content());
        PyDict after = env.db()
                .asDict()
                .get("flights")
                .asDict()
                .get("HAT014")
                .asDict()
                .get("dates")
                .asDict()
                .get("2024-05-17")
                .asDict();
        assertEquals(
                ((PyInt) seats).longValue() - 3,
                ((PyInt) after.get("available_seats").asDict().get("economy")).longValue());
        call(env, "cancel_reservation", "{\"reservation_id\": \"HATHAT\"}");
        assertEquals(
                after,
                env.db()
                        .asDict()
                        .get("flights")
                        .asDict()
                        .get("HAT014")
                        .asDict()
                        .get("dates")
                        .asDict()
                        .get("2024-05-17"));
        assertEquals(new PyStr("cancelled"), reservation(env, "HATHAT").get("status"));
        assertEquals(
                "Certificate certificate_3221322 added to user mei_hernandez_8984 with amount 100.",
                call(env, "send_certificate", "{\"user_id\": \"mei_hernandez_8984\", \"amount\": 100}")
                        .content());
        assertEquals(
                "Certificate certificate_3221323 added to user mei_hernandez_8984 with amount 2.5.",
                call(env, "send_certificate", "{\"user_id\": \"mei_hernandez_8984\", \"amount\": \"2.5\"}")
                        .content());
        assertEquals(
                new PyFloat(2.5),
                paymentMethod(env, "mei_hernandez_8984", "certificate_3221323").get("amount"));
    }

    /**
     * {@code search_onestop_flight} looks for the second leg of a "+1" arrival on
     * {@code f"2024-05-{int(date[-2:]) + 1}"}: unpadded, so after "2024-05-01" it asks for "2024-05-2"
     * (the shared DB has no available flight before May 16, where the quirk never shows; here a world
     * that has such dates makes it visible).
     */
    @Test
    void theOnestopNextDayIsUnpadded() {
        PyDict db = domain.db();
        PyDict flights = db.get("flights").asDict();
        PyDict first = flights.get("HAT002").asDict(); // LGA -> PHX, arrives 01:30:00+1
        assertEquals(new PyStr("01:30:00+1"), first.get("scheduled_arrival_time_est"));
        PyDict available = first.get("dates").asDict().get("2024-05-19").asDict();
        String onward = null;
        PyDict second = null;
        for (Value f : flights.asMap().values()) {
            PyDict fd = f.asDict();
            if (fd.get("origin").equals(new PyStr("PHX"))
                    && fd.get("dates").asDict().get("2024-05-20") instanceof PyDict d
                    && d.get("status").equals(new PyStr("available"))) {
                second = fd;
                onward = fd.get("destination").asStr();
                break;
            }
        }
        PyDict secondLeg = second.get("dates").asDict().get("2024-05-20").asDict();
        PyDict world = db.with(
                "flights",
                flights.with(
                                "HAT002",
                                first.with("dates", first.get("dates").asDict().with("2024-05-01", available)))
                        .with(
                                second.get("flight_number").asStr(),
                                second.with(
                                        "dates", second.get("dates").asDict().with("2024-05-2", secondLeg))));
        Tau2Environment env = Tau2Environment.agentOnly(domain.toolkit(), world);
        ToolMessage m = call(
                env,
                "search_onestop_flight",
                "{\"origin\": \"LGA\", \"destination\": \"" + onward + "\", \"date\": \"2024-05-01\"}");
        PyList pairs = Json.parse(m.content()).asList();
        boolean found = false;
        for (Value p : pairs) {
            PyList pair = p.asList();
            if (pair.get(0).asDict().get("flight_number").equals(new PyStr("HAT002"))) {
                assertEquals(new PyStr("2024-05-01"), pair.get(0).asDict().get("date"));
                assertEquals(new PyStr("2024-05-2"), pair.get(1).asDict().get("date"));
                found = true;
            }
        }
        assertTrue(found, m.content());
    }
}
