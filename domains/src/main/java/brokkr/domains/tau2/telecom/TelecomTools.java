package brokkr.domains.tau2.telecom;

import static brokkr.python.PyException.valueError;

import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyArith;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.python.PyTruth;
import brokkr.tool.Args;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 13 agent tools of upstream's {@code TelecomTools} (src/tau2/domains/telecom/tools.py) and the
 * methods its tasks call by name (initialization actions {@code set_data_usage},
 * {@code suspend_line_for_overdue_bill}, ...; env assertions {@code assert_*}), over an immutable
 * {@code TelecomDB} dump.
 *
 * <p>As in airline, tools run as bound methods on raw keyword arguments: nothing is validated except
 * where upstream builds a model ({@code Bill(...)}, {@code LineItem(...)}), comparisons, arithmetic and
 * f-strings on an argument follow CPython ({@link PyOps}, {@link PyArith}, {@link PyRepr#str}), and each
 * in-place write is a {@link WorldCell#set} at the point the Python code makes it. The toolkit is
 * session-scoped: the draft-bill id draws live in {@link TelecomSession}.
 */
final class TelecomTools {
    private TelecomTools() {}

    static final String CLS = "TelecomTools";

    /** {@code get_today()} (telecom/utils.py): "assume today is 2025-02-25". */
    static final LocalDate TODAY = LocalDate.of(2025, 2, 25);

    /** Methods decorated {@code @is_tool(ToolType.WRITE)}. */
    static final Set<String> WRITE = Set.of(
            "suspend_line", "resume_line", "send_payment_request", "enable_roaming", "disable_roaming", "refuel_data");

    /**
     * Tools whose result {@code to_json_str} dumps without stringifying numbers: models, lists of models,
     * and {@code suspend_line} / {@code resume_line}, whose dict holds a str message and the line model
     * ({@code _process} leaves both as they are).
     */
    static final Set<String> MODEL_RESULTS = Set.of(
            "get_customer_by_phone",
            "get_customer_by_id",
            "get_customer_by_name",
            "get_details_by_id",
            "suspend_line",
            "resume_line",
            "get_bills_for_customer");

    static Tau2Toolkit toolkit() {
        Map<String, ToolFunction> bodies = Map.ofEntries(
                Map.entry("get_customer_by_phone", (c, a) -> customerByPhone(db(c), a.get("phone_number"))),
                Map.entry(
                        "get_customer_by_id",
                        (c, a) -> customerById(db(c), a.get("customer_id")).value()),
                Map.entry("get_customer_by_name", TelecomTools::getCustomerByName),
                Map.entry("get_details_by_id", TelecomTools::getDetailsById),
                Map.entry("suspend_line", TelecomTools::suspendLine),
                Map.entry("resume_line", TelecomTools::resumeLine),
                Map.entry("get_bills_for_customer", TelecomTools::getBillsForCustomer),
                Map.entry("send_payment_request", TelecomTools::sendPaymentRequest),
                Map.entry("get_data_usage", TelecomTools::getDataUsage),
                Map.entry("enable_roaming", (c, a) -> setRoaming(c, a, true)),
                Map.entry("disable_roaming", (c, a) -> setRoaming(c, a, false)),
                Map.entry("transfer_to_human_agents", (c, a) -> new PyStr("Transfer successful")),
                Map.entry("refuel_data", TelecomTools::refuelData));
        List<ToolDef> functions = List.of(
                fn("set_data_usage", TelecomTools::setDataUsage, "customer_id", "line_id", "data_used_gb"),
                fn(
                        "suspend_line_for_overdue_bill",
                        TelecomTools::suspendLineForOverdueBill,
                        "customer_id",
                        "line_id",
                        "new_bill_id",
                        "contract_ended"),
                fn(
                        "get_available_plan_ids",
                        (c, a) -> PyList.of(db(c).get("plans").asList().stream()
                                .map(p -> p.asDict().get("plan_id"))
                                .toList())),
                fn(
                        "assert_data_refueling_amount",
                        TelecomTools::assertDataRefuelingAmount,
                        "customer_id",
                        "line_id",
                        "expected_amount"),
                fn(
                        "assert_line_status",
                        (c, a) -> PyBool.of(PyOps.eq(
                                targetLine(db(c), a.get("customer_id"), a.get("line_id"))
                                        .value()
                                        .get("status"),
                                a.get("expected_status"))),
                        "customer_id",
                        "line_id",
                        "expected_status"),
                fn(
                        "assert_overdue_bill_exists",
                        TelecomTools::assertOverdueBillExists,
                        "customer_id",
                        "overdue_bill_id"),
                fn("assert_no_overdue_bill", TelecomTools::assertNoOverdueBill, "overdue_bill_id"));
        // get_bills_for_customer's limit is optional (default 12) as its doc says.
        return Tau2Toolkit.builder(CLS, TelecomToolDocs.AGENT)
                .bodies(bodies)
                .mutating(WRITE)
                .modelResults(MODEL_RESULTS)
                .generic(Set.of("transfer_to_human_agents"))
                .functions(functions)
                .sessionScoped()
                .build();
    }

    private static ToolDef fn(String name, ToolFunction body, String... params) {
        return new ToolDef(
                name,
                CLS + "." + name,
                List.of(params).stream().map(Param::required).toList(),
                body,
                true);
    }

    // ---------------------------------------------------------------- the cell: {"db": TelecomDB, "session": ...}

    static PyDict db(WorldCell c) {
        return c.get().asDict().get(Tau2Toolkit.DB).asDict();
    }

    private static void setDb(WorldCell c, PyDict db) {
        c.set(c.get().asDict().with(Tau2Toolkit.DB, db));
    }

    private static TelecomSession session(WorldCell c) {
        return TelecomSession.of(c.get().asDict().get(Tau2Toolkit.SESSION));
    }

    private static void setSession(WorldCell c, TelecomSession s) {
        c.set(c.get().asDict().with(Tau2Toolkit.SESSION, s.toValue()));
    }

    // ---------------------------------------------------------------- lookups (_get_*_by_*): the first match, by ==

    /** A row of a table and where it is, for an in-place write. */
    record Row(String table, int index, PyDict value) {
        PyDict writeTo(PyDict db, PyDict newValue) {
            return db.with(table, db.get(table).asList().with(index, newValue));
        }
    }

    private static Row find(PyDict db, String table, String field, Value key, String notFound) {
        PyList rows = db.get(table).asList();
        for (int i = 0; i < rows.size(); i++) {
            PyDict r = rows.get(i).asDict();
            if (PyOps.eq(r.get(field), key)) return new Row(table, i, r);
        }
        throw valueError(notFound);
    }

    static Row customerById(PyDict db, Value id) {
        return find(db, "customers", "customer_id", id, "Customer with ID " + PyRepr.str(id) + " not found");
    }

    static Row lineById(PyDict db, Value id) {
        return find(db, "lines", "line_id", id, "Line with ID " + PyRepr.str(id) + " not found");
    }

    static Row lineByPhone(PyDict db, Value phone) {
        return find(db, "lines", "phone_number", phone, "Line with phone number " + PyRepr.str(phone) + " not found");
    }

    static Row planById(PyDict db, Value id) {
        return find(db, "plans", "plan_id", id, "Plan with ID " + PyRepr.str(id) + " not found");
    }

    static Row billById(PyDict db, Value id) {
        return find(db, "bills", "bill_id", id, "Bill with ID " + PyRepr.str(id) + " not found");
    }

    static Row deviceById(PyDict db, Value id) {
        return find(db, "devices", "device_id", id, "Device with ID " + PyRepr.str(id) + " not found");
    }

    /** {@code x in some_list} (== with identity first, no hashing). */
    private static boolean in(Value x, Value list) {
        for (Value v : list.asList()) if (PyBuiltins.eq(v, x)) return true;
        return false;
    }

    /** {@code get_customer_by_phone}: a customer's own number, else one of its lines' numbers. */
    static PyDict customerByPhone(PyDict db, Value phone) {
        for (Value cv : db.get("customers").asList()) {
            PyDict customer = cv.asDict();
            if (PyOps.eq(customer.get("phone_number"), phone)) return customer;
            for (Value lineId : customer.get("line_ids").asList()) {
                if (PyOps.eq(lineById(db, lineId).value().get("phone_number"), phone)) return customer;
            }
        }
        throw valueError("Customer with phone number " + PyRepr.str(phone) + " not found");
    }

    /** {@code _get_target_line}. */
    static Row targetLine(PyDict db, Value customerId, Value lineId) {
        PyDict customer = customerById(db, customerId).value();
        if (!in(lineId, customer.get("line_ids"))) {
            throw valueError("Line " + PyRepr.str(lineId) + " not found for customer " + PyRepr.str(customerId));
        }
        return lineById(db, lineId);
    }

    /** {@code _get_bills_awaiting_payment}. */
    static List<PyDict> billsAwaitingPayment(PyDict db, PyDict customer) {
        List<PyDict> out = new ArrayList<>();
        for (Value id : customer.get("bill_ids").asList()) {
            PyDict bill = billById(db, id).value();
            if (PyOps.eq(bill.get("status"), new PyStr(TelecomModel.AWAITING_PAYMENT))) out.add(bill);
        }
        return out;
    }

    /** {@code _set_bill_to_paid}. */
    static PyDict setBillToPaid(PyDict db, Value billId) {
        Row bill = billById(db, billId);
        return bill.writeTo(db, bill.value().with("status", new PyStr(TelecomModel.PAID)));
    }

    // ---------------------------------------------------------------- tools

    static Value getCustomerByName(WorldCell c, Args a) {
        Value fullName = a.get("full_name"), dob = a.get("dob");
        List<Value> out = new ArrayList<>();
        for (Value cv : db(c).get("customers").asList()) {
            PyDict customer = cv.asDict();
            if (PyBuiltins.lower(customer.get("full_name")).equals(PyBuiltins.lower(fullName))
                    && PyOps.eq(customer.get("date_of_birth"), dob)) {
                out.add(customer);
            }
        }
        return PyList.of(out);
    }

    static Value getDetailsById(WorldCell c, Args a) {
        Value id = a.get("id");
        if (!(id instanceof PyStr s)) throw PyBuiltins.attributeError(id, "startswith");
        PyDict db = db(c);
        String t = s.value();
        if (t.startsWith("L")) return lineById(db, id).value();
        if (t.startsWith("D")) return deviceById(db, id).value();
        if (t.startsWith("B")) return billById(db, id).value();
        if (t.startsWith("C")) return customerById(db, id).value();
        if (t.startsWith("P")) return planById(db, id).value();
        throw valueError("Unknown ID format or type: " + t);
    }

    static Value suspendLine(WorldCell c, Args a) {
        PyDict db = db(c);
        Row line = targetLine(db, a.get("customer_id"), a.get("line_id"));
        if (!PyOps.eq(line.value().get("status"), new PyStr(TelecomModel.ACTIVE)))
            throw valueError("Line must be active to suspend");
        PyDict l = line.value().with("status", new PyStr(TelecomModel.SUSPENDED));
        setDb(c, line.writeTo(db, l));
        l = l.with("suspension_start_date", new PyStr(TODAY.toString()));
        setDb(c, line.writeTo(db, l));
        return PyDict.of("message", "Line suspended successfully. $5/month holding fee will apply.", "line", l);
    }

    static Value resumeLine(WorldCell c, Args a) {
        PyDict db = db(c);
        Row line = targetLine(db, a.get("customer_id"), a.get("line_id"));
        Value status = line.value().get("status");
        if (!PyOps.eq(status, new PyStr(TelecomModel.SUSPENDED))
                && !PyOps.eq(status, new PyStr(TelecomModel.PENDING_ACTIVATION))) {
            throw valueError("Line must be suspended to resume");
        }
        PyDict l =
                line.value().with("status", new PyStr(TelecomModel.ACTIVE)).with("suspension_start_date", PyNone.NONE);
        setDb(c, line.writeTo(db, l));
        return PyDict.of("message", "Line resumed successfully", "line", l);
    }

    static Value getBillsForCustomer(WorldCell c, Args a) {
        PyDict db = db(c);
        PyDict customer = customerById(db, a.get("customer_id")).value();
        List<PyDict> bills = new ArrayList<>();
        for (Value id : customer.get("bill_ids").asList())
            bills.add(billById(db, id).value());
        // sorted(key=issue_date, reverse=True) is stable: equal dates keep their order
        bills.sort(
                Comparator.comparing((PyDict b) -> b.get("issue_date").asStr()).reversed());
        return PyList.of(sliceTo(bills, a.get("limit")));
    }

    /** {@code seq[:stop]}: stop an int (bool included) or None; anything else is CPython's TypeError. */
    private static List<Value> sliceTo(List<? extends Value> seq, Value stop) {
        int n = seq.size();
        int end;
        if (stop instanceof PyNone) {
            end = n;
        } else {
            BigInteger s;
            if (stop instanceof PyInt i) s = i.value();
            else if (stop instanceof PyBool b) s = b.value() ? BigInteger.ONE : BigInteger.ZERO;
            else throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
            BigInteger e = s.signum() < 0 ? s.add(BigInteger.valueOf(n)) : s;
            end = e.signum() < 0 ? 0 : e.compareTo(BigInteger.valueOf(n)) > 0 ? n : e.intValue();
        }
        return new ArrayList<>(seq.subList(0, end));
    }

    static Value sendPaymentRequest(WorldCell c, Args a) {
        PyDict db = db(c);
        Value customerId = a.get("customer_id"), billId = a.get("bill_id");
        PyDict customer = customerById(db, customerId).value();
        if (!billsAwaitingPayment(db, customer).isEmpty())
            throw valueError("A bill is already awaiting payment for this customer");
        if (!in(billId, customer.get("bill_ids"))) {
            throw valueError("Bill " + PyRepr.str(billId) + " not found for customer " + PyRepr.str(customerId));
        }
        Row bill = billById(db, billId);
        setDb(c, bill.writeTo(db, bill.value().with("status", new PyStr(TelecomModel.AWAITING_PAYMENT))));
        return new PyStr("Payment request sent to the customer for bill "
                + PyRepr.str(bill.value().get("bill_id")));
    }

    static Value getDataUsage(WorldCell c, Args a) {
        PyDict db = db(c);
        Value lineId = a.get("line_id");
        PyDict line = targetLine(db, a.get("customer_id"), lineId).value();
        PyDict plan = planById(db, line.get("plan_id")).value();
        LocalDate cycleEnd = LocalDate.of(
                        TODAY.getYear(), TODAY.getMonthValue() < 12 ? TODAY.getMonthValue() + 1 : 1, 1)
                .minusDays(1);
        return PyDict.of(
                "line_id",
                lineId,
                "data_used_gb",
                line.get("data_used_gb"),
                "data_limit_gb",
                plan.get("data_limit_gb"),
                "data_refueling_gb",
                line.get("data_refueling_gb"),
                "cycle_end_date",
                cycleEnd.toString());
    }

    static Value setRoaming(WorldCell c, Args a, boolean enable) {
        PyDict db = db(c);
        Row line = targetLine(db, a.get("customer_id"), a.get("line_id"));
        boolean enabled = PyTruth.truthy(line.value().get("roaming_enabled"));
        if (enable && enabled) return new PyStr("Roaming was already enabled");
        if (!enable && !enabled) return new PyStr("Roaming was already disabled");
        setDb(c, line.writeTo(db, line.value().with("roaming_enabled", PyBool.of(enable))));
        return new PyStr(enable ? "Roaming enabled successfully" : "Roaming disabled successfully");
    }

    static Value refuelData(WorldCell c, Args a) {
        Value customerId = a.get("customer_id"), lineId = a.get("line_id"), gb = a.get("gb_amount");
        PyDict db = db(c);
        Row line = targetLine(db, customerId, lineId);
        if (PyOps.le(gb, PyInt.of(0))) throw valueError("Refuel amount must be positive");
        Value price = planById(db, line.value().get("plan_id")).value().get("data_refueling_price_per_gb");
        Value charge = PyArith.mul(gb, price);
        PyDict l =
                line.value().with("data_refueling_gb", PyArith.iadd(line.value().get("data_refueling_gb"), gb));
        setDb(c, line.writeTo(db, l));
        applyOneTimeCharge(
                c, customerId, charge, "Data refueling: " + PyRepr.str(gb) + " GB at $" + PyRepr.str(price) + "/GB");
        String chargeText = PyFormat.format(charge, ".2f"); // the logger's f-string formats it too, before the return
        return PyDict.of(
                "message",
                "Successfully added " + PyRepr.str(gb) + " GB of data for line " + PyRepr.str(lineId) + " for $"
                        + chargeText,
                "new_data_refueling_gb",
                l.get("data_refueling_gb"),
                "charge",
                charge);
    }

    /** {@code _apply_one_time_charge}: the customer's first draft bill, or a new one for next month (a uuid4 draw). */
    static void applyOneTimeCharge(WorldCell c, Value customerId, Value amount, String description) {
        PyDict db = db(c);
        Row customer = customerById(db, customerId);
        Row draft = null;
        for (Value id : customer.value().get("bill_ids").asList()) {
            Row bill = billById(db, id);
            if (PyOps.eq(bill.value().get("status"), new PyStr(TelecomModel.DRAFT))) {
                draft = bill;
                break;
            }
        }
        PyDict bill;
        int billIndex;
        if (draft == null) {
            LocalDate nextMonth = TODAY.withDayOfMonth(1).plusDays(32).withDayOfMonth(1);
            LocalDate periodEnd = nextMonth
                    .withMonth(nextMonth.getMonthValue() < 12 ? nextMonth.getMonthValue() + 1 : 1)
                    .withYear(nextMonth.getMonthValue() < 12 ? nextMonth.getYear() : nextMonth.getYear() + 1)
                    .minusDays(1);
            TelecomSession s = session(c).draw();
            setSession(c, s);
            String id = s.lastBillId();
            bill = TelecomModel.BILL.create(PyDict.builder()
                    .put("bill_id", id)
                    .put("customer_id", customerId)
                    .put("period_start", nextMonth.toString())
                    .put("period_end", periodEnd.toString())
                    .put("issue_date", nextMonth.toString())
                    .put("total_due", PyInt.of(0))
                    .put("due_date", nextMonth.plusDays(14).toString())
                    .put("status", TelecomModel.DRAFT)
                    .build());
            PyList bills = db.get("bills").asList();
            billIndex = bills.size();
            db = db.with("bills", bills.plus(bill));
            PyDict cust = customer.value()
                    .with("bill_ids", customer.value().get("bill_ids").asList().plus(new PyStr(id)));
            db = customer.writeTo(db, cust);
            setDb(c, db);
        } else {
            bill = draft.value();
            billIndex = draft.index();
        }
        PyDict item = TelecomModel.LINE_ITEM.create(PyDict.of(
                "description",
                description,
                "amount",
                amount,
                "date",
                TODAY.toString(),
                "item_type",
                PyOps.lt(amount, PyInt.of(0)) ? "Credit" : "Charge"));
        bill = bill.with("line_items", bill.get("line_items").asList().plus(item));
        bill = bill.with("total_due", PyArith.iadd(bill.get("total_due"), amount));
        setDb(c, new Row("bills", billIndex, bill).writeTo(db, bill));
    }

    // ---------------------------------------------------------------- methods tasks call by name

    static Value setDataUsage(WorldCell c, Args a) {
        PyDict db = db(c);
        Value lineId = a.get("line_id"), used = a.get("data_used_gb");
        Row line = targetLine(db, a.get("customer_id"), lineId);
        setDb(c, line.writeTo(db, line.value().with("data_used_gb", used)));
        return new PyStr("Data usage set to " + PyRepr.str(used) + " GB for line " + PyRepr.str(lineId));
    }

    static Value suspendLineForOverdueBill(WorldCell c, Args a) {
        Value customerId = a.get("customer_id"), lineId = a.get("line_id"), newBillId = a.get("new_bill_id");
        Value contractEnded = a.get("contract_ended");
        PyDict db = db(c);
        Row line = lineById(db, lineId);
        if (!PyOps.eq(line.value().get("status"), new PyStr(TelecomModel.ACTIVE)))
            throw valueError("Line must be active to suspend for unpaid bill");
        Value amount = planById(db, line.value().get("plan_id")).value().get("price_per_month");
        String description = "Charge for line " + PyRepr.str(line.value().get("line_id"));
        if (PyOps.le(amount, PyInt.of(0))) throw valueError("Amount must be positive for overdue bill");
        Row customer = customerById(db, customerId);
        for (Value id : customer.value().get("bill_ids").asList()) {
            if (PyOps.eq(billById(db, id).value().get("status"), new PyStr(TelecomModel.OVERDUE))) {
                throw valueError("Customer already has an overdue bill");
            }
        }
        LocalDate lastDayOfLastMonth = TODAY.withDayOfMonth(1).minusDays(1);
        LocalDate firstDayOfLastMonth = lastDayOfLastMonth.withDayOfMonth(1);
        PyDict bill = TelecomModel.BILL.create(PyDict.builder()
                .put("bill_id", newBillId)
                .put("customer_id", customerId)
                .put("period_start", firstDayOfLastMonth.toString())
                .put("period_end", lastDayOfLastMonth.toString())
                .put("issue_date", firstDayOfLastMonth.toString())
                .put("total_due", PyInt.of(0))
                .put("due_date", firstDayOfLastMonth.plusDays(14).toString())
                .put("status", TelecomModel.OVERDUE)
                .build());
        PyDict item = TelecomModel.LINE_ITEM.create(PyDict.of(
                "description",
                description,
                "amount",
                amount,
                "date",
                TODAY.toString(),
                "item_type",
                PyOps.gt(amount, PyInt.of(0)) ? "Charge" : "Credit"));
        bill = bill.with("line_items", bill.get("line_items").asList().plus(item));
        bill = bill.with("total_due", PyArith.iadd(bill.get("total_due"), amount));
        db = db.with("bills", db.get("bills").asList().plus(bill));
        db = customer.writeTo(
                db,
                customer.value()
                        .with(
                                "bill_ids",
                                customer.value().get("bill_ids").asList().plus(newBillId)));
        PyDict l = line.value()
                .with("status", new PyStr(TelecomModel.SUSPENDED))
                .with("suspension_start_date", new PyStr(TODAY.toString()));
        if (PyTruth.truthy(contractEnded)) l = l.with("contract_end_date", new PyStr(lastDayOfLastMonth.toString()));
        setDb(c, line.writeTo(db, l));
        return new PyStr("Line " + PyRepr.str(lineId) + " suspended for unpaid bill " + PyRepr.str(newBillId)
                + ". Contract ended: " + PyRepr.str(contractEnded));
    }

    static Value assertDataRefuelingAmount(WorldCell c, Args a) {
        Value refueled = targetLine(db(c), a.get("customer_id"), a.get("line_id"))
                .value()
                .get("data_refueling_gb");
        return PyBool.of(PyOps.lt(abs(PyArith.sub(refueled, a.get("expected_amount"))), new PyFloat(1e-6)));
    }

    private static Value abs(Value v) {
        return switch (v) {
            case PyFloat f -> new PyFloat(Math.abs(f.value()));
            case PyInt i -> new PyInt(i.value().abs());
            case PyBool b -> PyInt.of(b.value() ? 1 : 0);
            default -> throw PyException.typeError("bad operand type for abs(): '" + v.typeName() + "'");
        };
    }

    static Value assertOverdueBillExists(WorldCell c, Args a) {
        PyDict db = db(c);
        Value billId = a.get("overdue_bill_id");
        PyDict customer = customerById(db, a.get("customer_id")).value();
        if (!in(billId, customer.get("bill_ids")))
            throw valueError("Overdue bill " + PyRepr.str(billId) + " not found");
        if (!PyOps.eq(billById(db, billId).value().get("status"), new PyStr(TelecomModel.OVERDUE))) {
            throw valueError("Overdue bill " + PyRepr.str(billId) + " is not overdue");
        }
        return PyBool.TRUE;
    }

    static Value assertNoOverdueBill(WorldCell c, Args a) {
        PyDict bill;
        try {
            bill = billById(db(c), a.get("overdue_bill_id")).value();
        } catch (PyException e) {
            return PyBool.TRUE; // ValueError: not in the database
        }
        return PyBool.of(PyOps.eq(bill.get("status"), new PyStr(TelecomModel.PAID)));
    }
}
