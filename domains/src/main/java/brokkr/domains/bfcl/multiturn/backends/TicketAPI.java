package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;
import static brokkr.python.PyObjects.str;
import static brokkr.python.PyObjects.truthy;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Live;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Scenario;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pcollections.OrderedPMap;
import org.pcollections.PVector;

/**
 * gorilla {@code func_source_code/ticket_api.py} {@code TicketAPI}: a support-ticket queue. Tickets are
 * dicts as the scenario gives them (any keys), changed in place upstream; here each change replaces
 * the ticket in a persistent queue.
 */
public record TicketAPI(Object ticketQueue, Object ticketCounter, Object currentUser) implements Backend {

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ticket_queue", ticketQueue);
        m.put("ticket_counter", ticketCounter);
        m.put("current_user", currentUser);
        return m;
    }

    private static TicketAPI self(Backend b) {
        return (TicketAPI) b;
    }

    private static Outcome out(TicketAPI t, Globals g, Object result) {
        return new Outcome(t, g, result);
    }

    /** _load_scenario: {@code scenario.get(key, DEFAULT_STATE_COPY[key])} for each attribute. */
    private static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> s = Scenario.dict(config);
        Object queue = Scenario.get(s, "ticket_queue", ArrayVector.empty());
        Object counter = Scenario.get(s, "ticket_counter", BigInteger.ONE);
        Object user = Scenario.get(s, "current_user", PyNone.NONE);
        return out(new TicketAPI(queue, counter, user), g, PyNone.NONE);
    }

    /** _find_ticket: the index of the first ticket whose {@code ticket["id"] == ticket_id}, or -1. */
    private int find(Object ticketId) {
        List<Object> queue = PyObjectOps.iterate(ticketQueue);
        for (int i = 0; i < queue.size(); i++) {
            if (PyObjects.eq(PyObjectOps.getItem(queue.get(i), "id"), ticketId)) return i;
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private TicketAPI withTicket(int i, Object ticket) {
        return new TicketAPI(((PVector<Object>) asPVector(ticketQueue)).with(i, ticket), ticketCounter, currentUser);
    }

    private static PVector<Object> asPVector(Object list) {
        if (list instanceof PVector<?> v) {
            @SuppressWarnings("unchecked")
            PVector<Object> p = (PVector<Object>) v;
            return p;
        }
        return ArrayVector.from(PyObjectOps.iterate(list));
    }

    private static Object ticketItem(Object ticket, String key) {
        return PyObjectOps.getItem(ticket, key);
    }

    /** The ticket object at queue position {@code i} (tickets never move: the queue only grows). */
    private Object ticketAt(int i) {
        List<Object> q = PyObjectOps.iterate(ticketQueue);
        return i < q.size() ? q.get(i) : null;
    }

    @SuppressWarnings("unchecked")
    private static Object setItem(Object ticket, String key, Object value) {
        if (!(ticket instanceof Map<?, ?> m)) {
            throw PyException.typeError("'" + PyObjects.typeName(ticket) + "' object does not support item assignment");
        }
        return OrderedPMap.from((Map<Object, Object>) m).plus(key, value);
    }

    private static Outcome createTicket(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        Object title = a[0], description = a[1], priority = a[2];
        if (!truthy(t.currentUser))
            return out(t, g, dict("error", "User not authenticated. Please log in to create a ticket."));
        if (PyObjectOps.lt(priority, BigInteger.ONE) || PyObjectOps.gt(priority, BigInteger.valueOf(5))) {
            return out(t, g, dict("error", "Invalid priority. Priority must be between 1 and 5."));
        }
        Object ticket = dict(
                "id",
                t.ticketCounter,
                "title",
                title,
                "description",
                description,
                "status",
                "Open",
                "priority",
                priority,
                "created_by",
                t.currentUser);
        PVector<Object> queue = asPVector(t.ticketQueue).plus(ticket);
        Object counter = PyObjectOps.add(t.ticketCounter, BigInteger.ONE);
        int index = queue.size() - 1;
        return out(
                new TicketAPI(queue, counter, t.currentUser),
                g,
                new Live(ticket, b2 -> ((TicketAPI) b2).ticketAt(index)));
    }

    private static Outcome getTicket(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        int i = t.find(a[0]);
        if (i < 0) return out(t, g, dict("error", "Ticket with ID " + str(a[0]) + " not found."));
        return out(t, g, new Live(t.ticketAt(i), b2 -> ((TicketAPI) b2).ticketAt(i)));
    }

    private static Outcome setStatus(Backend b, Object[] a, Globals g, String status, String verb) {
        TicketAPI t = self(b);
        Object id = a[0];
        int i = t.find(id);
        if (i < 0) return out(t, g, dict("error", "Ticket with ID " + str(id) + " not found."));
        Object ticket = PyObjectOps.getItem(t.ticketQueue, BigInteger.valueOf(i));
        if (PyObjects.eq(ticketItem(ticket, "status"), status)) {
            return out(t, g, dict("error", "Ticket with ID " + str(id) + " is already " + status.toLowerCase() + "."));
        }
        ticket = setItem(ticket, "status", status);
        if (a.length > 1) ticket = setItem(ticket, "resolution", a[1]);
        return out(
                t.withTicket(i, ticket),
                g,
                dict("status", "Ticket " + str(id) + " has been " + verb + " successfully."));
    }

    private static final Set<Object> VALID_FIELDS = Set.of("title", "description", "status", "priority");

    private static Outcome editTicket(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        Object id = a[0], updates = a[1];
        int i = t.find(id);
        if (i < 0) return out(t, g, dict("error", "Ticket with ID " + str(id) + " not found."));
        if (!(updates instanceof Map<?, ?> u)) {
            throw PyException.attributeError("'" + PyObjects.typeName(updates) + "' object has no attribute 'keys'");
        }
        // set(updates.keys()) - valid_fields; the corpora send at most one invalid field, so set order does not show
        Set<Object> invalid = new LinkedHashSet<>();
        for (Object k : u.keySet()) if (!VALID_FIELDS.contains(k)) invalid.add(k);
        if (!invalid.isEmpty()) {
            return out(t, g, dict("error", "Invalid fields for update: " + PyObjectOps.join(", ", PySet.of(invalid))));
        }
        Object ticket = PyObjectOps.getItem(t.ticketQueue, BigInteger.valueOf(i));
        for (Map.Entry<?, ?> e : u.entrySet()) {
            if (e.getValue() != PyNone.NONE) ticket = setItem(ticket, (String) e.getKey(), e.getValue());
        }
        return out(t.withTicket(i, ticket), g, dict("status", "Ticket " + str(id) + " has been updated successfully."));
    }

    private static Outcome login(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        // `if username and password`
        if (truthy(a[0]) && truthy(a[1]))
            return out(new TicketAPI(t.ticketQueue, t.ticketCounter, a[0]), g, dict("success", true));
        return out(t, g, dict("success", false));
    }

    private static Outcome loginStatus(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        return out(t, g, dict("login_status", truthy(t.currentUser)));
    }

    private static Outcome logout(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        if (truthy(t.currentUser))
            return out(new TicketAPI(t.ticketQueue, t.ticketCounter, PyNone.NONE), g, dict("success", true));
        return out(t, g, dict("success", false));
    }

    private static Outcome userTickets(Backend b, Object[] a, Globals g) {
        TicketAPI t = self(b);
        Object status = a[0];
        if (!truthy(t.currentUser)) {
            return out(t, g, PyObjects.list(dict("error", "User not authenticated. Please log in to view tickets.")));
        }
        List<Integer> mine = new ArrayList<>();
        List<Object> queue = PyObjectOps.iterate(t.ticketQueue);
        for (int i = 0; i < queue.size(); i++) {
            if (PyObjects.eq(ticketItem(queue.get(i), "created_by"), t.currentUser)) mine.add(i);
        }
        if (truthy(status)) {
            List<Integer> filtered = new ArrayList<>();
            for (int i : mine) {
                // ticket["status"].lower() == status.lower(), left operand first
                String left = PyObjectOps.lower(ticketItem(queue.get(i), "status"));
                if (left.equals(PyObjectOps.lower(status))) filtered.add(i);
            }
            mine = filtered;
        }
        // a new list of the stored ticket objects
        List<Object> tickets = new ArrayList<>();
        for (int i : mine) tickets.add(new Live(queue.get(i), b2 -> ((TicketAPI) b2).ticketAt(i)));
        return out(t, g, ArrayVector.from(tickets));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "TicketAPI",
            false,
            TicketAPI::load,
            List.of(
                    Method.of(
                            "create_ticket",
                            TicketAPI::createTicket,
                            required("title"),
                            optional("description", ""),
                            optional("priority", BigInteger.ONE)),
                    Method.of("get_ticket", TicketAPI::getTicket, required("ticket_id")),
                    Method.of(
                            "close_ticket",
                            (b, a, g) -> setStatus(b, new Object[] {a[0]}, g, "Closed", "closed"),
                            required("ticket_id")),
                    Method.of(
                            "resolve_ticket",
                            (b, a, g) -> setStatus(b, a, g, "Resolved", "resolved"),
                            required("ticket_id"),
                            required("resolution")),
                    Method.of("edit_ticket", TicketAPI::editTicket, required("ticket_id"), required("updates")),
                    Method.of("ticket_login", TicketAPI::login, required("username"), required("password")),
                    Method.of("ticket_get_login_status", TicketAPI::loginStatus),
                    Method.of("logout", TicketAPI::logout),
                    Method.of("get_user_tickets", TicketAPI::userTickets, optional("status", PyNone.NONE))));
}
