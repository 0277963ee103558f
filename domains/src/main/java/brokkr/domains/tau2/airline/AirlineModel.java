package brokkr.domains.tau2.airline;

import static brokkr.python.PydanticSchema.Field.optional;
import static brokkr.python.PydanticSchema.Field.required;

import brokkr.python.PydanticSchema;
import brokkr.python.PydanticSchema.DictSchema;
import brokkr.python.PydanticSchema.Field;
import brokkr.python.PydanticSchema.ListSchema;
import brokkr.python.PydanticSchema.LiteralSchema;
import brokkr.python.PydanticSchema.ModelSchema;
import brokkr.python.PydanticSchema.NullableSchema;
import brokkr.python.PydanticSchema.UnionSchema;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The pydantic models of src/tau2/domains/airline/data_model.py, field for field (declaration order,
 * inherited fields first, descriptions where a tool schema shows them). A validated model is its
 * {@code model_dump()}; {@link #db} is {@code FlightDB.model_validate(db.json).model_dump()}.
 */
final class AirlineModel {
    private AirlineModel() {}

    private static final PydanticSchema STR = PydanticSchema.STR;
    private static final PydanticSchema INT = PydanticSchema.INT;
    private static final PydanticSchema FLOAT = PydanticSchema.FLOAT;

    static final LiteralSchema FLIGHT_TYPE = LiteralSchema.of("round_trip", "one_way");
    static final LiteralSchema CABIN_CLASS = LiteralSchema.of("business", "economy", "basic_economy");
    static final LiteralSchema INSURANCE = LiteralSchema.of("yes", "no");
    static final LiteralSchema MEMBERSHIP = LiteralSchema.of("gold", "silver", "regular");

    static final ModelSchema AIRPORT_CODE =
            ModelSchema.of("AirportCode", required("iata", STR, "IATA code"), required("city", STR, "City name"));

    static final ModelSchema NAME = ModelSchema.of(
            "Name",
            required("first_name", STR, "The person's first name"),
            required("last_name", STR, "The person's last name"));

    static final ModelSchema ADDRESS = ModelSchema.of(
            "Address",
            required("address1", STR, "Primary address line"),
            optional("address2", new NullableSchema(STR), PyNone.NONE, "Secondary address line (optional)"),
            required("city", STR, "City name"),
            required("country", STR, "Country name"),
            required("state", STR, "State or province name"),
            required("zip", STR, "Postal code"));

    static final ModelSchema PAYMENT = ModelSchema.of(
            "Payment",
            required("payment_id", STR, "Unique identifier for the payment"),
            required("amount", INT, "Payment amount in dollars"));

    static final ModelSchema CREDIT_CARD = ModelSchema.of(
            "CreditCard",
            required("source", LiteralSchema.of("credit_card"), "Indicates this is a credit card payment method"),
            required("id", STR, "Unique identifier for the payment method"),
            required("brand", STR, "Credit card brand (e.g., visa, mastercard)"),
            required("last_four", STR, "Last four digits of the credit card"));

    /** {@code GiftCard} redeclares {@code id} after {@code amount}; an overridden field keeps its inherited position. */
    static final ModelSchema GIFT_CARD = ModelSchema.of(
            "GiftCard",
            required("source", LiteralSchema.of("gift_card"), "Indicates this is a gift card payment method"),
            required("id", STR, "Unique identifier for the gift card"),
            required("amount", FLOAT, "Gift card value amount"));

    static final ModelSchema CERTIFICATE = ModelSchema.of(
            "Certificate",
            required("source", LiteralSchema.of("certificate"), "Indicates this is a certificate payment method"),
            required("id", STR, "Unique identifier for the payment method"),
            required("amount", FLOAT, "Certificate value amount"));

    static final UnionSchema PAYMENT_METHOD = new UnionSchema(List.of(CREDIT_CARD, GIFT_CARD, CERTIFICATE));

    static final ModelSchema PASSENGER = ModelSchema.of(
            "Passenger",
            required("first_name", STR, "Passenger's first name"),
            required("last_name", STR, "Passenger's last name"),
            required("dob", STR, "Date of birth in YYYY-MM-DD format"));

    private static final DictSchema SEATS = new DictSchema(CABIN_CLASS, INT);

    static final ModelSchema STATUS_AVAILABLE = ModelSchema.of(
            "FlightDateStatusAvailable",
            required("status", LiteralSchema.of("available"), null),
            required("available_seats", SEATS, null),
            required("prices", SEATS, null));

    private static ModelSchema status(String className, String status, String... timeFields) {
        List<Field> fields = new ArrayList<>();
        fields.add(required("status", LiteralSchema.of(status), null));
        for (String f : timeFields) fields.add(required(f, STR, null));
        return new ModelSchema(className, fields, false);
    }

    /** {@code FlightDateStatus}, members in upstream's order. */
    static final UnionSchema FLIGHT_DATE_STATUS = new UnionSchema(List.of(
            STATUS_AVAILABLE,
            status("FlightDateStatusLanded", "landed", "actual_departure_time_est", "actual_arrival_time_est"),
            status("FlightDateStatusCancelled", "cancelled"),
            status("FlightDateStatusDelayed", "delayed", "estimated_departure_time_est", "estimated_arrival_time_est"),
            status("FlightDataStatusFlying", "flying", "actual_departure_time_est", "estimated_arrival_time_est"),
            status("FlightDataStatusOnTime", "on time", "estimated_departure_time_est", "estimated_arrival_time_est")));

    static final ModelSchema FLIGHT = ModelSchema.of(
            "Flight",
            required("flight_number", STR, null),
            required("origin", STR, null),
            required("destination", STR, null),
            required("scheduled_departure_time_est", STR, null),
            required("scheduled_arrival_time_est", STR, null),
            required("dates", new DictSchema(STR, FLIGHT_DATE_STATUS), null));

    static final ModelSchema DIRECT_FLIGHT = ModelSchema.of(
            "DirectFlight",
            required("flight_number", STR, null),
            required("origin", STR, null),
            required("destination", STR, null),
            required("status", LiteralSchema.of("available"), null),
            required("scheduled_departure_time_est", STR, null),
            required("scheduled_arrival_time_est", STR, null),
            optional("date", new NullableSchema(STR), PyNone.NONE, null),
            required("available_seats", SEATS, null),
            required("prices", SEATS, null));

    static final ModelSchema RESERVATION_FLIGHT = ModelSchema.of(
            "ReservationFlight",
            required("flight_number", STR, null),
            required("origin", STR, null),
            required("destination", STR, null),
            required("date", STR, null),
            required("price", INT, null));

    static final ModelSchema FLIGHT_INFO = ModelSchema.of(
            "FlightInfo",
            required("flight_number", STR, "Flight number, such as 'HAT001'."),
            required("date", STR, "The date for the flight in the format 'YYYY-MM-DD', such as '2024-05-01'."));

    static final ModelSchema USER = ModelSchema.of(
            "User",
            required("user_id", STR, null),
            required("name", NAME, null),
            required("address", ADDRESS, null),
            required("email", STR, null),
            required("dob", STR, null),
            required("payment_methods", new DictSchema(STR, PAYMENT_METHOD), null),
            required("saved_passengers", new ListSchema(PASSENGER), null),
            required("membership", MEMBERSHIP, null),
            required("reservations", new ListSchema(STR), null));

    static final ModelSchema RESERVATION = ModelSchema.of(
            "Reservation",
            required("reservation_id", STR, null),
            required("user_id", STR, null),
            required("origin", STR, null),
            required("destination", STR, null),
            required("flight_type", FLIGHT_TYPE, null),
            required("cabin", CABIN_CLASS, null),
            required("flights", new ListSchema(RESERVATION_FLIGHT), null),
            required("passengers", new ListSchema(PASSENGER), null),
            required("payment_history", new ListSchema(PAYMENT), null),
            required("created_at", STR, null),
            required("total_baggages", INT, null),
            required("nonfree_baggages", INT, null),
            required("insurance", INSURANCE, null),
            optional("status", new NullableSchema(LiteralSchema.of("cancelled")), PyNone.NONE, null));

    /** {@code FlightDB(DB)}: {@code DB} is a {@code BaseModelNoExtra} ({@code extra="forbid"}). */
    static final ModelSchema FLIGHT_DB = new ModelSchema(
            "FlightDB",
            List.of(
                    required("flights", new DictSchema(STR, FLIGHT), null),
                    required("users", new DictSchema(STR, USER), null),
                    required("reservations", new DictSchema(STR, RESERVATION), null)),
            true);

    /** {@code FlightDB.load(path)}: {@code model_validate} of the parsed file, as its {@code model_dump()}. */
    static PyDict db(Value raw) {
        return FLIGHT_DB.validatePython(raw).asDict();
    }
}
