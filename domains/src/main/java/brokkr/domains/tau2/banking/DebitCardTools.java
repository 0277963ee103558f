package brokkr.domains.tau2.banking;

import static brokkr.domains.tau2.banking.BankPy.eq;
import static brokkr.domains.tau2.banking.BankPy.f2;
import static brokkr.domains.tau2.banking.BankPy.get;
import static brokkr.domains.tau2.banking.BankPy.listRepr;
import static brokkr.domains.tau2.banking.BankPy.oneOf;
import static brokkr.domains.tau2.banking.BankPy.ps;
import static brokkr.domains.tau2.banking.BankPy.row;
import static brokkr.domains.tau2.banking.BankPy.s;
import static brokkr.domains.tau2.banking.BankPy.t;
import static brokkr.domains.tau2.banking.BankPy.title;

import brokkr.python.PyArith;
import brokkr.python.PyBuiltins;
import brokkr.python.PyDates;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyOps;
import brokkr.python.PyStrings;
import brokkr.tool.Args;
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
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Agent-discoverable tools of {@code KnowledgeTools} (tools.py) for debit cards: order, activate, close, freeze, PINs, limits. */
final class DebitCardTools {
    private DebitCardTools() {}

    static final Map<String, ToolFunction> BODIES = Map.ofEntries(
            Map.entry("order_debit_card_5739", DebitCardTools::orderDebitCard),
            Map.entry(
                    "activate_debit_card_8291",
                    (c, a) -> activate(c, a, List.of("new_account", "first_card"), "activate_debit_card_8291")),
            Map.entry(
                    "activate_debit_card_8292",
                    (c, a) -> activate(c, a, List.of("lost", "stolen", "fraud"), "activate_debit_card_8292")),
            Map.entry(
                    "activate_debit_card_8293",
                    (c, a) -> activate(
                            c,
                            a,
                            List.of("expired", "damaged", "upgrade", "bank_reissue"),
                            "activate_debit_card_8293")),
            Map.entry("close_debit_card_4721", DebitCardTools::closeDebitCard),
            Map.entry("freeze_debit_card_3892", DebitCardTools::freeze),
            Map.entry("unfreeze_debit_card_3893", DebitCardTools::unfreeze),
            Map.entry("clear_debit_card_fraud_alert_4892", DebitCardTools::clearFraudAlert),
            Map.entry("reset_debit_card_pin_6284", DebitCardTools::resetPin),
            Map.entry("change_debit_card_pin_6285", DebitCardTools::changePin),
            Map.entry("get_debit_cards_by_account_id_7823", DebitCardTools::cardsByAccount),
            Map.entry("request_temporary_debit_card_limit_increase_8374", DebitCardTools::temporaryLimitIncrease));

    private static final String TODAY = BankingTools.TODAY;

    private static void set(WorldCell c, Value cardId, String field, Value v) {
        DbQuery.setField(c, "debit_cards", cardId.asStr(), field, v);
    }

    private static void set(WorldCell c, Value cardId, String field, String v) {
        set(c, cardId, field, ps(v));
    }

    /** {@code s.isdigit()} on a value that must be a str. */
    private static boolean isdigit(Value v) {
        if (!(v instanceof PyStr s)) throw PyBuiltins.attributeError(v, "isdigit");
        return PyStrings.isDigit(s.value());
    }

    private static int len(Value v) {
        return PyBuiltins.len(v);
    }

    private static String lower(Value v) {
        if (!(v instanceof PyStr s)) throw PyBuiltins.attributeError(v, "lower");
        return PyStrings.lower(s.value());
    }

    private static final List<String> SEQUENTIAL_PINS = List.of(
            "0123", "1234", "2345", "3456", "4567", "5678", "6789", "9876", "8765", "7654", "6543", "5432", "4321",
            "3210");

    /** {@code _validate_pin}: null when valid, else the message. */
    static String validatePin(Value pin) {
        if (!t(pin) || !isdigit(pin) || len(pin) != 4) return "PIN must be exactly 4 digits.";
        if (oneOf(pin, SEQUENTIAL_PINS))
            return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.";
        if (pin.asStr().codePoints().distinct().count() == 1) {
            return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.";
        }
        return null;
    }

    private static final Map<String, String> REASON_TOOL = Map.of(
            "new_account",
            "activate_debit_card_8291",
            "first_card",
            "activate_debit_card_8291",
            "lost",
            "activate_debit_card_8292",
            "stolen",
            "activate_debit_card_8292",
            "fraud",
            "activate_debit_card_8292",
            "expired",
            "activate_debit_card_8293",
            "damaged",
            "activate_debit_card_8293",
            "upgrade",
            "activate_debit_card_8293",
            "bank_reissue",
            "activate_debit_card_8293");

