package brokkr.domains.tau2.airline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.python.PyException;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.world.WorldHash;
import org.junit.jupiter.api.Test;

/** The DB as upstream's FlightDB validates and dumps it (the refusal of changed data is Tau2DomainsDataTest's, for every domain). */
class AirlineDataTest {

    /**
     * {@code FlightDB.model_validate(db.json).model_dump()}: reservations gain {@code status: None}
     * (absent from the file), flight legs are reordered to the model's fields; the hash is upstream's
     * {@code get_db_hash()} of the pristine DB (every record of the corpora starts from it).
     */
    @Test
    void theDbIsTheModelDump() {
        AirlineDomain d = new AirlineDomain(new Tau2Data(SharedDirs.tau2Data()));
        PyDict raw = Json.read(SharedDirs.tau2Data().resolve("data/tau2/domains/airline/db.json"))
                .asDict();
        PyDict rawRes = raw.get("reservations").asDict().get("4WQ150").asDict();
        PyDict res = d.db().get("reservations").asDict().get("4WQ150").asDict();
        assertEquals(null, rawRes.get("status"));
        assertEquals(PyNone.NONE, res.get("status"));
        assertEquals(
                "[origin, destination, flight_number, date, price]",
                rawRes.get("flights").asList().get(0).asDict().keys().toString());
        assertEquals(
                "[flight_number, origin, destination, date, price]",
                res.get("flights").asList().get(0).asDict().keys().toString());
        assertEquals(
                "7d1714e959830778e6b38d63428b660ef6c9009261f0adaa178adb97bfb469d6", WorldHash.sha256(d.db(), true));
        assertEquals(300, d.db().get("flights").asDict().size());
        assertEquals(500, d.db().get("users").asDict().size());
        assertEquals(2000, d.db().get("reservations").asDict().size());
        // the pin an environment of tau2-airline records for the DB
        assertEquals(
                "0eaaaba983972a5b14c762b8b0754ce92a1c3443e288010b0d16a5e5f59b3e16",
                new AirlineBenchmark()
                        .environment("0", java.util.Map.of())
                        .dataDigests()
                        .get("data/tau2/domains/airline/db.json"));
    }

    /** A DB that FlightDB would not accept is refused with pydantic's text (extra="forbid" at the top, unions by status). */
    @Test
    void anInvalidDbIsAValidationError() {
        PyException e = assertThrows(
                PyException.class,
                () -> AirlineModel.db(
                        Json.parse(
                                "{\"flights\": {\"HAT1\": {\"flight_number\": \"HAT1\", \"origin\": \"A\", \"destination\": \"B\","
                                        + " \"scheduled_departure_time_est\": \"1\", \"scheduled_arrival_time_est\": \"2\","
                                        + " \"dates\": {\"2024-05-01\": {\"status\": \"cancelled\"}}}}, \"users\": {}, \"reservations\": {}, \"x\": 1}")));
        assertEquals("ValidationError", e.pyType());
        assertTrue(
                e.str()
                        .startsWith(
                                "1 validation error for FlightDB\nx\n  Extra inputs are not permitted [type=extra_forbidden"),
                e.str());
        PyException bad = assertThrows(
                PyException.class,
                () -> AirlineModel.db(
                        Json.parse(
                                "{\"flights\": {\"HAT1\": {\"flight_number\": \"HAT1\", \"origin\": \"A\", \"destination\": \"B\","
                                        + " \"scheduled_departure_time_est\": \"1\", \"scheduled_arrival_time_est\": \"2\","
                                        + " \"dates\": {\"2024-05-01\": {\"status\": \"lost\"}}}}, \"users\": {}, \"reservations\": {}}")));
        // pydantic 2's smart union: every member's errors under the member's class name (text from upstream's FlightDB)
        assertTrue(
                bad.str()
                        .startsWith(
                                "16 validation errors for FlightDB\nflights.HAT1.dates.2024-05-01.FlightDateStatusAvailable.status\n"
                                        + "  Input should be 'available' [type=literal_error, input_value='lost', input_type=str]"),
                bad.str());
        assertTrue(
                bad.str()
                        .endsWith("flights.HAT1.dates.2024-05-01.FlightDataStatusOnTime.estimated_arrival_time_est\n"
                                + "  Field required [type=missing, input_value={'status': 'lost'}, input_type=dict]\n"
                                + "    For further information visit https://errors.pydantic.dev/2.10/v/missing"),
                bad.str());
    }
}
