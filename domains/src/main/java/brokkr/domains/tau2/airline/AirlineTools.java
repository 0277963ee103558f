package brokkr.domains.tau2.airline;

import static brokkr.python.PyException.valueError;

import brokkr.domains.tau2.environment.Calculate;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyArith;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.python.PydanticSchema.ModelSchema;
import brokkr.tool.Args;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 14 agent tools of upstream's {@code AirlineTools} (src/tau2/domains/airline/tools.py) over an
 * immutable {@code FlightDB} dump.
 *
 * <p>Tools are called as Python bound methods with raw keyword arguments. Upstream validates only
 * where it builds a pydantic model ({@code FlightInfo(**f)}, {@code Passenger(**p)},
 * {@code Payment(...)}, {@code Reservation(...)}, {@code Certificate(...)}), with pydantic's lax
 * coercions ({@link ModelSchema#create}); everywhere else a value is used, and stored by attribute
 * assignment (pydantic models do not validate assignment), exactly as given: arithmetic, comparisons
 * and f-strings on it follow CPython ({@link PyArith}, {@link PyOps}, {@link PyRepr}). Each in-place
 * mutation of the Python code is a {@link WorldCell#set} at the same point, so a call that raises
 * half way keeps the writes made before the raise, as upstream does.
 */
public final class AirlineTools {
    private AirlineTools() {}

    static final String CLS = "AirlineTools";

    /** Methods decorated {@code @is_tool(ToolType.WRITE)} ({@code mutates_state=True}). */
    static final Set<String> WRITE = Set.of(
            "book_reservation",
            "cancel_reservation",
            "send_certificate",
            "update_reservation_baggages",
            "update_reservation_flights",
            "update_reservation_passengers");

    /** Tools returning a pydantic model or a list of them ({@code to_json_str} dumps those without stringifying numbers). */
    static final Set<String> MODEL_RESULTS = Set.of(
            "book_reservation",
            "cancel_reservation",
            "get_reservation_details",
            "get_user_details",
            "list_all_airports",
            "search_direct_flight",
            "search_onestop_flight",
            "update_reservation_baggages",
            "update_reservation_flights",
            "update_reservation_passengers");

    /** {@code _get_datetime}: upstream's fixed current time. */
    static final String NOW = "2024-05-15T15:00:00";

    /** {@code _get_new_reservation_id}: "Assume each task makes at most 3 reservations". */
    static final List<String> NEW_RESERVATION_IDS = List.of("HATHAT", "HATHAU", "HATHAV");

    /** {@code _get_new_payment_id} as {@code send_certificate} uses it: {@code certificate_<id>}. */
    static final List<String> NEW_CERTIFICATE_IDS =
            List.of("certificate_3221322", "certificate_3221323", "certificate_3221324");

    public static Tau2Toolkit toolkit() {
        Map<String, ToolFunction> bodies = Map.ofEntries(
                Map.entry("book_reservation", AirlineTools::bookReservation),
                Map.entry("calculate", (c, a) -> new PyStr(Calculate.calculate(a.get("expression")))),
                Map.entry("cancel_reservation", AirlineTools::cancelReservation),
                Map.entry("get_reservation_details", (c, a) -> getReservation(c, a.get("reservation_id"))),
                Map.entry("get_user_details", (c, a) -> getUser(c, a.get("user_id"))),
                Map.entry("list_all_airports", (c, a) -> AIRPORTS),
                Map.entry(
                        "search_direct_flight",
                        (c, a) -> PyList.of(searchDirectFlight(
                                c, a.get("date"), a.get("origin"), a.get("destination"), PyNone.NONE))),
                Map.entry("search_onestop_flight", AirlineTools::searchOnestopFlight),
                Map.entry("send_certificate", AirlineTools::sendCertificate),
                Map.entry("transfer_to_human_agents", (c, a) -> new PyStr("Transfer successful")),
                Map.entry("update_reservation_baggages", AirlineTools::updateReservationBaggages),
                Map.entry("update_reservation_flights", AirlineTools::updateReservationFlights),
                Map.entry("update_reservation_passengers", AirlineTools::updateReservationPassengers),
                Map.entry(
                        "get_flight_status",
                        (c, a) -> getFlightInstance(c, a.get("flight_number"), a.get("date"))
                                .get("status")));
        return Tau2Toolkit.builder(CLS, AirlineToolDocs.DOCS)
                .bodies(bodies)
                .mutating(WRITE)
                .modelResults(MODEL_RESULTS)
                .generic(Set.of("calculate", "transfer_to_human_agents"))
                .build();
    }

    // ---- DB access (AirlineTools._get_user / _get_reservation / _get_flight / _get_flight_instance)

    private static PyDict table(WorldCell c, String name) {
        return c.get().asDict().get(name).asDict();
    }

    /** {@code self.db.<table>[key] = value} (or an in-place change of the object stored there). */
    private static void put(WorldCell c, String table, String key, PyDict value) {
        PyDict db = c.get().asDict();
        c.set(db.with(table, db.get(table).asDict().with(key, value)));
    }

    static PyDict getUser(WorldCell c, Value userId) {
        PyDict users = table(c, "users");
        if (!PyBuiltins.contains(users, userId)) throw valueError("User " + PyRepr.str(userId) + " not found");
        return users.get(userId.asStr()).asDict();
    }

    static PyDict getReservation(WorldCell c, Value reservationId) {
        PyDict reservations = table(c, "reservations");
        if (!PyBuiltins.contains(reservations, reservationId)) {
            throw valueError("Reservation " + PyRepr.str(reservationId) + " not found");
        }
        return reservations.get(reservationId.asStr()).asDict();
    }

    static PyDict getFlight(WorldCell c, Value flightNumber) {
        PyDict flights = table(c, "flights");
        if (!PyBuiltins.contains(flights, flightNumber))
            throw valueError("Flight " + PyRepr.str(flightNumber) + " not found");
        return flights.get(flightNumber.asStr()).asDict();
    }

    static PyDict getFlightInstance(WorldCell c, Value flightNumber, Value date) {
        PyDict dates = getFlight(c, flightNumber).get("dates").asDict();
        if (!PyBuiltins.contains(dates, date)) {
            throw valueError("Flight " + PyRepr.str(flightNumber) + " not found on date " + PyRepr.str(date));
        }
        return dates.get(date.asStr()).asDict();
    }

    /** {@code flight.dates[date] = instance}, for the in-place seat update. */
    private static void putFlightInstance(WorldCell c, String flightNumber, String date, PyDict instance) {
        PyDict flight = table(c, "flights").get(flightNumber).asDict();
        put(
                c,
                "flights",
                flightNumber,
                flight.with("dates", flight.get("dates").asDict().with(date, instance)));
    }

    private static void putPaymentMethod(WorldCell c, PyDict user, String id, PyDict method) {
        put(
                c,
                "users",
                user.get("user_id").asStr(),
                user.with(
                        "payment_methods", user.get("payment_methods").asDict().with(id, method)));
    }

    private static boolean isAvailable(PyDict instance) {
        return instance.get("status").equals(new PyStr("available"));
    }

    /** {@code d[key]} on a dict of str keys: unhashable keys raise TypeError, absent ones KeyError(repr). */
    private static Value item(PyDict d, Value key) {
        if (!PyBuiltins.contains(d, key)) throw PyException.keyError(key);
        return d.get(key.asStr());
    }

    /** {@code obj.<field>} where {@code obj} may be a raw argument rather than the model upstream expected. */
    private static Value attr(Value obj, boolean isModel, String field) {
        if (!isModel) throw PyBuiltins.attributeError(obj, field);
        return obj.asDict().get(field);
    }

    /** {@code all(isinstance(x, dict) for x in v)}. */
    private static boolean allDicts(Value v) {
        for (Value x : PyBuiltins.iterate(v)) if (!(x instanceof PyDict)) return false;
        return true;
    }

    /** {@code [Model(**x) for x in v]} (the first invalid item raises). */
    private static PyList createAll(ModelSchema model, Value v) {
        List<Value> out = new ArrayList<>();
        for (Value x : PyBuiltins.iterate(v)) out.add(model.create(x.asDict()));
        return PyList.of(out);
    }

    /** The {@code model if all items are dicts} conversion upstream applies to list arguments. */
    private record Converted(Value value, boolean models) {
        static Converted of(ModelSchema model, Value v) {
            return allDicts(v) ? new Converted(createAll(model, v), true) : new Converted(v, false);
        }
    }

    // ---- tools

    /** {@code AirlineTools.book_reservation}. */
    static Value bookReservation(WorldCell c, Args a) {
        Converted flights = Converted.of(AirlineModel.FLIGHT_INFO, a.get("flights"));
        Converted passengers = Converted.of(AirlineModel.PASSENGER, a.get("passengers"));
        Converted paymentMethods = Converted.of(AirlineModel.PAYMENT, a.get("payment_methods"));
        Value userId = a.get("user_id"), cabin = a.get("cabin"), nonfreeBaggages = a.get("nonfree_baggages");
        PyDict user = getUser(c, userId);
        String reservationId = newReservationId(c);
        PyDict reservation = AirlineModel.RESERVATION.create(PyDict.builder()
                .put("reservation_id", reservationId)
                .put("user_id", userId)
                .put("origin", a.get("origin"))
                .put("destination", a.get("destination"))
                .put("flight_type", a.get("flight_type"))
                .put("cabin", cabin)
                .put("flights", PyList.empty())
                .put("passengers", passengers.value())
                .put("payment_history", paymentMethods.value())
                .put("created_at", NOW)
                .put("total_baggages", a.get("total_baggages"))
                .put("nonfree_baggages", nonfreeBaggages)
                .put("insurance", a.get("insurance"))
                .build());
        // Reservation validated the lists: from here on passengers and payment_methods are models.
        PyInt passengerCount = PyInt.of(PyBuiltins.len(passengers.value()));
        Value totalPrice = PyInt.of(0);
        List<String[]> flightDates = new ArrayList<>(); // all_flights_date_data, as (flight number, date)
        PyList reservationFlights = PyList.empty();
        for (Value info : PyBuiltins.iterate(flights.value())) {
            Value flightNumber = attr(info, flights.models(), "flight_number");
            PyDict flight = getFlight(c, flightNumber);
            Value date = attr(info, flights.models(), "date");
            PyDict instance = getFlightInstance(c, flightNumber, date);
            if (!isAvailable(instance)) {
                throw valueError("Flight " + PyRepr.str(flightNumber) + " not available on date " + PyRepr.str(date));
            }
            if (PyOps.lt(item(instance.get("available_seats").asDict(), cabin), passengerCount)) {
                throw valueError("Not enough seats on flight " + PyRepr.str(flightNumber));
            }
            Value price = item(instance.get("prices").asDict(), cabin);
            reservationFlights = reservationFlights.plus(AirlineModel.RESERVATION_FLIGHT.create(PyDict.of(
                    "origin",
                    flight.get("origin"),
                    "destination",
                    flight.get("destination"),
                    "flight_number",
                    flightNumber,
                    "date",
                    date,
                    "price",
                    price)));
            flightDates.add(new String[] {flightNumber.asStr(), date.asStr()});
            totalPrice = PyArith.iadd(totalPrice, PyArith.mul(price, passengerCount));
        }
        reservation = reservation.with("flights", reservationFlights);
        if (PyOps.eq(a.get("insurance"), new PyStr("yes"))) {
            totalPrice = PyArith.iadd(totalPrice, PyArith.mul(PyInt.of(30), passengerCount));
        }
        // The raw argument, not the reservation's validated int: 50 * "2" is a str, and int += str raises.
        totalPrice = PyArith.iadd(totalPrice, PyArith.mul(PyInt.of(50), nonfreeBaggages));

        List<Value> payments = PyBuiltins.iterate(paymentMethods.value());
        for (Value p : payments) {
            Value paymentId = p.asDict().get("payment_id"), amount = p.asDict().get("amount");
            PyDict methods = user.get("payment_methods").asDict();
            if (!PyBuiltins.contains(methods, paymentId))
                throw valueError("Payment method " + PyRepr.str(paymentId) + " not found");
            PyDict method = methods.get(paymentId.asStr()).asDict();
            if (PyBuiltins.inStrSet(method.get("source"), "gift_card", "certificate")
                    && PyOps.lt(method.get("amount"), amount)) {
                throw valueError("Not enough balance in payment method " + PyRepr.str(paymentId));
            }
        }
        Value totalPayment = PyInt.of(0);
        for (Value p : payments)
            totalPayment = PyArith.add(totalPayment, p.asDict().get("amount"));
        if (PyOps.ne(totalPayment, totalPrice)) {
            throw valueError("Payment amount does not add up, total price is " + PyRepr.str(totalPrice) + ", but paid "
                    + PyRepr.str(totalPayment));
        }
        // If checks pass, deduct payment: in place on the user, so a repeated certificate (popped
        // already, KeyError) leaves the deductions made before it.
        for (Value p : payments) {
            Value paymentId = p.asDict().get("payment_id"), amount = p.asDict().get("amount");
            user = table(c, "users").get(userId.asStr()).asDict();
            PyDict methods = user.get("payment_methods").asDict();
            PyDict method = item(methods, paymentId).asDict();
            if (method.get("source").equals(new PyStr("gift_card"))) {
                putPaymentMethod(
                        c, user, paymentId.asStr(), method.with("amount", PyArith.isub(method.get("amount"), amount)));
            } else if (method.get("source").equals(new PyStr("certificate"))) {
                put(c, "users", userId.asStr(), user.with("payment_methods", methods.without(paymentId.asStr())));
            }
        }
        for (String[] fd : flightDates) { // the same flight and date twice is decremented twice (one object)
            PyDict instance = table(c, "flights")
                    .get(fd[0])
                    .asDict()
                    .get("dates")
                    .asDict()
                    .get(fd[1])
                    .asDict();
            PyDict seats = instance.get("available_seats").asDict();
            seats = seats.with(cabin.asStr(), PyArith.isub(seats.get(cabin.asStr()), passengerCount));
            putFlightInstance(c, fd[0], fd[1], instance.with("available_seats", seats));
        }
        put(c, "reservations", reservationId, reservation);
        user = table(c, "users").get(userId.asStr()).asDict();
        put(
                c,
                "users",
                userId.asStr(),
                user.with("reservations", user.get("reservations").asList().plus(new PyStr(reservationId))));
        return reservation;
    }

    private static String newReservationId(WorldCell c) {
        PyDict reservations = table(c, "reservations");
        for (String id : NEW_RESERVATION_IDS) if (!reservations.containsKey(id)) return id;
        throw valueError("Too many reservations");
    }

    /**
     * {@code AirlineTools.cancel_reservation}: every payment refunded by a negated copy; seats are not
     * released (upstream: "Seats release not implemented for cancellation!!!").
     */
    static Value cancelReservation(WorldCell c, Args a) {
        Value reservationId = a.get("reservation_id");
        PyDict reservation = getReservation(c, reservationId);
        PyList history = reservation.get("payment_history").asList();
        List<Value> refunds = new ArrayList<>();
        for (Value p : history) {
            refunds.add(AirlineModel.PAYMENT.create(PyDict.of(
                    "payment_id",
                    p.asDict().get("payment_id"),
                    "amount",
                    PyArith.neg(p.asDict().get("amount")))));
        }
        for (Value r : refunds) history = history.plus(r);
        reservation = reservation.with("payment_history", history);
        put(c, "reservations", reservationId.asStr(), reservation);
        reservation = reservation.with("status", new PyStr("cancelled"));
        put(c, "reservations", reservationId.asStr(), reservation);
        return reservation;
    }

    /** {@code AirlineTools.list_all_airports}. */
    static final PyList AIRPORTS;

    static {
        String[][] airports = {
            {"SFO", "San Francisco"},
            {"JFK", "New York"},
            {"LAX", "Los Angeles"},
            {"ORD", "Chicago"},
            {"DFW", "Dallas"},
            {"DEN", "Denver"},
            {"SEA", "Seattle"},
            {"ATL", "Atlanta"},
            {"MIA", "Miami"},
            {"BOS", "Boston"},
            {"PHX", "Phoenix"},
            {"IAH", "Houston"},
            {"LAS", "Las Vegas"},
            {"MCO", "Orlando"},
            {"EWR", "Newark"},
            {"CLT", "Charlotte"},
            {"MSP", "Minneapolis"},
            {"DTW", "Detroit"},
            {"PHL", "Philadelphia"},
            {"LGA", "LaGuardia"}
        };
        List<Value> out = new ArrayList<>();
        for (String[] p : airports) out.add(AirlineModel.AIRPORT_CODE.create(PyDict.of("iata", p[0], "city", p[1])));
        AIRPORTS = PyList.of(out);
    }

    /**
     * {@code AirlineTools._search_direct_flight}: the conditions are one {@code and} chain, so
     * {@code date in flight.dates} (a TypeError for an unhashable date) runs only for flights whose
     * origin and destination matched; None for origin or destination matches every flight.
     */
    static List<PyDict> searchDirectFlight(WorldCell c, Value date, Value origin, Value destination, Value leaveAfter) {
        List<PyDict> results = new ArrayList<>();
        for (Value fv : table(c, "flights").asMap().values()) {
            PyDict flight = fv.asDict();
            if (!(origin.isNone() || PyOps.eq(flight.get("origin"), origin))) continue;
            if (!(destination.isNone() || PyOps.eq(flight.get("destination"), destination))) continue;
            PyDict dates = flight.get("dates").asDict();
            if (!PyBuiltins.contains(dates, date)) continue;
            PyDict instance = dates.get(date.asStr()).asDict();
            if (!PyOps.eq(instance.get("status"), new PyStr("available"))) continue;
            if (!(leaveAfter.isNone() || PyOps.ge(flight.get("scheduled_departure_time_est"), leaveAfter))) continue;
            results.add(AirlineModel.DIRECT_FLIGHT.create(PyDict.builder()
                    .put("flight_number", flight.get("flight_number"))
                    .put("origin", flight.get("origin"))
                    .put("destination", flight.get("destination"))
                    .put("status", "available")
                    .put("scheduled_departure_time_est", flight.get("scheduled_departure_time_est"))
                    .put("scheduled_arrival_time_est", flight.get("scheduled_arrival_time_est"))
                    .put("available_seats", instance.get("available_seats"))
                    .put("prices", instance.get("prices"))
                    .build()));
        }
        return results;
    }

    /**
     * {@code AirlineTools.search_onestop_flight}. Quirk kept: a first leg arriving "+1" looks for the
     * second leg on {@code f"2024-05-{int(date[-2:]) + 1}"}, unpadded and always in May
     * ("2024-05-2" after "2024-05-01", which no flight has).
     */
    static Value searchOnestopFlight(WorldCell c, Args a) {
        Value origin = a.get("origin"), destination = a.get("destination"), date = a.get("date");
        List<Value> results = new ArrayList<>();
        for (PyDict first : searchDirectFlight(c, date, origin, PyNone.NONE, PyNone.NONE)) {
            PyDict result1 = first.with("date", date);
            Value arrival = result1.get("scheduled_arrival_time_est");
            Value date2 =
                    arrival.asStr().contains("+1") ? new PyStr("2024-05-" + (pyInt(lastTwo(date.asStr())) + 1)) : date;
            for (PyDict second : searchDirectFlight(c, date2, result1.get("destination"), destination, arrival)) {
                results.add(PyList.of(result1, second.with("date", date2)));
            }
        }
        return PyList.of(results);
    }

    /** {@code s[-2:]}. */
    private static String lastTwo(String s) {
        int n = s.codePointCount(0, s.length());
        return n <= 2 ? s : s.substring(s.offsetByCodePoints(0, n - 2));
    }

    /** {@code int(s)} for the day digits of a date key. */
    private static long pyInt(String s) {
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]+(_[0-9]+)*")) {
            throw valueError("invalid literal for int() with base 10: " + PyRepr.reprStr(s));
        }
        return Long.parseLong(t.replace("_", ""));
    }

    /** {@code AirlineTools.send_certificate}: the first of three fixed ids the user does not hold yet. */
    static Value sendCertificate(WorldCell c, Args a) {
        Value userId = a.get("user_id"), amount = a.get("amount");
        PyDict user = getUser(c, userId);
        for (String paymentId : NEW_CERTIFICATE_IDS) {
            if (!user.get("payment_methods").asDict().containsKey(paymentId)) {
                PyDict certificate = AirlineModel.CERTIFICATE.create(
                        PyDict.of("id", paymentId, "amount", amount, "source", "certificate"));
                putPaymentMethod(c, user, paymentId, certificate);
                return new PyStr("Certificate " + paymentId + " added to user " + PyRepr.str(userId) + " with amount "
                        + PyRepr.str(amount) + ".");
            }
        }
        throw valueError("Too many certificates");
    }

    /**
     * {@code AirlineTools._payment_for_update}: the gift card is charged in place before the
     * {@code Payment} is built, so a total that is no valid int (50 * 1.01 bags) keeps the charge.
     */
    private static Value paymentForUpdate(WorldCell c, PyDict user, Value paymentId, Value totalPrice) {
        PyDict methods = user.get("payment_methods").asDict();
        if (!PyBuiltins.contains(methods, paymentId)) throw valueError("Payment method not found");
        PyDict method = methods.get(paymentId.asStr()).asDict();
        Value source = method.get("source");
        if (PyOps.eq(source, new PyStr("certificate")))
            throw valueError("Certificate cannot be used to update reservation");
        boolean giftCard = PyOps.eq(source, new PyStr("gift_card"));
        if (giftCard && PyOps.lt(method.get("amount"), totalPrice)) throw valueError("Gift card balance is not enough");
        if (giftCard)
            putPaymentMethod(
                    c, user, paymentId.asStr(), method.with("amount", PyArith.isub(method.get("amount"), totalPrice)));
        if (PyOps.ne(totalPrice, PyInt.of(0))) {
            return AirlineModel.PAYMENT.create(PyDict.of("payment_id", paymentId, "amount", totalPrice));
        }
        return null;
    }

    /** {@code AirlineTools.update_reservation_baggages}: both counts stored as given ("5", 1.5, ...). */
    static Value updateReservationBaggages(WorldCell c, Args a) {
        Value reservationId = a.get("reservation_id"), nonfree = a.get("nonfree_baggages");
        PyDict reservation = getReservation(c, reservationId);
        PyDict user = getUser(c, reservation.get("user_id"));
        Value totalPrice = PyArith.mul(
                PyInt.of(50), PyBuiltins.max(PyInt.of(0), PyArith.sub(nonfree, reservation.get("nonfree_baggages"))));
        Value payment = paymentForUpdate(c, user, a.get("payment_id"), totalPrice);
        String rid = reservationId.asStr();
        if (payment != null) {
            reservation = reservation.with(
                    "payment_history",
                    reservation.get("payment_history").asList().plus(payment));
            put(c, "reservations", rid, reservation);
        }
        reservation = reservation.with("total_baggages", a.get("total_baggages"));
        put(c, "reservations", rid, reservation);
        reservation = reservation.with("nonfree_baggages", nonfree);
        put(c, "reservations", rid, reservation);
        return reservation;
    }

    /**
     * {@code AirlineTools.update_reservation_flights}: a flight kept from the reservation keeps its
     * price; seats are not taken on the new flights ("assume it takes time to be updated"); the cabin
     * is stored as given, which with no new flight is never checked.
     */
    static Value updateReservationFlights(WorldCell c, Args a) {
        Converted flights = Converted.of(AirlineModel.FLIGHT_INFO, a.get("flights"));
        Value reservationId = a.get("reservation_id"), cabin = a.get("cabin");
        PyDict reservation = getReservation(c, reservationId);
        PyDict user = getUser(c, reservation.get("user_id"));
        Value passengerCount = PyInt.of(PyBuiltins.len(reservation.get("passengers")));
        Value totalPrice = PyInt.of(0);
        List<Value> reservationFlights = new ArrayList<>();
        PyList current = reservation.get("flights").asList();
        for (Value info : PyBuiltins.iterate(flights.value())) {
            PyDict matching = null;
            for (Value rv : current) { // next(rf for rf in reservation.flights if ... and cabin == reservation.cabin)
                PyDict rf = rv.asDict();
                if (PyOps.eq(rf.get("flight_number"), attr(info, flights.models(), "flight_number"))
                        && PyOps.eq(rf.get("date"), attr(info, flights.models(), "date"))
                        && PyOps.eq(cabin, reservation.get("cabin"))) {
                    matching = rf;
                    break;
                }
            }
            if (matching != null) {
                totalPrice = PyArith.iadd(totalPrice, PyArith.mul(matching.get("price"), passengerCount));
                reservationFlights.add(matching);
                continue;
            }
            Value flightNumber = attr(info, flights.models(), "flight_number");
            PyDict flight = getFlight(c, flightNumber);
            Value date = attr(info, flights.models(), "date");
            PyDict instance = getFlightInstance(c, flightNumber, date);
            if (!isAvailable(instance)) {
                throw valueError("Flight " + PyRepr.str(flightNumber) + " not available on date " + PyRepr.str(date));
            }
            if (PyOps.lt(item(instance.get("available_seats").asDict(), cabin), passengerCount)) {
                throw valueError("Not enough seats on flight " + PyRepr.str(flightNumber));
            }
            PyDict reservationFlight = AirlineModel.RESERVATION_FLIGHT.create(PyDict.of(
                    "flight_number",
                    flightNumber,
                    "date",
                    date,
                    "price",
                    item(instance.get("prices").asDict(), cabin),
                    "origin",
                    flight.get("origin"),
                    "destination",
                    flight.get("destination")));
            totalPrice = PyArith.iadd(totalPrice, PyArith.mul(reservationFlight.get("price"), passengerCount));
            reservationFlights.add(reservationFlight);
        }
        Value paid = PyInt.of(0);
        for (Value rf : current) paid = PyArith.add(paid, rf.asDict().get("price"));
        totalPrice = PyArith.isub(totalPrice, PyArith.mul(paid, passengerCount));
        Value payment = paymentForUpdate(c, user, a.get("payment_id"), totalPrice);
        String rid = reservationId.asStr();
        if (payment != null) {
            reservation = reservation.with(
                    "payment_history",
                    reservation.get("payment_history").asList().plus(payment));
            put(c, "reservations", rid, reservation);
        }
        reservation = reservation.with("flights", PyList.of(reservationFlights)).with("cabin", cabin);
        put(c, "reservations", rid, reservation);
        return reservation;
    }

    /** {@code AirlineTools.update_reservation_passengers}: a non-dict list is stored as given when its length matches. */
    static Value updateReservationPassengers(WorldCell c, Args a) {
        Converted passengers = Converted.of(AirlineModel.PASSENGER, a.get("passengers"));
        Value reservationId = a.get("reservation_id");
        PyDict reservation = getReservation(c, reservationId);
        if (PyBuiltins.len(passengers.value()) != PyBuiltins.len(reservation.get("passengers"))) {
            throw valueError("Number of passengers does not match");
        }
        reservation = reservation.with("passengers", passengers.value());
        put(c, "reservations", reservationId.asStr(), reservation);
        return reservation;
    }
}