    /** {@code _validate_activation_common}: the error text, or null. */
    private static String validateActivation(WorldCell c, Args a, List<String> allowed, String tool) {
        Value card = a.get("card_id"),
                last4 = a.get("last_4_digits"),
                exp = a.get("expiration_date"),
                cvv = a.get("cvv"),
                pin = a.get("pin");
        for (Value v : List.of(card, last4, exp, cvv, pin)) {
            if (!t(v))
                return "Error: Missing required parameters. Required: card_id, last_4_digits, expiration_date, cvv, pin.";
        }
        String pinError = validatePin(pin);
        if (pinError != null) return "Error: " + pinError;
        if (!isdigit(cvv) || len(cvv) != 3) return "Error: CVV must be exactly 3 digits.";
        if (!isdigit(last4) || len(last4) != 4) return "Error: Last 4 digits must be exactly 4 digits.";
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return "Error: Debit card '" + s(card) + "' not found.";
        Value reason = get(d, "issue_reason", "new_account");
        if (!oneOf(reason, allowed)) {
            PyBuiltins.requireHashable(reason);
            String correct = reason instanceof PyStr rs ? REASON_TOOL.getOrDefault(rs.value(), "unknown") : "unknown";
            return "Error: Wrong activation tool. This card has issue_reason='" + s(reason) + "'. Please use " + correct
                    + " instead of " + tool + ".";
        }
        if (eq(get(d, "status"), "ACTIVE")) return "Error: Debit card '" + s(card) + "' is already active.";
        if (!eq(get(d, "status"), "PENDING")) {
            return "Error: Debit card '" + s(card) + "' cannot be activated. Current status: " + s(get(d, "status"))
                    + ". Only PENDING cards can be activated.";
        }
        if (!eq(get(d, "last_4_digits"), last4))
            return "Error: Card verification failed. The last 4 digits do not match our records.";
        Value account = get(d, "account_id");
        if (t(account)) {
            PyDict acc = row(c, "accounts", account);
            if (acc != null && !eq(get(acc, "status"), "OPEN")) {
                return "Error: The linked checking account '" + s(account)
                        + "' is no longer open. Card cannot be activated.";
            }
        }
        return null;
    }

    private static Value activate(WorldCell c, Args a, List<String> allowed, String tool) {
        String error = validateActivation(c, a, allowed, tool);
        if (error != null) return ps(error);
        Value cardId = a.get("card_id");
        PyDict card = row(c, "debit_cards", cardId);
        Value account = get(card, "account_id");
        int variant = tool.endsWith("8291") ? 1 : tool.endsWith("8292") ? 2 : 3;
        Value reason = variant == 2
                ? get(card, "issue_reason", "lost")
                : variant == 3 ? get(card, "issue_reason", "expired") : null;
        set(c, cardId, "status", "ACTIVE");
        set(c, cardId, "activated_date", TODAY);
        List<String> others = new ArrayList<>();
        for (Map.Entry<String, Value> e : DbQuery.table(c, "debit_cards").entries()) {
            PyDict other = e.getValue().asDict();
            if (!eq(ps(e.getKey()), cardId)
                    && eq(get(other, "account_id"), account)
                    && eq(get(other, "status"), "ACTIVE")) {
                Value id = ps(e.getKey());
                if (variant == 3) {
                    set(c, id, "status", "GRACE_PERIOD");
                    set(c, id, "grace_period_ends", TODAY);
                    set(c, id, "deactivation_reason", "Reissued card activated (" + s(reason) + ")");
                } else {
                    set(c, id, "status", "DEACTIVATED");
                    set(c, id, "deactivated_date", TODAY);
                    set(
                            c,
                            id,
                            "deactivation_reason",
                            variant == 1 ? "New card activated" : "Replacement card activated (" + s(reason) + ")");
                }
                others.add(e.getKey());
            }
        }
        List<String> parts = new ArrayList<>();
        if (variant == 1) {
            parts.addAll(List.of(
                    "New Debit Card Activation Successful",
                    "Card ID: " + s(cardId),
                    "Status: ACTIVE",
                    "Activation Date: " + TODAY,
                    "",
                    "Your card is now ready to use at any ATM or point of sale terminal.",
                    "For security, please sign the back of your card."));
            if (!others.isEmpty())
                parts.add("\nNote: Previous card(s) have been deactivated: " + String.join(", ", others));
        } else if (variant == 2) {
            parts.addAll(List.of(
                    "Replacement Debit Card Activation Successful",
                    "Card ID: " + s(cardId),
                    "Replacement Reason: " + title(reason),
                    "Status: ACTIVE",
                    "Activation Date: " + TODAY,
                    "",
                    "Your replacement card is now ready to use.",
                    "",
                    "IMPORTANT SECURITY REMINDERS:",
                    "- Please review your recent transactions for any unauthorized charges",
                    "- Report any suspicious activity immediately"));
            if (eq(reason, "fraud"))
                parts.add("- Since fraud was suspected, we recommend changing your online banking password");
            if (!others.isEmpty())
                parts.add("\nPrevious card(s) have been deactivated for security: " + String.join(", ", others));
        } else {
            parts.addAll(List.of(
                    "Reissued Debit Card Activation Successful",
                    "Card ID: " + s(cardId),
                    "Reissue Reason: " + title(reason),
                    "Status: ACTIVE",
                    "Activation Date: " + TODAY,
                    "",
                    "Your reissued card is now ready to use."));
            if (!others.isEmpty()) {
                parts.add("\nNote: Your previous card(s) (" + String.join(", ", others)
                        + ") will remain active for 24 hours as a grace period.");
                parts.add("After 24 hours, the old card(s) will be automatically deactivated.");
            }
            if (oneOf(reason, List.of("expired", "bank_reissue"))) {
                parts.add(
                        "\nReminder: If your card number changed, please update any recurring payments with your new card details.");
            }
        }
        return ps(String.join("\n", parts));
    }

