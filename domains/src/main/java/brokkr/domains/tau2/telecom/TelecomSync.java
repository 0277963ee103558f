package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.environment.Tau2Environment.SyncRaised;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.python.PyArith;
import brokkr.python.PyException;
import brokkr.python.PyOps;
import brokkr.python.PyTruth;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@code TelecomEnvironment.sync_tools} (src/tau2/domains/telecom/environment.py): the user's
 * surroundings follow the line of their phone number (active, roaming allowed, data limit exceeded), a
 * paid payment request marks its bill paid and is cleared, and the first bill awaiting payment becomes
 * the next request. Writes happen in upstream's order; when a lookup raises (no line for the number, an
 * unknown plan or bill) the writes before it stay ({@link SyncRaised}).
 */
final class TelecomSync implements UnaryOperator<Worlds> {
    static final TelecomSync INSTANCE = new TelecomSync();

    private TelecomSync() {}

    @Override
    public Worlds apply(Worlds w) {
        PyDict db = w.db().asDict();
        PyDict user = w.userDb().asDict();
        Value phone = surroundings(user).get("phone_number");
        if (phone.isNone()) return w;
        try {
            PyDict line = TelecomTools.lineByPhone(db, phone).value();
            user = setSur(user, "line_active", PyBool.of(PyOps.eq(line.get("status"), new PyStr(TelecomModel.ACTIVE))));
            user = setSur(user, "roaming_allowed", PyBool.of(PyTruth.truthy(line.get("roaming_enabled"))));
            // _get_line_by_phone / _get_plan_by_id raise their own ValueError before sync_tools' "Wrong scenario"
            // checks
            PyDict plan = TelecomTools.planById(db, line.get("plan_id")).value();
            boolean exceeded = PyOps.ge(
                    line.get("data_used_gb"), PyArith.add(plan.get("data_limit_gb"), line.get("data_refueling_gb")));
            user = setSur(user, "mobile_data_usage_exceeded", PyBool.of(exceeded));
            Value request = surroundings(user).get("payment_request");
            if (!request.isNone() && PyTruth.truthy(request.asDict().get("paid"))) {
                db = TelecomTools.setBillToPaid(db, request.asDict().get("bill_id"));
                user = setSur(user, "payment_request", PyNone.NONE);
            }
            if (surroundings(user).get("payment_request").isNone()) {
                PyDict customer = TelecomTools.customerByPhone(db, phone);
                List<PyDict> bills = TelecomTools.billsAwaitingPayment(db, customer);
                if (!bills.isEmpty()) {
                    PyDict bill = bills.get(0);
                    user = setSur(
                            user,
                            "payment_request",
                            TelecomModel.PAYMENT_REQUEST.create(
                                    PyDict.of("bill_id", bill.get("bill_id"), "amount_due", bill.get("total_due"))));
                }
            }
            return new Worlds(db, user, w.session());
        } catch (PyException e) {
            throw new SyncRaised(e, new Worlds(db, user, w.session()));
        }
    }

    private static PyDict surroundings(PyDict user) {
        return user.get("surroundings").asDict();
    }

    /** Assigning the value a field already has keeps the same node (and its hash memo). */
    private static PyDict setSur(PyDict user, String field, Value v) {
        PyDict s = surroundings(user);
        Value old = s.get(field);
        if (Phone.sameLeaf(v, old)) return user;
        return user.with("surroundings", s.with(field, v));
    }
}
