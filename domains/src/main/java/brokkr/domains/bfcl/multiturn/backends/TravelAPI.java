package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.LongContextData;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.python.ArrayVector;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
import brokkr.python.PyRound;
import brokkr.python.PyTuple;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Upstream's {@code TravelAPI} (func_source_code/travel_booking.py) as an immutable value: the public
 * attributes in {@code vars()} order and the instance's {@code random.Random}.
 *
 * <p>Long-context tasks add {@code long_context.CREDIT_CARD_EXTENSION}'s card dicts to
 * {@code credit_card_list} <em>by reference</em> ({@code _add_credit_cards}): a balance change on such a card
 * is seen by every TravelAPI instance of the process. Such a card is held here as a {@link CardRef} and
 * lives in the process globals (cell {@value #CARDS_CELL}); {@link #state} and every read resolve it.
 * ({@code _flight_cost_lookup}, the private cost cache {@code book_flight} reads back, always holds the
 * key {@code book_flight} asks for right after {@code get_flight_cost} wrote it, so it is not kept.)
 */
public record TravelAPI(OrderedPMap<String, Object> attrs, PyRandom random) implements Backend {

    static final String CARDS_CELL = "TravelAPI.CREDIT_CARD_EXTENSION";

    /** A card of {@code CREDIT_CARD_EXTENSION}, shared by reference through the process globals. */
    record CardRef(Object id) {}

    /** "Today" as the corpora were recorded ({@code verify_traveler_information} reads {@code datetime.today()}). */
    static final LocalDate TODAY = LocalDate.of(2026, 3, 23);

    @Override
    public Map<String, Object> state(Globals globals) {
        return attrs.plus("credit_card_list", cards(globals));
    }

    Object get(String attr) {
        return attrs.get(attr);
    }

    TravelAPI with(String attr, Object value) {
        return new TravelAPI(attrs.plus(attr, value), random);
    }

    TravelAPI withRandom(PyRandom r) {
        return new TravelAPI(attrs, r);
    }

    boolean longContext() {
        return PyObjects.truthy(get("long_context"));
    }

    Map<?, ?> rawCards() {
        return (Map<?, ?>) get("credit_card_list");
    }

    Map<?, ?> bookings() {
        return (Map<?, ?>) get("booking_record");
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> extensionCards(Globals g) {
        return (Map<Object, Object>)
                g.get(CARDS_CELL, () -> LongContextData.get().value("CREDIT_CARD_EXTENSION"));
    }

    /** {@code self.credit_card_list} with every shared card resolved. */
    OrderedPMap<Object, Object> cards(Globals g) {
        OrderedPMap<Object, Object> out = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : rawCards().entrySet()) out = out.plus(e.getKey(), resolve(e.getValue(), g));
        return out;
    }

    private static Object resolve(Object card, Globals g) {
        return card instanceof CardRef ref ? extensionCards(g).get(ref.id()) : card;
    }

    /** {@code self.credit_card_list[card_id]}. */
    Object card(Object cardId, Globals g) {
        return resolve(PyObjectOps.getItem(rawCards(), cardId), g);
    }

    /** {@code self.credit_card_list[card_id]["balance"] = balance}, through the globals for a shared card. */
    Outcome withBalance(Object cardId, Object balance, Globals g, Object result) {
        Object key = PyObjects.findKey(rawCards(), cardId);
        Object raw = rawCards().get(key);
        if (raw instanceof CardRef ref) {
            Map<Object, Object> ext = extensionCards(g);
            Map<?, ?> card = (Map<?, ?>) ext.get(ref.id());
            return new Outcome(
                    this,
                    g.with(CARDS_CELL, PyObjects.setItem(ext, ref.id(), PyObjects.setItem(card, "balance", balance))),
                    result);
        }
        Map<?, ?> card = (Map<?, ?>) raw;
        return new Outcome(
                with(
                        "credit_card_list",
                        PyObjects.setItem(rawCards(), key, PyObjects.setItem(card, "balance", balance))),
                g,
                result);
    }

    private static Outcome ok(TravelAPI t, Globals g, Object result) {
        return new Outcome(t, g, result);
    }

    private static OrderedPMap<Object, Object> error(String text) {
        return PyObjects.dict("error", text);
    }

    static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> sc = (Map<?, ?>) config;
        PyRandom random =
                Seeds.random(sc.containsKey("random_seed") ? sc.get("random_seed") : PyObjects.integer(141053));
        OrderedPMap<String, Object> a = OrderedPMap.empty();
        a = a.plus("credit_card_list", or(sc, "credit_card_list", PyObjects.dict()));
        a = a.plus("booking_record", or(sc, "booking_record", PyObjects.dict()));
        for (String k : List.of(
                "access_token",
                "token_type",
                "token_expires_in",
                "token_scope",
                "user_first_name",
                "user_last_name",
                "budget_limit")) {
            a = a.plus(k, or(sc, k, PyNone.NONE));
        }
        a = a.plus("long_context", longContext);
        TravelAPI t = new TravelAPI(a, random);
        if (longContext) {
            // _add_credit_cards / _add_booking_records: existing ids are not overwritten.
            Map<?, ?> cards = t.rawCards();
            for (Object id : ((Map<?, ?>) LongContextData.get().value("CREDIT_CARD_EXTENSION")).keySet()) {
                if (!PyObjects.containsKey(cards, id)) cards = PyObjects.setItem(cards, id, new CardRef(id));
            }
            Map<?, ?> bookings = t.bookings();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) LongContextData.get().value("BOOKING_RECORD_EXTENSION")).entrySet()) {
                if (!PyObjects.containsKey(bookings, e.getKey()))
                    bookings = PyObjects.setItem(bookings, e.getKey(), e.getValue());
            }
            t = t.with("credit_card_list", cards).with("booking_record", bookings);
        }
        return new Outcome(t, g, PyNone.NONE);
    }

    private static Object or(Map<?, ?> sc, String key, Object dflt) {
        return sc.containsKey(key) ? sc.get(key) : dflt;
    }

    private boolean tokenExpired() {
        return PyObjects.eq(get("token_expires_in"), BigInteger.ZERO);
    }

    private boolean badToken(Object accessToken) {
        return !PyObjects.eq(accessToken, get("access_token"));
    }

    // ---- methods ----

    static Outcome authenticateTravel(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object grantType = a[3];
        PyRandom.Draw<Long> token = t.random.randint(100000, 999999);
        String accessToken = String.valueOf(token.value());
        t = t.withRandom(token.next())
                .with("token_expires_in", PyObjects.integer(2))
                .with("access_token", accessToken)
                .with("token_type", "Bearer")
                .with("token_scope", grantType)
                .with("user_first_name", a[4])
                .with("user_last_name", a[5]);
        return ok(
                t,
                g,
                PyObjects.dict(
                        "expires_in",
                        PyObjects.integer(2),
                        "access_token",
                        accessToken,
                        "token_type",
                        "Bearer",
                        "scope",
                        grantType));
    }

    static Outcome travelGetLoginStatus(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object expires = t.get("token_expires_in");
        boolean notLoggedIn = expires == PyNone.NONE || PyObjects.eq(expires, BigInteger.ZERO);
        return ok(t, g, PyObjects.dict("status", !notLoggedIn));
    }

    static Outcome getBudgetFiscalYear(Backend self, Object[] a, Globals g) {
        return ok((TravelAPI) self, g, PyObjects.dict("budget_fiscal_year", "2018"));
    }

    static Outcome registerCreditCard(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        if (t.get("token_expires_in") == PyNone.NONE) return ok(t, g, error("Token not initialized"));
        if (t.tokenExpired()) return ok(t, g, error("Token expired"));
        if (t.badToken(a[0])) return ok(t, g, error("Invalid access token"));
        Object cardNumber = a[1];
        if (PyObjects.containsKey(t.rawCards(), cardNumber)) return ok(t, g, error("Card already registered"));
        PyRandom.Draw<Long> id = t.random.randint(100000000000L, 999999999999L);
        PyRandom.Draw<Long> balance = id.next().randint(10000, 99999);
        String cardId = String.valueOf(id.value());
        OrderedPMap<Object, Object> card = PyObjects.dict(
                "card_number",
                cardNumber,
                "expiration_date",
                a[2],
                "cardholder_name",
                a[3],
                "card_verification_number",
                a[4],
                "balance",
                PyObjects.integer(balance.value()));
        t = t.withRandom(balance.next()).with("credit_card_list", PyObjects.setItem(t.rawCards(), cardId, card));
        return ok(t, g, PyObjects.dict("card_id", cardId));
    }

    /** {@code get_flight_cost}'s {@code base_costs}: "FROM TO COST", in upstream's order. */
    private static final String[] ROUTES = {
        "SFO LAX 200", "SFO JFK 500", "SFO ORD 400", "SFO BOS 450", "SFO RMS 300", "SFO SBK 350", "SFO MPC 370",
        "SFO SVP 320", "SFO SHD 330", "SFO SSV 340", "SFO OKD 360", "SFO WLB 310", "SFO CRH 380", "SFO ATV 390",
        "SFO PHV 420", "SFO GFD 430", "SFO CIA 700", "LAX SFO 100", "LAX JFK 600", "LAX ORD 500", "LAX BOS 550",
        "LAX RMS 310", "LAX SBK 320", "LAX MPC 330", "LAX SVP 340", "LAX SHD 350", "LAX SSV 360", "LAX OKD 370",
        "LAX WLB 380", "LAX CRH 390", "LAX ATV 400", "LAX PHV 410", "LAX GFD 420", "LAX HND 430", "JFK ORD 300",
        "JFK BOS 250", "JFK RMS 450", "JFK SBK 460", "JFK MPC 470", "JFK SVP 480", "JFK SHD 490", "JFK SSV 500",
        "JFK OKD 510", "JFK WLB 520", "JFK CRH 530", "JFK ATV 540", "JFK PHV 550", "JFK GFD 560", "JFK LAX 570",
        "JFK HND 800", "JFK PVG 950", "JFK PEK 1000", "ORD LAX 180", "ORD BOS 200", "ORD RMS 350", "ORD SBK 360",
        "ORD MPC 370", "ORD SVP 380", "ORD SHD 390", "ORD SSV 400", "ORD OKD 410", "ORD WLB 420", "ORD CRH 430",
        "ORD ATV 440", "ORD PHV 450", "ORD GFD 460", "BOS RMS 400", "BOS SBK 410", "BOS MPC 420", "BOS SVP 430",
        "BOS SHD 440", "BOS SSV 450", "BOS OKD 460", "BOS WLB 470", "BOS CRH 480", "BOS ATV 490", "BOS PHV 500",
        "BOS GFD 510", "RMS BOS 200", "RMS JFK 210", "RMS SBK 220", "RMS MPC 230", "RMS SVP 240", "RMS SHD 250",
        "RMS SSV 260", "RMS OKD 270", "RMS WLB 280", "RMS CRH 290", "RMS ATV 300", "RMS PHV 310", "RMS GFD 320",
        "RMS LAX 330", "SBK MPC 200", "SBK SVP 210", "SBK SHD 220", "SBK SSV 230", "SBK OKD 240", "SBK WLB 250",
        "SBK CRH 260", "SBK ATV 270", "SBK PHV 280", "SBK GFD 290", "MPC SVP 210", "MPC SHD 220", "MPC SSV 230",
        "MPC OKD 240", "MPC WLB 250", "MPC CRH 260", "MPC ATV 270", "MPC PHV 280", "MPC GFD 290", "SVP SHD 230",
        "SVP SSV 240", "SVP OKD 250", "SVP WLB 260", "SVP CRH 270", "SVP ATV 280", "SVP PHV 290", "SVP GFD 300",
        "SHD SSV 220", "SHD OKD 230", "SHD WLB 240", "SHD CRH 250", "SHD ATV 260", "SHD PHV 270", "SHD GFD 280",
        "SSV OKD 240", "SSV WLB 250", "SSV CRH 260", "SSV ATV 270", "SSV PHV 280", "SSV GFD 290", "OKD WLB 230",
        "OKD CRH 240", "OKD ATV 250", "OKD PHV 260", "OKD GFD 270", "WLB CRH 250", "WLB ATV 260", "WLB PHV 270",
        "WLB GFD 280", "CRH ATV 240", "CRH PHV 250", "CRH GFD 260", "CRH SFO 270", "CRH RMS 280", "CRH HKG 290",
        "CRH JFK 300", "ATV PHV 230", "ATV GFD 240", "PHV GFD 220", "LHR CDG 100", "OKD LAX 220"
    };

    /** {@code base_costs}, in upstream's order (long-context tasks return the cost of every route in it). */
    private static final Map<PyTuple, BigInteger> BASE_COSTS = baseCosts();

    private static Map<PyTuple, BigInteger> baseCosts() {
        Map<PyTuple, BigInteger> m = new LinkedHashMap<>();
        for (String r : ROUTES) {
            String[] p = r.split(" ");
            m.put(PyTuple.of(p[0], p[1]), new BigInteger(p[2]));
        }
        return m;
    }

    /** {@code get_flight_cost}'s computation; its ValueErrors as upstream raises them. */
    private static List<Object> flightCosts(TravelAPI t, Object from, Object to, Object date, Object travelClass) {
        PyTuple pair = PyTuple.of(from, to);
        PyObjects.requireHashable(pair);
        BigInteger base = from instanceof String && to instanceof String ? BASE_COSTS.get(pair) : null;
        if (base == null) throw PyException.valueError("No available route for the given airports.");
        long factor;
        if (PyObjects.eq(travelClass, "economy")) factor = 1;
        else if (PyObjects.eq(travelClass, "business")) factor = 2;
        else if (PyObjects.eq(travelClass, "first")) factor = 5;
        else throw PyException.valueError("Invalid travel class. Options are: economy, business, first.");
        BigInteger digitSum = BigInteger.ZERO;
        for (Object ch : PyObjectOps.iterate(date)) {
            if (!(ch instanceof String c)) throw PyDyn.noAttribute(ch, "isdigit");
            if (isDigit(c)) digitSum = digitSum.add(PyBuiltins.intOfObject(c, BfclData.PYTHON));
        }
        long multiplier = digitSum.testBit(0) ? 1 : 2;
        List<Object> costs = new ArrayList<>();
        if (t.longContext()) {
            for (BigInteger b : BASE_COSTS.values())
                costs.add(
                        PyBuiltins.floatOfObject(b.multiply(BigInteger.valueOf(factor * multiplier)), BfclData.PYTHON));
        } else {
            costs.add(
                    PyBuiltins.floatOfObject(base.multiply(BigInteger.valueOf(factor * multiplier)), BfclData.PYTHON));
        }
        return costs;
    }

    /** {@code str.isdigit()}: every character a digit (Unicode decimal digits, superscripts and the like). */
    private static boolean isDigit(String s) {
        if (s.isEmpty()) return false;
        return s.codePoints()
                .allMatch(cp -> Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER
                        || (Character.getType(cp) == Character.OTHER_NUMBER
                                && Character.digit(cp, 10) < 0
                                && Character.getNumericValue(cp) >= 0
                                && Character.getNumericValue(cp) <= 9
                                && isDigitOther(cp)));
    }

    /** OTHER_NUMBER code points whose Numeric_Type is Digit (superscripts, subscripts, circled digits, ...). */
    private static boolean isDigitOther(int cp) {
        return (cp >= 0x00B2 && cp <= 0x00B3)
                || cp == 0x00B9
                || (cp >= 0x2070 && cp <= 0x2079)
                || (cp >= 0x2080 && cp <= 0x2089)
                || (cp >= 0x2460 && cp <= 0x2468)
                || (cp >= 0x2474 && cp <= 0x247C)
                || (cp >= 0x2488 && cp <= 0x2490)
                || cp == 0x24EA
                || (cp >= 0x24F5 && cp <= 0x24FD)
                || cp == 0x24FF
                || (cp >= 0x2776 && cp <= 0x277E)
                || (cp >= 0x2780 && cp <= 0x2788)
                || (cp >= 0x278A && cp <= 0x2792);
    }

    static Outcome getFlightCost(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        return ok(t, g, PyObjects.dict("travel_cost_list", ArrayVector.from(flightCosts(t, a[0], a[1], a[2], a[3]))));
    }

    static Outcome getCreditCardBalance(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        if (t.tokenExpired()) return ok(t, g, error("Token expired"));
        if (t.badToken(a[0])) return ok(t, g, error("Invalid access token"));
        Object cardId = a[1];
        if (!PyObjects.containsKey(t.rawCards(), cardId)) {
            return ok(
                    t,
                    g,
                    error("Card not registered. Here are a list of card_id's: "
                            + PyObjects.repr(ArrayVector.from(
                                    new ArrayList<>(t.rawCards().keySet())))));
        }
        return ok(t, g, PyObjects.dict("card_balance", PyObjectOps.getItem(t.card(cardId, g), "balance")));
    }

    private static final List<Object> AIRPORTS = List.of(
            "RMS", "SBK", "MPC", "SVP", "SHD", "CDG", "LHR", "SSV", "OKD", "WLB", "PEK", "HND", "HKG", "CIA", "CRH",
            "ATV", "PHV", "GFD", "SFO", "LAX", "JFK", "ORD", "BOS");

    static Outcome bookFlight(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object cardId = a[1], date = a[2], from = a[3], to = a[4], travelClass = a[5];
        if (t.tokenExpired()) return ok(t, g, PyObjects.dict("booking_status", false, "error", "Token expired"));
        if (t.badToken(a[0])) return ok(t, g, PyObjects.dict("booking_status", false, "error", "Invalid access token"));
        if (!PyObjects.containsKey(t.rawCards(), cardId))
            return ok(t, g, PyObjects.dict("booking_status", false, "error", "Card not registered"));
        Object card = t.card(cardId, g);
        if (!contains(card, "balance"))
            return ok(t, g, PyObjects.dict("booking_status", false, "error", "Balance not found"));
        if (!PyObjectOps.in(from, AIRPORTS)) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "booking_status",
                            false,
                            "error",
                            "Invalid departure airport code: " + PyObjects.str(from)));
        }
        if (!PyObjectOps.in(to, AIRPORTS)) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "booking_status",
                            false,
                            "error",
                            "Invalid destination airport code: " + PyObjects.str(to)));
        }
        try {
            PyStrptime.parse(date, "%Y-%m-%d");
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError")) throw e;
            return ok(t, g, PyObjects.dict("booking_status", false, "error", "Invalid date format. Use YYYY-MM-DD."));
        }
        // travel_class not in valid_classes (a set): Objects/setobject.c set_contains looks a set up as a frozenset
        if (!(travelClass instanceof brokkr.python.PySet)) PyObjects.requireHashable(travelClass);
        if (!(PyObjects.eq(travelClass, "economy")
                        || PyObjects.eq(travelClass, "business")
                        || PyObjects.eq(travelClass, "first"))
                || !(travelClass instanceof String)) {
            // The set's repr in str-hash order, i.e. as CPython prints it with PYTHONHASHSEED=0 (the corpora's
            // setting).
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "booking_status",
                            false,
                            "error",
                            "Invalid travel class. Must be one of {'first', 'business', 'economy'}"));
        }
        Object travelCost;
        try {
            List<Object> costs = flightCosts(t, from, to, date, travelClass);
            // The cost cache holds the asked route (long context: every route; same factors).
            travelCost = t.longContext() ? costs.get(indexOfRoute(from, to)) : costs.get(0);
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError")) throw e;
            return ok(t, g, PyObjects.dict("booking_status", false, "error", e.str()));
        }
        Object balance = PyObjectOps.getItem(card, "balance");
        if (PyObjectOps.lt(balance, travelCost))
            return ok(t, g, PyObjects.dict("booking_status", false, "error", "Insufficient funds"));
        Object budget = t.get("budget_limit");
        if (budget != PyNone.NONE && PyObjectOps.lt(PyObjectOps.getItem(card, "balance"), budget)) {
            return ok(t, g, PyObjects.dict("booking_status", false, "error", "Balance is less than budget limit"));
        }
        Outcome paid = t.withBalance(cardId, PyObjectOps.sub(balance, travelCost, "-="), g, PyNone.NONE);
        t = (TravelAPI) paid.self();
        g = paid.globals();
        PyRandom.Draw<Long> booking = t.random.randint(1000000, 9999999);
        PyRandom.Draw<Long> transaction = booking.next().randint(10000000, 99999999);
        String bookingId = String.valueOf(booking.value()), transactionId = String.valueOf(transaction.value());
        OrderedPMap<Object, Object> record = PyObjects.dict(
                "card_id",
                cardId,
                "travel_date",
                date,
                "travel_from",
                from,
                "travel_to",
                to,
                "travel_class",
                travelClass,
                "travel_cost",
                travelCost,
                "transaction_id",
                transactionId);
        t = t.withRandom(transaction.next()).with("booking_record", PyObjects.setItem(t.bookings(), bookingId, record));
        Object history = t.longContext() ? t.get("booking_record") : PyObjects.dict();
        return ok(
                t,
                g,
                PyObjects.dict(
                        "booking_id",
                        bookingId,
                        "transaction_id",
                        transactionId,
                        "booking_status",
                        true,
                        "booking_history",
                        history));
    }

    private static int indexOfRoute(Object from, Object to) {
        int i = 0;
        for (PyTuple k : BASE_COSTS.keySet()) {
            if (k.get(0).equals(from) && k.get(1).equals(to)) return i;
            i++;
        }
        throw new IllegalStateException("route checked before");
    }

    /** {@code key in obj} for a dict-like card. */
    private static boolean contains(Object obj, Object key) {
        if (obj instanceof Map<?, ?> m) return PyObjects.containsKey(m, key);
        if (obj instanceof List<?> l) return PyObjectOps.in(key, l);
        if (obj instanceof String s && key instanceof String k) return s.contains(k);
        throw PyException.typeError("argument of type '" + PyObjects.typeName(obj) + "' is not iterable");
    }

    static Outcome retrieveInvoice(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object bookingId = a[1];
        if (t.tokenExpired()) return ok(t, g, error("Token expired"));
        if (t.badToken(a[0])) return ok(t, g, error("Invalid access token"));
        if (!PyObjects.containsKey(t.bookings(), bookingId)) return ok(t, g, error("Booking not found"));
        Object b = PyObjectOps.getItem(t.bookings(), bookingId);
        OrderedPMap<Object, Object> invoice = PyObjects.dict("booking_id", bookingId);
        for (String k :
                List.of("travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id")) {
            invoice = invoice.plus(k, PyObjectOps.getItem(b, k));
        }
        return ok(t, g, PyObjects.dict("invoice", invoice));
    }

    static Outcome getBookingHistory(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        if (t.tokenExpired()) return ok(t, g, error("Token expired"));
        if (t.badToken(a[0])) return ok(t, g, error("Invalid access token"));
        return ok(t, g, PyObjects.dict("booking_history", t.get("booking_record")));
    }

    static Outcome listAllAirports(Backend self, Object[] a, Globals g) {
        return ok((TravelAPI) self, g, ArrayVector.from(AIRPORTS));
    }

    static Outcome cancelBooking(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object bookingId = a[1];
        if (t.tokenExpired()) return ok(t, g, PyObjects.dict("cancel_status", false, "error", "Token expired"));
        if (t.badToken(a[0])) return ok(t, g, PyObjects.dict("cancel_status", false, "error", "Invalid access token"));
        if (!PyObjects.containsKey(t.bookings(), bookingId))
            return ok(t, g, PyObjects.dict("cancel_status", false, "error", "Booking not found"));
        Object b = PyObjectOps.getItem(t.bookings(), bookingId);
        Object cardId = PyObjectOps.getItem(b, "card_id");
        Object cost = PyObjectOps.getItem(b, "travel_cost");
        Object balance = PyObjectOps.add(PyObjectOps.getItem(t.card(cardId, g), "balance"), cost, "+=");
        Outcome o = t.withBalance(cardId, balance, g, PyNone.NONE);
        TravelAPI after = (TravelAPI) o.self();
        OrderedPMap<Object, Object> bookings = PyDyn.ordered(after.bookings());
        bookings = bookings.minus(PyObjects.findKey(bookings, bookingId));
        return ok(after.with("booking_record", bookings), o.globals(), PyObjects.dict("cancel_status", true));
    }

    private static final String[][] RATES = {
        {"USD", "RMB", "7"},
        {"USD", "EUR", "0.8"},
        {"USD", "JPY", "110"},
        {"USD", "GBP", "0.7"},
        {"USD", "CAD", "1.3"},
        {"USD", "AUD", "1.4"},
        {"USD", "INR", "70"},
        {"USD", "RUB", "60"},
        {"USD", "BRL", "3.8"},
        {"USD", "MXN", "20"}
    };

    static Outcome computeExchangeRate(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object base = a[0], target = a[1], value = a[2];
        for (String[] r : RATES) {
            Object rate = r[2].contains(".") ? (Object) Double.parseDouble(r[2]) : new BigInteger(r[2]);
            if (PyObjects.eq(base, r[0]) && PyObjects.eq(target, r[1])) {
                return ok(
                        t,
                        g,
                        PyObjects.dict(
                                "exchanged_value",
                                PyBuiltins.floatOfObject(PyObjectOps.mul(value, rate, "*"), BfclData.PYTHON)));
            } else if (PyObjects.eq(base, r[1]) && PyObjects.eq(target, r[0])) {
                return ok(t, g, PyObjects.dict("exchanged_value", round2(PyObjectOps.truediv(value, rate))));
            }
        }
        throw PyException.valueError("No available exchange rate for the given currencies.");
    }

    /** {@code round(x, 2)} for the float a true division gives. */
    private static Object round2(Object x) {
        return ((PyFloat) PyRound.round(new PyFloat((Double) x), new PyInt(BigInteger.TWO))).value();
    }

    static Outcome verifyTravelerInformation(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object first = a[0], last = a[1], dob = a[2], passport = a[3];
        if (!PyObjects.eq(t.get("user_first_name"), first) || !PyObjects.eq(t.get("user_last_name"), last)) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "verification_status",
                            false,
                            "verification_failure",
                            "Cannot book flight information for another user." + "Expected "
                                    + PyObjects.str(t.get("user_first_name")) + " "
                                    + PyObjects.str(t.get("user_last_name")) + ", got " + PyObjects.str(first) + " "
                                    + PyObjects.str(last)));
        }
        int age;
        try {
            LocalDateTime birth = PyStrptime.parse(dob, "%Y-%m-%d");
            boolean beforeBirthday = TODAY.getMonthValue() < birth.getMonthValue()
                    || (TODAY.getMonthValue() == birth.getMonthValue()
                            && TODAY.getDayOfMonth() < birth.getDayOfMonth());
            age = TODAY.getYear() - birth.getYear() - (beforeBirthday ? 1 : 0);
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError")) throw e;
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "verification_status",
                            false,
                            "verification_failure",
                            "Invalid date of birth format. Please use YYYY-MM-DD."));
        }
        if (age < 18) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "verification_status",
                            false,
                            "verification_failure",
                            "Traveler must be at least 18 years old."));
        }
        if (!(passport instanceof String p)) throw PyDyn.noAttribute(passport, "startswith");
        if (!p.startsWith("US")) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "verification_status",
                            false,
                            "verification_failure",
                            "Passport must be issued by the United States."));
        }
        return ok(t, g, PyObjects.dict("verification_status", true));
    }

    static Outcome setBudgetLimit(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        if (t.tokenExpired()) return ok(t, g, error("Token expired"));
        if (t.badToken(a[0])) return ok(t, g, error("Invalid access token"));
        double limit = PyBuiltins.floatOfObject(a[1], BfclData.PYTHON);
        return ok(t.with("budget_limit", limit), g, PyObjects.dict("budget_limit", limit));
    }

    private static final OrderedPMap<Object, Object> AIRPORT_MAP = PyObjects.dict(
            "Rivermist",
            "RMS",
            "Stonebrook",
            "SBK",
            "Maplecrest",
            "MPC",
            "Silverpine",
            "SVP",
            "Shadowridge",
            "SHD",
            "London",
            "LHR",
            "Paris",
            "CDG",
            "Sunset Valley",
            "SSV",
            "Oakendale",
            "OKD",
            "Willowbend",
            "WLB",
            "Crescent Hollow",
            "CRH",
            "Autumnville",
            "ATV",
            "Pinehaven",
            "PHV",
            "Greenfield",
            "GFD",
            "San Francisco",
            "SFO",
            "Los Angeles",
            "LAX",
            "New York",
            "JFK",
            "Chicago",
            "ORD",
            "Boston",
            "BOS",
            "Beijing",
            "PEK",
            "Hong Kong",
            "HKG",
            "Rome",
            "CIA",
            "Tokyo",
            "HND");

    static Outcome getNearestAirportByCity(Backend self, Object[] a, Globals g) {
        return ok((TravelAPI) self, g, PyObjects.dict("nearest_airport", PyObjects.get(AIRPORT_MAP, a[0], "Unknown")));
    }

    static Outcome purchaseInsurance(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        Object bookingId = a[2], cost = a[3], cardId = a[4];
        if (t.tokenExpired()) return ok(t, g, PyObjects.dict("insurance_status", false, "error", "Token expired"));
        if (t.badToken(a[0]))
            return ok(t, g, PyObjects.dict("insurance_status", false, "error", "Invalid access token"));
        Object budget = t.get("budget_limit");
        if (budget != PyNone.NONE && PyObjectOps.lt(budget, cost)) {
            return ok(t, g, PyObjects.dict("insurance_status", false, "error", "Exceeded budget limit"));
        }
        if (!PyObjects.containsKey(t.bookings(), bookingId))
            return ok(t, g, PyObjects.dict("insurance_status", false, "error", "Booking not found"));
        if (!PyObjects.containsKey(t.rawCards(), cardId)) {
            return ok(t, g, PyObjects.dict("insurance_status", false, "error", "Credit card not registered"));
        }
        Object balance = PyObjectOps.sub(PyObjectOps.getItem(t.card(cardId, g), "balance"), cost, "-=");
        Outcome o = t.withBalance(cardId, balance, g, PyNone.NONE);
        TravelAPI after = (TravelAPI) o.self();
        PyRandom.Draw<Long> id = after.random.randint(100000000, 999999999);
        return ok(
                after.withRandom(id.next()),
                o.globals(),
                PyObjects.dict("insurance_id", String.valueOf(id.value()), "insurance_status", true));
    }

    static Outcome contactCustomerSupport(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        if (!PyObjects.containsKey(t.bookings(), a[0])) return ok(t, g, error("Booking not found"));
        return ok(
                t,
                g,
                PyObjects.dict(
                        "customer_support_message",
                        "Thank you for contacting customer support. Your message has been received and we will get back to you shortly."));
    }

    static Outcome getAllCreditCards(Backend self, Object[] a, Globals g) {
        TravelAPI t = (TravelAPI) self;
        return ok(t, g, PyObjects.dict("credit_card_list", t.cards(g)));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "TravelAPI",
            false,
            TravelAPI::load,
            List.of(
                    Method.of(
                            "authenticate_travel",
                            TravelAPI::authenticateTravel,
                            required("client_id"),
                            required("client_secret"),
                            required("refresh_token"),
                            required("grant_type"),
                            required("user_first_name"),
                            required("user_last_name")),
                    Method.of("travel_get_login_status", TravelAPI::travelGetLoginStatus),
                    Method.of(
                            "get_budget_fiscal_year",
                            TravelAPI::getBudgetFiscalYear,
                            optional("lastModifiedAfter", PyNone.NONE),
                            optional("includeRemoved", PyNone.NONE)),
                    Method.of(
                            "register_credit_card",
                            TravelAPI::registerCreditCard,
                            required("access_token"),
                            required("card_number"),
                            required("expiration_date"),
                            required("cardholder_name"),
                            required("card_verification_number")),
                    Method.of(
                            "get_flight_cost",
                            TravelAPI::getFlightCost,
                            required("travel_from"),
                            required("travel_to"),
                            required("travel_date"),
                            required("travel_class")),
                    Method.of(
                            "get_credit_card_balance",
                            TravelAPI::getCreditCardBalance,
                            required("access_token"),
                            required("card_id")),
                    Method.of(
                            "book_flight",
                            TravelAPI::bookFlight,
                            required("access_token"),
                            required("card_id"),
                            required("travel_date"),
                            required("travel_from"),
                            required("travel_to"),
                            required("travel_class")),
                    Method.of(
                            "retrieve_invoice",
                            TravelAPI::retrieveInvoice,
                            required("access_token"),
                            optional("booking_id", PyNone.NONE),
                            optional("insurance_id", PyNone.NONE)),
                    Method.of("get_booking_history", TravelAPI::getBookingHistory, required("access_token")),
                    Method.of("list_all_airports", TravelAPI::listAllAirports),
                    Method.of(
                            "cancel_booking",
                            TravelAPI::cancelBooking,
                            required("access_token"),
                            required("booking_id")),
                    Method.of(
                            "compute_exchange_rate",
                            TravelAPI::computeExchangeRate,
                            required("base_currency"),
                            required("target_currency"),
                            required("value")),
                    Method.of(
                            "verify_traveler_information",
                            TravelAPI::verifyTravelerInformation,
                            required("first_name"),
                            required("last_name"),
                            required("date_of_birth"),
                            required("passport_number")),
                    Method.of(
                            "set_budget_limit",
                            TravelAPI::setBudgetLimit,
                            required("access_token"),
                            required("budget_limit")),
                    Method.of("get_nearest_airport_by_city", TravelAPI::getNearestAirportByCity, required("location")),
                    Method.of(
                            "purchase_insurance",
                            TravelAPI::purchaseInsurance,
                            required("access_token"),
                            required("insurance_type"),
                            required("booking_id"),
                            required("insurance_cost"),
                            required("card_id")),
                    Method.of(
                            "contact_customer_support",
                            TravelAPI::contactCustomerSupport,
                            required("booking_id"),
                            required("message")),
                    Method.of("get_all_credit_cards", TravelAPI::getAllCreditCards)));
}