    /** {@code float(x) if x is not None else None}; null marks the ValueError / TypeError. */
    private static Value floatOrNone(Value v) {
        if (v.isNone()) return v;
        try {
            return new PyFloat(PyBuiltins.toFloat(v));
        } catch (PyException e) {
            if (e.pyType().equals("ValueError") || e.pyType().equals("TypeError")) return null;
            throw e;
        }
    }

    private static Value orderDebitCard(WorldCell c, Args a) {
        Value account = a.get("account_id"),
                user = a.get("user_id"),
                delivery = a.get("delivery_option"),
                design = a.get("card_design"),
                address = a.get("shipping_address");
        Value excess = t(a.get("excess_replacement_fee")) ? a.get("excess_replacement_fee") : PyInt.of(0);
        Value deliveryFee = floatOrNone(a.get("delivery_fee"));
        if (deliveryFee == null) return ps("Error: delivery_fee must be a number.");
        Value designFee = floatOrNone(a.get("design_fee"));
        if (designFee == null) return ps("Error: design_fee must be a number.");
        Value excessF = floatOrNone(excess);
        excess = excessF == null || excessF.isNone() ? PyInt.of(0) : excessF;
        if (!t(account)
                || !t(user)
                || !t(delivery)
                || deliveryFee.isNone()
                || !t(design)
                || designFee.isNone()
                || !t(address)) {
            return ps(
                    "Error: Missing required parameters. Required: account_id, user_id, delivery_option, delivery_fee, card_design, design_fee, shipping_address.");
        }
        List<String> deliveries = List.of("STANDARD", "EXPEDITED", "RUSH");
        if (!deliveries.contains(BankPy.upper(delivery)))
            return ps("Error: Invalid delivery_option. Must be one of: " + listRepr(deliveries));
        String deliveryOption = BankPy.upper(delivery);
        List<String> designs = List.of("CLASSIC", "PREMIUM", "CUSTOM");
        if (!designs.contains(BankPy.upper(design)))
            return ps("Error: Invalid card_design. Must be one of: " + listRepr(designs));
        String cardDesign = BankPy.upper(design);
        PyDict acc = row(c, "accounts", account);
        if (acc == null) return ps("Error: Account '" + s(account) + "' not found.");
        if (!eq(get(acc, "class"), "checking")) {
            return ps("Error: Debit cards can only be ordered for checking accounts. Account '" + s(account) + "' is a "
                    + s(get(acc, "class")) + " account.");
        }
        if (!eq(get(acc, "status"), "OPEN"))
            return ps("Error: Account must be OPEN. Account '" + s(account) + "' has status: " + s(get(acc, "status")));
        if (!eq(get(acc, "user_id"), user))
            return ps("Error: Account '" + s(account) + "' does not belong to user '" + s(user) + "'.");
        double holdings;
        try {
            // Quirk kept: only "," is stripped, so a "$..." balance is a ValueError and counts as 0.0
            holdings =
                    PyBuiltins.toFloat(ps(s(get(acc, "current_holdings", "0")).replace(",", "")));
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError")) throw e;
            holdings = 0.0;
        }
        if (holdings < 25.0)
            return ps("Error: Account must have a minimum balance of $25. Current balance: $" + f2(holdings));
        for (Value o : DbQuery.table(c, "debit_card_orders").asMap().values()) {
            if (eq(get(o.asDict(), "account_id"), account) && eq(get(o.asDict(), "status"), "PENDING")) {
                return ps("Error: There is already a pending debit card order for account '" + s(account) + "'.");
            }
        }
        int active = 0;
        for (Value card : DbQuery.table(c, "debit_cards").asMap().values()) {
            if (eq(get(card.asDict(), "account_id"), account) && eq(get(card.asDict(), "status"), "ACTIVE")) active++;
        }
        if (active >= 1)
            return ps("Error: Account '" + s(account)
                    + "' already has an active debit card. Maximum 1 active card per checking account.");
        Value total = PyArith.add(PyArith.add(deliveryFee, designFee), excess);
        double totalFee = PyBuiltins.toDouble(total);
        if (totalFee > 0 && holdings < totalFee) {
            return ps("Error: Insufficient funds for fees. Total fees: $" + f2(total) + ". Current balance: $"
                    + f2(holdings));
        }
        String expected = switch (deliveryOption) {
            case "STANDARD" -> "7-10 business days";
            case "EXPEDITED" -> "3-5 business days";
            default -> "1-2 business days";
        };
        String orderId = "dcord_"
                + BankingTools.deterministicId(
                        "debit_card_order:" + s(account) + ":" + s(user) + ":" + deliveryOption, 12);
        PyDict order = PyDict.builder()
                .put("order_id", orderId)
                .put("account_id", account)
                .put("user_id", user)
                .put("delivery_option", deliveryOption)
                .put("card_design", cardDesign)
                .put("shipping_address", address)
                .put("delivery_fee", deliveryFee)
                .put("design_fee", designFee)
                .put("excess_replacement_fee", excess)
                .put("total_fee", total)
                .put("order_date", TODAY)
                .put("expected_delivery", expected)
                .put("status", "PENDING")
                .build();
        if (!DbQuery.add(c, "debit_card_orders", orderId, order))
            return ps("Error: Failed to create debit card order. Order may already exist.");
        double dFee = PyBuiltins.toDouble(deliveryFee),
                gFee = PyBuiltins.toDouble(designFee),
                xFee = PyBuiltins.toDouble(excess);
        if (totalFee > 0) {
            DbQuery.setField(c, "accounts", account.asStr(), "current_holdings", ps(f2(holdings - totalFee)));
            List<String> fees = new ArrayList<>();
            if (dFee > 0) fees.add("Delivery $" + s(deliveryFee));
            if (gFee > 0) fees.add("Design $" + s(designFee));
            if (xFee > 0) fees.add("Excess Replacement $" + PyFormat.format(excess, ".0f"));
            String txnId = "btxn_dcfee_" + orderId.substring(orderId.length() - 8);
            DbQuery.add(
                    c,
                    "bank_account_transaction_history",
                    txnId,
                    PyDict.builder()
                            .put("transaction_id", txnId)
                            .put("account_id", account)
                            .put("date", TODAY)
                            .put("description", "DEBIT CARD ORDER FEE - " + String.join(", ", fees))
                            .put("amount", PyArith.neg(total))
                            .put("type", "debit_card_fee")
                            .put("status", "posted")
                            .build());
        }
        String cardId =
                "dbc_" + BankingTools.deterministicId("debit_card:" + s(account) + ":" + s(user) + ":" + TODAY, 12);
        String seed = "card_details:" + cardId;
        String last4 = zfill(digits(BankingTools.deterministicId(seed + ":last4", 8)), 4);
        String cvv = zfill(digits(BankingTools.deterministicId(seed + ":cvv", 6)), 3);
        String holder = "CARDHOLDER";
        PyDict u = row(c, "users", user);
        if (u != null) holder = BankPy.upper(get(u, "name", "CARDHOLDER"));
        String expiration = "11/30/2029"; // order_date 11/14/2025: month 11 (30 days), year + 4
        List<PyDict> existing = new ArrayList<>();
        for (Value card : DbQuery.table(c, "debit_cards").asMap().values())
            if (eq(get(card.asDict(), "account_id"), account)) existing.add(card.asDict());
        PyDict closed = null;
        for (PyDict e : existing)
            if (eq(get(e, "status"), "CLOSED")) {
                closed = e;
                break;
            }
        Value issue;
        if (closed != null && t(closed)) {
            Value reason = get(closed, "closure_reason", "first_card");
            if (oneOf(reason, List.of("lost", "stolen", "fraud", "fraud_suspected")))
                issue = eq(reason, "fraud_suspected") ? ps("fraud") : reason;
            else issue = ps("first_card");
        } else if (!existing.isEmpty()) {
            issue = ps("first_card");
        } else {
            issue = ps("new_account");
        }
        DbQuery.add(
                c,
                "debit_cards",
                cardId,
                PyDict.builder()
                        .put("card_id", cardId)
                        .put("account_id", account)
                        .put("user_id", user)
                        .put("cardholder_name", holder)
                        .put("last_4_digits", last4)
                        .put("cvv", cvv)
                        .put("status", "PENDING")
                        .put("issue_date", TODAY)
                        .put("expiration_date", expiration)
                        .put("card_design", cardDesign)
                        .put("issue_reason", issue)
                        .build());
        List<String> parts = new ArrayList<>(
                List.of(
                        "Debit Card Order Confirmed",
                        "Order ID: " + orderId,
                        "Card ID: " + cardId,
                        "Linked Account: " + s(account),
                        "Delivery Option: " + deliveryOption,
                        "Card Design: " + cardDesign,
                        "Shipping Address: " + s(address),
                        "Expected Delivery: " + expected,
                        "",
                        "Note: Card will arrive with status PENDING. Customer must call to activate after receiving the card."));
        if (totalFee > 0) {
            List<String> details = new ArrayList<>();
            if (dFee > 0) details.add("Delivery: $" + s(deliveryFee));
            if (gFee > 0) details.add("Design: $" + s(designFee));
            if (xFee > 0) details.add("Excess Replacement: $" + PyFormat.format(excess, ".0f"));
            parts.add("Total Fees: $" + f2(total) + " (" + String.join(", ", details) + ") - CHARGED to account "
                    + s(account));
            parts.add("New Account Balance: $" + f2(holdings - totalFee));
        } else {
            parts.add("Total Fees: $0 (No additional charges)");
        }
        return ps(String.join("\n", parts));
    }

