package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;
import static brokkr.python.PyObjects.str;
import static brokkr.python.PyObjects.truthy;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Scenario;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
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

/**
 * gorilla {@code func_source_code/message_api.py} {@code MessageAPI}: users, an inbox of one-entry dicts
 * {@code {receiver_id: message}}, message ids drawn from {@code random.Random(seed)} (default 200191).
 */
public record MessageAPI(
        Object generatedIds,
        Object userCount,
        Object userMap,
        Object inbox,
        Object messageCount,
        Object currentUser,
        PyRandom random)
        implements Backend {

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("generated_ids", generatedIds);
        m.put("user_count", userCount);
        m.put("user_map", userMap);
        m.put("inbox", inbox);
        m.put("message_count", messageCount);
        m.put("current_user", currentUser);
        return m;
    }

    private static final BigInteger DEFAULT_SEED = BigInteger.valueOf(200191);

    private static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> s = Scenario.dict(config);
        PyRandom random = Seeds.random(Scenario.get(s, "random_seed", DEFAULT_SEED));
        Object inbox = Scenario.get(
                s,
                "inbox",
                PyObjects.list(
                        dict("USR002", "My name is Alice. I want to connect."),
                        dict("USR003", "Could you upload the file?"),
                        dict("USR004", "Could you upload the file?")));
        MessageAPI api = new MessageAPI(
                Scenario.get(s, "generated_ids", PySet.of(Set.of())),
                Scenario.get(s, "user_count", BigInteger.valueOf(4)),
                Scenario.get(
                        s,
                        "user_map",
                        dict("Alice", "USR001", "Bob", "USR002", "Catherine", "USR003", "Daniel", "USR004")),
                inbox,
                Scenario.get(s, "message_count", BigInteger.valueOf(3)),
                Scenario.get(s, "current_user", PyNone.NONE),
                random);
        return new Outcome(api, g, PyNone.NONE);
    }

    private static MessageAPI self(Backend b) {
        return (MessageAPI) b;
    }

    private static Outcome out(MessageAPI m, Globals g, Object result) {
        return new Outcome(m, g, result);
    }

    private MessageAPI with(
            Object generatedIds,
            Object userCount,
            Object userMap,
            Object inbox,
            Object messageCount,
            Object currentUser,
            PyRandom random) {
        return new MessageAPI(generatedIds, userCount, userMap, inbox, messageCount, currentUser, random);
    }

    private static Map<?, ?> map(Object o, String method) {
        if (o instanceof Map<?, ?> m) return m;
        throw PyException.attributeError("'" + PyObjects.typeName(o) + "' object has no attribute '" + method + "'");
    }

    /** {@code list(message.items())[0]}. */
    private static Map.Entry<?, ?> firstItem(Object message) {
        Map<?, ?> m = map(message, "items");
        if (m.isEmpty()) throw new PyException("IndexError", "list index out of range");
        return m.entrySet().iterator().next();
    }

    private static Outcome listUsers(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        return out(
                m,
                g,
                dict(
                        "user_list",
                        ArrayVector.from(new ArrayList<>(map(m.userMap, "keys").keySet()))));
    }

    private static Outcome getUserId(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        Object user = a[0];
        if (!PyObjectOps.in(user, m.userMap))
            return out(m, g, dict("error", "User '" + str(user) + "' not found in the workspace."));
        return out(m, g, dict("user_id", map(m.userMap, "get").get(user)));
    }

    private static boolean inValues(Object x, Object map) {
        for (Object v : map(map, "values").values()) if (PyObjects.eq(v, x)) return true;
        return false;
    }

    private static Outcome login(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        Object userId = a[0];
        if (!inValues(userId, m.userMap))
            return out(m, g, dict("login_status", false, "message", "User ID '" + str(userId) + "' not found."));
        return out(
                m.with(m.generatedIds, m.userCount, m.userMap, m.inbox, m.messageCount, userId, m.random),
                g,
                dict("login_status", true, "message", "User '" + str(userId) + "' logged in successfully."));
    }

    private static Outcome loginStatus(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        return out(m, g, dict("login_status", truthy(m.currentUser)));
    }

    private static Outcome sendMessage(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        Object receiver = a[0], message = a[1];
        if (!truthy(m.currentUser)) return out(m, g, dict("error", "No user is currently logged in."));
        if (!inValues(receiver, m.userMap))
            return out(m, g, dict("error", "Receiver ID '" + str(receiver) + "' not found."));
        // _generate_id: randint(10000, 99999) until the id is new; generated_ids.add(new_id)
        PyRandom r = m.random;
        PyRandom.Draw<BigInteger> d = r.randint(BigInteger.valueOf(10000), BigInteger.valueOf(99999));
        while (PyObjectOps.in(d.value(), m.generatedIds))
            d = d.next().randint(BigInteger.valueOf(10000), BigInteger.valueOf(99999));
        if (!(m.generatedIds instanceof PySet ids)) {
            throw PyException.attributeError(
                    "'" + PyObjects.typeName(m.generatedIds) + "' object has no attribute 'add'");
        }
        Set<Object> more = new LinkedHashSet<>(ids.members());
        more.add(d.value());
        PyObjects.requireHashable(receiver);
        Object inbox = PyObjectOps.add(m.inbox, PyObjects.list(dict(receiver, message)));
        MessageAPI next = m.with(
                new PySet(more, ids.frozen()),
                m.userCount,
                m.userMap,
                inbox,
                PyObjectOps.add(m.messageCount, BigInteger.ONE),
                m.currentUser,
                d.next());
        return out(
                next,
                g,
                dict(
                        "sent_status",
                        true,
                        "message_id",
                        dict("new_id", d.value()),
                        "message",
                        "Message sent to '" + str(receiver) + "' successfully."));
    }

    private static Outcome deleteMessage(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        Object receiverId = a[0];
        if (!truthy(m.currentUser)) return out(m, g, dict("error", "No user is currently logged in."));
        List<Object> inbox = PyObjectOps.iterate(m.inbox);
        for (int i = inbox.size() - 1; i >= 0; i--) {
            Object message = inbox.get(i);
            Object receiver = firstItem(message).getKey();
            if (PyObjects.eq(receiver, receiverId)) {
                // list.remove(message): the first element equal to it
                List<Object> rest = new ArrayList<>(inbox);
                for (int j = 0; j < rest.size(); j++) {
                    if (rest.get(j) == message || PyObjects.eq(rest.get(j), message)) {
                        rest.remove(j);
                        break;
                    }
                }
                MessageAPI next = m.with(
                        m.generatedIds,
                        m.userCount,
                        m.userMap,
                        ArrayVector.from(rest),
                        m.messageCount,
                        m.currentUser,
                        m.random);
                return out(
                        next,
                        g,
                        dict(
                                "deleted_status",
                                true,
                                "receiver_id",
                                receiver,
                                "message",
                                "Receiver " + str(receiverId) + "'s latest message deleted successfully."));
            }
        }
        return out(m, g, dict("error", "Receiver ID " + str(receiverId) + " not found."));
    }

    private static Outcome viewMessagesSent(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        if (!truthy(m.currentUser)) return out(m, g, dict("error", "No user is currently logged in."));
        OrderedPMap<Object, Object> sent = OrderedPMap.empty();
        for (Object message : PyObjectOps.iterate(m.inbox)) {
            Map.Entry<?, ?> e = firstItem(message);
            Object prev = sent.get(e.getKey());
            sent = sent.plus(
                    e.getKey(),
                    prev == null ? PyObjects.list(e.getValue()) : PyObjectOps.add(prev, PyObjects.list(e.getValue())));
        }
        return out(m, g, dict("messages", sent));
    }

    private static Outcome addContact(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        Object userName = a[0];
        if (PyObjectOps.in(userName, m.userMap))
            return out(m, g, dict("error", "User name '" + str(userName) + "' already exists."));
        Object count = PyObjectOps.add(m.userCount, BigInteger.ONE);
        String digits = str(count);
        // str(n).zfill(3): pads after a sign
        String userId = "USR" + zfill(digits, 3);
        MessageAPI counted = m.with(m.generatedIds, count, m.userMap, m.inbox, m.messageCount, m.currentUser, m.random);
        if (inValues(userId, m.userMap))
            return out(counted, g, dict("error", "User ID '" + userId + "' already exists."));
        @SuppressWarnings("unchecked")
        Map<Object, Object> users = OrderedPMap.from((Map<Object, Object>) map(m.userMap, "__setitem__"))
                .plus(userName, userId);
        return out(
                counted.with(m.generatedIds, count, users, m.inbox, m.messageCount, m.currentUser, m.random),
                g,
                dict(
                        "added_status",
                        true,
                        "user_id",
                        userId,
                        "message",
                        "Contact '" + str(userName) + "' added successfully."));
    }

    private static String zfill(String s, int width) {
        if (s.length() >= width) return s;
        boolean sign = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+');
        String pad = "0".repeat(width - s.length());
        return sign ? s.charAt(0) + pad + s.substring(1) : pad + s;
    }

    private static Outcome searchMessages(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        if (!truthy(m.currentUser)) return out(m, g, dict("error", "No user is currently logged in."));
        String keyword = PyObjectOps.lower(a[0]);
        List<Object> results = new ArrayList<>();
        for (Object message : PyObjectOps.iterate(m.inbox)) {
            Map.Entry<?, ?> e = firstItem(message);
            if (PyObjectOps.lower(e.getValue()).contains(keyword)) {
                results.add(dict("receiver_id", e.getKey(), "message", e.getValue()));
            }
        }
        return out(m, g, dict("results", ArrayVector.from(results)));
    }

    private static Outcome stats(Backend b, Object[] a, Globals g) {
        MessageAPI m = self(b);
        if (!truthy(m.currentUser)) return out(m, g, dict("error", "No user is currently logged in."));
        long received = 0;
        Set<Object> contacts = new LinkedHashSet<>();
        for (Object message : PyObjectOps.iterate(m.inbox)) {
            Map.Entry<?, ?> e = firstItem(message);
            received++;
            contacts.add(e.getKey());
        }
        return out(
                m,
                g,
                dict(
                        "stats",
                        dict(
                                "received_count",
                                BigInteger.valueOf(received),
                                "total_contacts",
                                BigInteger.valueOf(contacts.size()))));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "MessageAPI",
            false,
            MessageAPI::load,
            List.of(
                    Method.of("list_users", MessageAPI::listUsers),
                    Method.of("get_user_id", MessageAPI::getUserId, required("user")),
                    Method.of("message_login", MessageAPI::login, required("user_id")),
                    Method.of("message_get_login_status", MessageAPI::loginStatus),
                    Method.of("send_message", MessageAPI::sendMessage, required("receiver_id"), required("message")),
                    Method.of("delete_message", MessageAPI::deleteMessage, required("receiver_id")),
                    Method.of("view_messages_sent", MessageAPI::viewMessagesSent),
                    Method.of("add_contact", MessageAPI::addContact, required("user_name")),
                    Method.of("search_messages", MessageAPI::searchMessages, required("keyword")),
                    Method.of("get_message_stats", MessageAPI::stats)));
}
