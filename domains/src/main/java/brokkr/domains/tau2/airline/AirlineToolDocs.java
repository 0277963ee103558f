package brokkr.domains.tau2.airline;

import brokkr.domains.tau2.environment.ToolSchema;
import brokkr.python.PydanticSchema.ModelSchema;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.util.List;

/**
 * The docstrings of upstream's {@code AirlineTools} methods (src/tau2/domains/airline/tools.py), as
 * {@code docstring_parser} splits them, and their parameter types as pydantic's JSON schema writes
 * them: {@code List[FlightInfo | dict]} is an array of {@code anyOf} the model's {@code $defs} entry
 * or any object, the {@code Literal} aliases are enums.
 */
final class AirlineToolDocs {
    private AirlineToolDocs() {}

    /** {@code List[M | dict]}. */
    private static PyDict modelsOrDicts(String model) {
        return ToolSchema.arrayOf(
                PyDict.of("anyOf", PyList.of(PyDict.of("$ref", "#/$defs/" + model), PyDict.of("type", "object"))));
    }

    /** The {@code $defs} of the models a tool's parameters refer to, by class name. */
    private static PyDict defs(ModelSchema... models) {
        PyDict.Builder b = PyDict.builder();
        for (ModelSchema m : models) b.put(m.name(), m.jsonSchema());
        return b.build();
    }

    /** In upstream order ({@code AirlineTools} definition order). */
    static final List<ToolSchema.ToolDoc> DOCS = List.of(
            new ToolSchema.ToolDoc(
                    "book_reservation",
                    "Book a reservation.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "user_id",
                                    "The ID of the user to book the reservation such as 'sara_doe_496'`.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "origin", "The IATA code for the origin city such as 'SFO'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "destination",
                                    "The IATA code for the destination city such as 'JFK'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "flight_type",
                                    "The type of flight such as 'one_way' or 'round_trip'.",
                                    AirlineModel.FLIGHT_TYPE.jsonSchema()),
                            new ToolSchema.ParamDoc(
                                    "cabin",
                                    "The cabin class such as 'basic_economy', 'economy', or 'business'.",
                                    AirlineModel.CABIN_CLASS.jsonSchema()),
                            new ToolSchema.ParamDoc(
                                    "flights",
                                    "An array of objects containing details about each piece of flight.",
                                    modelsOrDicts("FlightInfo")),
                            new ToolSchema.ParamDoc(
                                    "passengers",
                                    "An array of objects containing details about each passenger.",
                                    modelsOrDicts("Passenger")),
                            new ToolSchema.ParamDoc(
                                    "payment_methods",
                                    "An array of objects containing details about each payment method.",
                                    modelsOrDicts("Payment")),
                            new ToolSchema.ParamDoc(
                                    "total_baggages",
                                    "The total number of baggage items to book the reservation.",
                                    ToolSchema.INTEGER),
                            new ToolSchema.ParamDoc(
                                    "nonfree_baggages",
                                    "The number of non-free baggage items to book the reservation.",
                                    ToolSchema.INTEGER),
                            new ToolSchema.ParamDoc(
                                    "insurance",
                                    "Whether the reservation has insurance.",
                                    AirlineModel.INSURANCE.jsonSchema())),
                    defs(AirlineModel.FLIGHT_INFO, AirlineModel.PASSENGER, AirlineModel.PAYMENT)),
            new ToolSchema.ToolDoc(
                    "calculate",
                    "Calculate the result of a mathematical expression.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "expression",
                            "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.",
                            ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "cancel_reservation",
                    "Cancel the whole reservation.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "reservation_id", "The reservation ID, such as 'ZFA04Y'.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_reservation_details",
                    "Get the details of a reservation.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "reservation_id", "The reservation ID, such as '8JX2WO'.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_user_details",
                    "Get the details of a user, including their reservations.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "user_id", "The user ID, such as 'sara_doe_496'.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "list_all_airports", "Returns a list of all available airports.", null, List.of(), null),
            new ToolSchema.ToolDoc(
                    "search_direct_flight",
                    "Search for direct flights between two cities on a specific date.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "origin",
                                    "The origin city airport in three letters, such as 'JFK'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "destination",
                                    "The destination city airport in three letters, such as 'LAX'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "date",
                                    "The date of the flight in the format 'YYYY-MM-DD', such as '2024-01-01'.",
                                    ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "search_onestop_flight",
                    "Search for one-stop flights between two cities on a specific date.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "origin",
                                    "The origin city airport in three letters, such as 'JFK'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "destination",
                                    "The destination city airport in three letters, such as 'LAX'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "date",
                                    "The date of the flight in the format 'YYYY-MM-DD', such as '2024-05-01'.",
                                    ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "send_certificate",
                    "Send a certificate to a user. Be careful!",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "user_id",
                                    "The ID of the user to book the reservation, such as 'sara_doe_496'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "amount", "The amount of the certificate to send.", ToolSchema.INTEGER)),
                    null),
            new ToolSchema.ToolDoc(
                    "transfer_to_human_agents",
                    "Transfer the user to a human agent, with a summary of the user's issue.",
                    "Only transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.",
                    List.of(new ToolSchema.ParamDoc("summary", "A summary of the user's issue.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "update_reservation_baggages",
                    "Update the baggage information of a reservation.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "reservation_id", "The reservation ID, such as 'ZFA04Y'", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "total_baggages",
                                    "The updated total number of baggage items included in the reservation.",
                                    ToolSchema.INTEGER),
                            new ToolSchema.ParamDoc(
                                    "nonfree_baggages",
                                    "The updated number of non-free baggage items included in the reservation.",
                                    ToolSchema.INTEGER),
                            new ToolSchema.ParamDoc(
                                    "payment_id",
                                    "The payment id stored in user profile, such as 'credit_card_7815826', 'gift_card_7815826', 'certificate_7815826'.",
                                    ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "update_reservation_flights",
                    "Update the flight information of a reservation.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "reservation_id", "The reservation ID, such as 'ZFA04Y'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "cabin",
                                    "The cabin class of the reservation",
                                    AirlineModel.CABIN_CLASS.jsonSchema()),
                            new ToolSchema.ParamDoc(
                                    "flights",
                                    "An array of objects containing details about each piece of flight in the ENTIRE new reservation. Even if the a flight segment is not changed, it should still be included in the array.",
                                    modelsOrDicts("FlightInfo")),
                            new ToolSchema.ParamDoc(
                                    "payment_id",
                                    "The payment id stored in user profile, such as 'credit_card_7815826', 'gift_card_7815826', 'certificate_7815826'.",
                                    ToolSchema.STRING)),
                    defs(AirlineModel.FLIGHT_INFO)),
            new ToolSchema.ToolDoc(
                    "update_reservation_passengers",
                    "Update the passenger information of a reservation.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "reservation_id", "The reservation ID, such as 'ZFA04Y'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "passengers",
                                    "An array of objects containing details about each passenger.",
                                    modelsOrDicts("Passenger"))),
                    defs(AirlineModel.PASSENGER)),
            new ToolSchema.ToolDoc(
                    "get_flight_status",
                    "Get the status of a flight.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc("flight_number", "The flight number.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("date", "The date of the flight.", ToolSchema.STRING)),
                    null));
}