    private static String digits(String hex) {
        StringBuilder sb = new StringBuilder();
        for (char ch : hex.toCharArray()) if (ch >= '0' && ch <= '9') sb.append(ch);
        return sb.toString();
    }

    /** {@code s[:n].zfill(n)}. */
    private static String zfill(String s, int n) {
        String t = s.length() > n ? s.substring(0, n) : s;
        return "0".repeat(n - t.length()) + t;
    }

    private static Value closeDebitCard(WorldCell c, Args a) {
        Value card = a.get("card_id"), reasonArg = a.get("reason");
        if (!t(card) || !t(reasonArg)) return ps("Error: Missing required parameters. Required: card_id, reason.");
        List<String> reasons =
                List.of("lost", "stolen", "fraud_suspected", "damaged", "no_longer_needed", "account_closing");
        if (!reasons.contains(lower(reasonArg)))
            return ps("Error: Invalid reason. Must be one of: " + listRepr(reasons));
        Value reason = ps(lower(reasonArg));
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (!oneOf(get(d, "status"), List.of("ACTIVE", "PENDING"))) {
            return ps("Error: Debit card '" + s(card) + "' cannot be closed. Current status: " + s(get(d, "status"))
                    + ". Only ACTIVE or PENDING cards can be closed.");
        }
        Value previous = get(d, "status");
        set(c, card, "status", "CLOSED");
        set(c, card, "closed_date", TODAY);
        set(c, card, "closure_reason", reason);
        List<String> parts = new ArrayList<>(List.of(
                "Debit Card Closed Successfully",
                "Card ID: " + s(card),
                "Previous Status: " + s(previous),
                "New Status: CLOSED",
                "Closure Reason: " + title(reason),
                "Closure Date: " + TODAY,
                ""));
        if (oneOf(reason, List.of("lost", "stolen", "fraud_suspected"))) {
            parts.add("IMPORTANT: This card has been immediately deactivated for security.");
            parts.add("Any pending transactions may still be processed.");
            if (eq(reason, "fraud_suspected")) {
                parts.add(
                        "Please advise the customer to review recent transactions and file disputes for any unauthorized charges.");
                parts.add("Also recommend changing their online banking password.");
            }
        }
        parts.add("");
        parts.add(
                "Note: This card cannot be reactivated. If the customer needs a new card, they can order one through the standard ordering process.");
        parts.add("Any recurring payments linked to this card will need to be updated with new payment information.");
        return ps(String.join("\n", parts));
    }

    private static Value freeze(WorldCell c, Args a) {
        Value card = a.get("card_id");
        if (!t(card)) return ps("Error: Missing required parameter: card_id.");
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (eq(get(d, "status"), "FROZEN")) return ps("Error: Debit card '" + s(card) + "' is already frozen.");
        if (!eq(get(d, "status"), "ACTIVE")) {
            return ps("Error: Debit card '" + s(card) + "' cannot be frozen. Current status: " + s(get(d, "status"))
                    + ". Only ACTIVE cards can be frozen.");
        }
        set(c, card, "status", "FROZEN");
        set(c, card, "frozen_date", TODAY);
        return ps(String.join(
                "\n",
                List.of(
                        "Debit Card Frozen Successfully",
                        "Card ID: " + s(card),
                        "Status: FROZEN",
                        "Frozen Date: " + TODAY,
                        "",
                        "While frozen:",
                        "- All new purchase transactions will be declined",
                        "- Recurring payments and subscriptions will be declined",
                        "- Pending transactions already authorized may still process",
                        "",
                        "To unfreeze, the customer can call customer service or use the mobile app.",
                        "If the card is confirmed lost or stolen, recommend closing the card permanently instead.")));
    }

    private static Value unfreeze(WorldCell c, Args a) {
        Value card = a.get("card_id");
        if (!t(card)) return ps("Error: Missing required parameter: card_id.");
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (eq(get(d, "status"), "ACTIVE")) return ps("Error: Debit card '" + s(card) + "' is already active.");
        if (!eq(get(d, "status"), "FROZEN")) {
            return ps("Error: Debit card '" + s(card) + "' cannot be unfrozen. Current status: " + s(get(d, "status"))
                    + ". Only FROZEN cards can be unfrozen.");
        }
        Value account = get(d, "account_id");
        if (t(account)) {
            PyDict acc = row(c, "accounts", account);
            if (acc != null && !eq(get(acc, "status"), "OPEN")) {
                return ps("Error: The linked checking account '" + s(account)
                        + "' is no longer open. Card cannot be unfrozen.");
            }
        }
        set(c, card, "status", "ACTIVE");
        set(c, card, "unfrozen_date", TODAY);
        return ps(String.join(
                "\n",
                List.of(
                        "Debit Card Unfrozen Successfully",
                        "Card ID: " + s(card),
                        "Status: ACTIVE",
                        "Unfrozen Date: " + TODAY,
                        "",
                        "The card is now active and ready to use immediately.",
                        "All transactions will process normally.")));
    }

    private static Value clearFraudAlert(WorldCell c, Args a) {
        Value card = a.get("card_id"), reason = a.get("reason");
        if (!t(card)) return ps("Error: Missing required parameter: card_id.");
        if (!t(reason)) return ps("Error: Missing required parameter: reason.");
        List<String> reasons = List.of("customer_verified", "velocity_clear");
        if (!oneOf(reason, reasons))
            return ps("Error: Invalid reason '" + s(reason) + "'. Must be one of: " + String.join(", ", reasons));
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (eq(reason, "velocity_clear")) {
            if (!t(get(d, "velocity_blocked", PyBool.FALSE)))
                return ps("Error: Debit card '" + s(card) + "' does not have an active velocity block.");
            set(c, card, "velocity_blocked", PyBool.FALSE);
            set(c, card, "velocity_cleared_date", TODAY);
            return ps(String.join(
                    "\n",
                    List.of(
                            "Velocity Block Cleared Successfully",
                            "Card ID: " + s(card),
                            "Cleared Date: " + TODAY,
                            "",
                            "The card is now unblocked and ready for normal use.",
                            "The velocity monitoring will continue - if the same unusual patterns recur,",
                            "the card may be blocked again automatically.")));
        }
        if (!t(get(d, "fraud_alert_active", PyBool.FALSE)))
            return ps("Error: Debit card '" + s(card) + "' does not have an active fraud alert.");
        if (eq(get(d, "alert_source"), "bank_initiated")) {
            return ps(
                    "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud detection system and cannot be cleared by "
                            + "customer service agents. Please transfer the customer to the security team using transfer_to_human_agents.");
        }
        set(c, card, "fraud_alert_active", PyBool.FALSE);
        set(c, card, "alert_source", PyNone.NONE);
        set(c, card, "fraud_alert_cleared_date", TODAY);
        return ps(String.join(
                "\n",
                List.of(
                        "Fraud Alert Cleared Successfully",
                        "Card ID: " + s(card),
                        "Cleared Date: " + TODAY,
                        "",
                        "The fraud alert has been removed from the card.",
                        "All transactions will process normally.",
                        "",
                        "Remind the customer to review recent transactions and report any unauthorized charges.")));
    }

    private static Value resetPin(WorldCell c, Args a) {
        Value card = a.get("card_id"), last4 = a.get("last_4_digits"), pin = a.get("new_pin");
        if (!t(card) || !t(last4) || !t(pin))
            return ps("Error: Missing required parameters. Required: card_id, last_4_digits, new_pin.");
        if (!isdigit(last4) || len(last4) != 4) return ps("Error: Last 4 digits must be exactly 4 digits.");
        String pinError = validatePin(pin);
        if (pinError != null) return ps("Error: " + pinError);
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (!eq(get(d, "last_4_digits"), last4))
            return ps("Error: Card verification failed. The last 4 digits do not match our records.");
        if (!eq(get(d, "status"), "ACTIVE")) {
            return ps("Error: Cannot reset PIN. Card status is " + s(get(d, "status"))
                    + ". Only ACTIVE cards can have their PIN reset.");
        }
        set(c, card, "pin_last_changed", TODAY);
        set(c, card, "pin_locked", PyBool.FALSE);
        set(c, card, "pin_attempts_remaining", PyInt.of(3));
        return ps(String.join(
                "\n",
                List.of(
                        "Debit Card PIN Reset Successfully",
                        "Card ID: " + s(card),
                        "PIN Changed: " + TODAY,
                        "",
                        "The new PIN is effective immediately.",
                        "Your card has been unlocked and is ready to use.",
                        "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
                        "",
                        "Security reminder: Never share your PIN with anyone.")));
    }

    private static Value changePin(WorldCell c, Args a) {
        Value card = a.get("card_id"), current = a.get("current_pin"), pin = a.get("new_pin");
        if (!t(card) || !t(current) || !t(pin))
            return ps("Error: Missing required parameters. Required: card_id, current_pin, new_pin.");
        if (!isdigit(current) || len(current) != 4) return ps("Error: Current PIN must be exactly 4 digits.");
        String pinError = validatePin(pin);
        if (pinError != null) return ps("Error: " + pinError);
        if (eq(current, pin)) return ps("Error: New PIN must be different from current PIN.");
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (!eq(get(d, "status"), "ACTIVE")) {
            return ps("Error: Cannot change PIN. Card status is " + s(get(d, "status"))
                    + ". Only ACTIVE cards can have their PIN changed.");
        }
        set(c, card, "pin_last_changed", TODAY);
        return ps(String.join(
                "\n",
                List.of(
                        "Debit Card PIN Changed Successfully",
                        "Card ID: " + s(card),
                        "PIN Changed: " + TODAY,
                        "",
                        "The new PIN is effective immediately.",
                        "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
                        "",
                        "Security reminder: Never share your PIN with anyone.")));
    }

    private static Value cardsByAccount(WorldCell c, Args a) {
        Value account = a.get("account_id");
        if (!t(account)) return ps("Error: Missing required parameter 'account_id'.");
        PyDict acc = row(c, "accounts", account);
        if (acc == null) return ps("Error: Account '" + s(account) + "' not found.");
        String cls = lower(get(acc, "class", ""));
        if (!cls.equals("checking") && !cls.equals("business_checking")) {
            return ps("Error: Account '" + s(account)
                    + "' is not a checking account. Debit cards are only available for checking accounts.");
        }
        List<PyDict> cards = new ArrayList<>();
        for (Map.Entry<String, Value> e : DbQuery.table(c, "debit_cards").entries()) {
            PyDict card = e.getValue().asDict();
            if (!eq(get(card, "account_id"), account)) continue;
            PyDict info = PyDict.of("card_id", e.getKey());
            for (Map.Entry<String, Value> f : card.entries()) info = info.with(f.getKey(), f.getValue());
            if (info.containsKey("last_4_digits") && !info.containsKey("card_number_last_4")) {
                Value v = info.get("last_4_digits");
                info = info.without("last_4_digits").with("card_number_last_4", v);
            }
            if (info.containsKey("issue_date") && !info.containsKey("date_issued")) {
                Value v = info.get("issue_date");
                info = info.without("issue_date").with("date_issued", v);
            } else if (info.containsKey("created_date") && !info.containsKey("date_issued")) {
                Value v = info.get("created_date");
                info = info.without("created_date").with("date_issued", v);
            }
            cards.add(info);
        }
        if (cards.isEmpty()) return ps("No debit cards found for account '" + s(account) + "'.");
        // account_cards.sort(key=lambda x: x.get('date_issued') or '', reverse=True): stable, descending
        List<PyDict> sorted = new ArrayList<>(cards);
        java.util.Comparator<PyDict> byDate = (x, y) -> {
            Value kx = dateIssued(x), ky = dateIssued(y);
            return PyOps.lt(kx, ky) ? -1 : PyOps.lt(ky, kx) ? 1 : 0;
        };
        sorted.sort(byDate.reversed());
        return ps(BankingTools.jsonIndent2(
                PyList.of(sorted.stream().map(d -> (Value) d).toList())));
    }

    private static Value dateIssued(PyDict d) {
        Value v = get(d, "date_issued");
        return t(v) ? v : ps("");
    }

    private static final Map<String, Integer> DEFAULT_ATM_LIMITS = Map.of(
            "blue account",
            500,
            "green account",
            600,
            "light blue account",
            400,
            "green fee-free account",
            500,
            "evergreen account",
            750,
            "bluest account",
            1500,
            "dark green account",
            300,
            "gold years account",
            600,
            "purple account",
            1000);

    private static Value temporaryLimitIncrease(WorldCell c, Args a) {
        Value card = a.get("card_id"), type = a.get("limit_type"), limitArg = a.get("new_limit");
        if (!t(card)) return ps("Error: Missing required parameter: card_id.");
        if (!t(type)) return ps("Error: Missing required parameter: limit_type.");
        if (!oneOf(type, List.of("atm", "purchase")))
            return ps("Error: Invalid limit_type '" + s(type) + "'. Must be 'atm' or 'purchase'.");
        if (limitArg.isNone()) return ps("Error: Missing required parameter: new_limit.");
        double f;
        try {
            f = PyBuiltins.toFloat(limitArg);
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError") && !e.pyType().equals("TypeError")) throw e;
            return ps("Error: new_limit must be an integer, got '" + s(limitArg) + "'.");
        }
        if (Double.isNaN(f) || Double.isInfinite(f) || f != Math.rint(f)) {
            return ps("Error: new_limit must be an integer, got '" + s(new PyFloat(f)) + "'.");
        }
        PyInt newLimit = PyBuiltins.intOf(new PyFloat(f));
        if (newLimit.value().signum() <= 0) return ps("Error: new_limit must be a positive amount.");
        PyDict d = row(c, "debit_cards", card);
        if (d == null) return ps("Error: Debit card '" + s(card) + "' not found.");
        if (!eq(get(d, "status"), "ACTIVE")) {
            return ps("Error: Debit card '" + s(card) + "' is not active. Current status: " + s(get(d, "status"))
                    + ". Only ACTIVE cards can have limit increases.");
        }
        Value accountId = get(d, "account_id");
        PyDict acc = t(accountId) ? row(c, "accounts", accountId) : null;
        if (acc == null) return ps("Error: Could not find linked account for debit card '" + s(card) + "'.");
        if (!eq(get(acc, "status"), "OPEN")) {
            return ps("Error: The linked account '" + s(accountId) + "' is not in good standing. Account status: "
                    + s(get(acc, "status")) + ".");
        }
        Value opened = get(acc, "date_opened");
        if (t(opened)) {
            try {
                LocalDateTime o = PyDates.strptime(opened, "%m/%d/%Y");
                long age = Math.floorDiv(ChronoUnit.SECONDS.between(o, LocalDateTime.of(2025, 11, 14, 0, 0)), 86_400L);
                if (age < 60) {
                    return ps(
                            "Error: Account must be at least 60 days old for a temporary limit increase. Account age: "
                                    + age + " days.");
                }
            } catch (PyException e) {
                if (!e.pyType().equals("ValueError")) throw e;
            }
        }
        String field, name;
        Value current;
        String limitType = type.asStr();
        if (limitType.equals("atm")) {
            current = get(d, "daily_atm_limit");
            field = "daily_atm_limit";
            name = "Daily ATM Withdrawal Limit";
            if (current.isNone()) {
                String level = lower(get(acc, "level", ""));
                if (level.contains("light green")) {
                    return ps(
                            "Error: Light Green Account (teen checking) cards have policy-based limits that cannot be modified. The daily ATM "
                                    + "withdrawal limit of $150 is fixed by account policy for safety reasons. The customer may request the parent/guardian "
                                    + "to withdraw cash from their own account if needed.");
                }
                Integer dflt = DEFAULT_ATM_LIMITS.get(level);
                if (dflt == null) {
                    return ps("Error: Could not determine the default ATM limit for account type '"
                            + s(get(acc, "level")) + "'. Please verify the account type.");
                }
                current = PyInt.of(dflt);
            }
        } else {
            current = get(d, "daily_purchase_limit");
            field = "daily_purchase_limit";
            name = "Daily Purchase Limit";
        }
        if (current.isNone()) {
            return ps("Error: The card does not have a " + PyStrings.lower(name)
                    + " configured. This may be a restricted account type where "
                    + "limits are set by account policy and cannot be modified.");
        }
        PyInt max = PyBuiltins.intOf(PyArith.mul(current, new PyFloat(1.5)));
        if (PyOps.gt(newLimit, max)) {
            return ps("Error: Requested limit $" + s(newLimit)
                    + " exceeds the maximum allowed temporary increase. Maximum temporary limit is $" + s(max)
                    + " (150% of current $" + s(current) + " limit).");
        }
        if (PyOps.le(newLimit, current)) {
            return ps("Error: Requested limit $" + s(newLimit) + " is not higher than the current limit of $"
                    + s(current) + ".");
        }
        Value original = current;
        set(c, card, field, newLimit);
        set(c, card, "temporary_" + limitType + "_limit_increase", PyBool.TRUE);
        set(c, card, "original_" + limitType + "_limit", original);
        set(c, card, "temporary_" + limitType + "_limit_expires", TODAY);
        return ps(String.join(
                "\n",
                List.of(
                        "Temporary " + name + " Increase Granted Successfully",
                        "Card ID: " + s(card),
                        "Previous Limit: $" + s(original),
                        "New Temporary Limit: $" + s(newLimit),
                        "Increase Amount: $" + s(PyArith.sub(newLimit, original)),
                        "",
                        "Important Information:",
                        "- This temporary increase expires in 24 hours",
                        "- After expiration, the limit will revert to $" + s(original),
                        "- Only one temporary increase is allowed per 24-hour period",
                        "",
                        "Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its own",
                        "per-transaction or daily limits that Rho-Bank cannot override. The customer may need to",
                        "use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.")));
    }
}
