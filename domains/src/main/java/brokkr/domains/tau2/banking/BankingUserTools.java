package brokkr.domains.tau2.banking;

import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyArith;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyJson;
import brokkr.python.PyJsonLoads;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.tool.Args;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code KnowledgeUserTools} (src/tau2/domains/banking_knowledge/tools.py): the customer's 6 tools and
 * the 4 user-discoverable tools (callable by name directly too), on the DB the agent's toolkit shares.
 */
final class BankingUserTools {
    private BankingUserTools() {}

    static final String CLS = "KnowledgeUserTools";
    static final java.util.Set<String> MUTATES = java.util.Set.of(
            "apply_for_credit_card",
            "submit_referral",
            "call_discoverable_user_tool",
            "request_human_agent_transfer",
            "submit_transaction");

    static final List<String> VALID_CREDIT_CARD_TYPES = List.of(
            "Bronze Rewards Card",
            "Business Bronze Rewards Card",
            "Business Gold Rewards Card",
            "Business Platinum Rewards Card",
            "Business Silver Rewards Card",
            "Crypto-Cash Back",
            "Diamond Elite Card",
            "EcoCard",
            "Gold Rewards Card",
            "Green Rewards Card",
            "Platinum Rewards Card",
            "Silver Rewards Card",
            "Silver Zoom Card");

    /** {@code CREDIT_CARD_REWARDS}: card type → category → percentage, in upstream's order. */
    static final Map<String, Map<String, Double>> REWARDS = new LinkedHashMap<>();

    static {
        rewards("Bronze Rewards Card", "default", 1.0);
        rewards("Silver Rewards Card", "Travel", 4.0, "Software", 4.0, "default", 1.0);
        rewards("Gold Rewards Card", "default", 2.5);
        rewards("Platinum Rewards Card", "default", 10.0);
        rewards("Business Bronze Rewards Card", "default", 1.0);
        rewards("Business Silver Rewards Card", "Travel", 10.0, "Software", 10.0, "default", 1.0);
        rewards("Green Rewards Card", "Sustainable", 3.0, "default", 1.0);
        rewards("Business Gold Rewards Card", "Operations", 2.5, "default", 1.0);
        rewards("Business Platinum Rewards Card", "Travel", 4.0, "Software", 4.0, "Media", 4.0, "default", 1.5);
        rewards("Silver Zoom Card", "Transportation", 3.0, "default", 1.0);
        rewards("Diamond Elite Card", "default", 5.0);
        rewards("EcoCard", "Green", 5.0, "default", 1.0);
        rewards("Crypto-Cash Back", "default", 2.0);
    }

    private static void rewards(String card, Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (Double) kv[i + 1]);
        REWARDS.put(card, m);
    }

    static Tau2Toolkit toolkit() {
        Map<String, ToolFunction> bodies = Map.of(
                "apply_for_credit_card", BankingUserTools::applyForCreditCard,
                "submit_referral", BankingUserTools::submitReferral,
                "call_discoverable_user_tool", BankingUserTools::callDiscoverableUserTool,
                "list_discoverable_user_tools", BankingUserTools::listDiscoverableUserTools,
                "request_human_agent_transfer", BankingUserTools::requestHumanAgentTransfer,
                "submit_transaction", BankingUserTools::submitTransaction);
        List<ToolDef> discoverable = Discoverable.users().stream()
                .map(d -> d.def(UserDiscoverableTools.body(d.name())))
                .toList();
        List<ToolDef> functions = List.of(new ToolDef(
                "query_database",
                CLS + ".query_database",
                List.of(Param.required("database_name"), Param.optional("constraints", new PyStr("{}"))),
                (c, a) -> new PyStr(DbQuery.queryTool(c, a.get("database_name"), a.get("constraints"))),
                false));
        return Tau2Toolkit.builder(CLS, BankingToolDocs.USER)
                .bodies(bodies)
                .mutating(MUTATES)
                .extraTools(discoverable)
                .functions(functions)
                .sharesAgentDb()
                .build();
    }

    static String str(Value v) {
        return PyRepr.str(v);
    }

    private static PyStr s(String v) {
        return new PyStr(v);
    }

    private static Value applyForCreditCard(WorldCell c, Args a) {
        Value cardType = a.get("card_type"), name = a.get("customer_name"), sub = a.get("rho_bank_subscription");
        if (!PyBuiltins.in(cardType, strList(VALID_CREDIT_CARD_TYPES))) {
            return s("Error: Invalid card_type '" + str(cardType) + "'. Must be one of: "
                    + PyRepr.repr(strList(VALID_CREDIT_CARD_TYPES)));
        }
        double income;
        try {
            income = PyBuiltins.toFloat(a.get("annual_income"));
        } catch (PyException e) {
            if (!e.pyType().equals("TypeError") && !e.pyType().equals("ValueError")) throw e;
            return s("Error: Invalid annual_income. Must be a number.");
        }
        PyFloat incomeV = new PyFloat(income);
        String id = BankingTools.deterministicId(
                "credit_card:" + str(cardType) + ":" + str(name) + ":" + str(incomeV) + ":" + str(sub), 16);
        PyDict record = PyDict.builder()
                .put("application_id", id)
                .put("card_type", cardType)
                .put("customer_name", name)
                .put("annual_income", incomeV)
                .put("rho_bank_subscription", sub)
                .put("status", "PENDING")
                .put("date", BankingTools.TODAY)
                .build();
        if (!DbQuery.add(c, "credit_card_applications", id, record)) {
            return s("Failed to submit application: Record ID '" + id + "' may already exist.");
        }
        return s("Credit card application submitted:\nYour application has been successfully submitted. "
                + "You will receive a decision within 5-7 business days via email.");
    }

    private static Value submitReferral(WorldCell c, Args a) {
        Value userId = a.get("user_id"), type = a.get("account_type");
        // ":".join(seed_parts): non-str parts are join's TypeError
        String id = BankingTools.deterministicId(join("referral", userId, type), 16);
        PyDict record = PyDict.builder()
                .put("referral_id", id)
                .put("referrer_id", userId)
                .put("referred_account_type", type)
                .put("referral_status", "NO_PROGRESS")
                .put("date", BankingTools.TODAY)
                .build();
        if (!DbQuery.add(c, "referrals", id, record))
            return s("Failed to submit referral: Record ID '" + id + "' may already exist.");
        return s(
                "Referral request submitted successfully!\n  - Referral ID: " + id + "\n  - Referrer ID: " + str(userId)
                        + "\n  - Account Type: " + str(type) + "\n  - Status: NO_PROGRESS\n  - Date: "
                        + BankingTools.TODAY + "\n\n"
                        + "Share your referral ID with the person you're referring. They will need to use this when applying for their account.");
    }

    /** {@code ":".join(parts)}: every part must be a str. */
    static String join(Object... parts) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            Object p = parts[i];
            if (p instanceof String s) out.add(s);
            else if (p instanceof PyStr s) out.add(s.value());
            else
                throw PyException.typeError(
                        "sequence item " + i + ": expected str instance, " + ((Value) p).typeName() + " found");
        }
        return String.join(":", out);
    }

    private static Value callDiscoverableUserTool(WorldCell c, Args a) {
        Value nameV = a.get("discoverable_tool_name");
        PyBuiltins.requireHashable(nameV);
        Discoverable d = nameV instanceof PyStr ns ? Discoverable.user(ns.value()) : null;
        if (d == null) return s("Error: Unknown discoverable tool '" + str(nameV) + "'.");
        Value args;
        try {
            args = PyJsonLoads.loads(a.get("arguments"), true); // parse_int=float, as the agent side
        } catch (PyJsonLoads.JSONDecodeError e) {
            return s("Error: Invalid JSON in arguments: " + e.str());
        }
        for (Param p : d.params()) {
            if (p.isRequired() && !PyBuiltins.in(new PyStr(p.name()), args))
                return s("Error: Missing required parameter: " + p.name());
        }
        for (Value k : PyBuiltins.iterate(args)) {
            if (!d.hasParam(k)) return s("Error: Unexpected parameter: " + str(k));
        }
        try {
            return d.invoke(UserDiscoverableTools.body(d.name()), c, args);
        } catch (PyException e) {
            if (!e.pyType().equals("TypeError")) throw e;
            return s("Error: Invalid arguments for tool '" + d.name() + "': " + e.str());
        }
    }

    private static Value listDiscoverableUserTools(WorldCell c, Args a) {
        String result = DbQuery.queryTool(c, s("user_discoverable_tools"), s("{}"));
        // Quirk kept: "No results found" is never produced (the dead branch of list_discoverable_user_tools).
        if (result.contains("No results found")) return s("No tools have been given to you yet by the agent.");
        return s("Tools given to you by the agent:\n" + result);
    }

    private static Value requestHumanAgentTransfer(WorldCell c, Args a) {
        String existing = DbQuery.queryTool(c, s("human_transfer_requests"), s("{}"));
        int count;
        if (existing.contains("No records found") || existing.contains("No results found")) count = 1;
        else count = countOccurrences(existing, "request_id") + 1;
        String id = "transfer_request_" + count;
        DbQuery.add(
                c,
                "human_transfer_requests",
                id,
                PyDict.builder()
                        .put("request_id", id)
                        .put("request_number", PyInt.of(count))
                        .put("requested_at", BankingTools.TODAY)
                        .put("status", "PENDING")
                        .build());
        return s("Transfer request #" + count + " submitted.\nThe agent will process your request.");
    }

    static int countOccurrences(String s, String sub) {
        int n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) n++;
        return n;
    }

    private static Value submitTransaction(WorldCell c, Args a) {
        Value userId = a.get("user_id"),
                card = a.get("credit_card_type"),
                merchant = a.get("merchant_name"),
                amount = a.get("amount"),
                category = a.get("category");
        PyBuiltins.requireHashable(card);
        Map<String, Double> rates = card instanceof PyStr cs ? REWARDS.get(cs.value()) : null;
        if (rates == null) {
            return s("Error: Unknown credit card type '" + str(card) + "'. Available types: "
                    + PyRepr.repr(strList(new ArrayList<>(REWARDS.keySet()))));
        }
        String amount2 = PyFormat.format(amount, ".2f");
        String id = "txn_"
                + BankingTools.deterministicId(join("transaction", userId, card, merchant, amount2, category), 12);
        PyBuiltins.requireHashable(category);
        Double rate = category instanceof PyStr cat && rates.containsKey(cat.value())
                ? rates.get(cat.value())
                : rates.get("default");
        // int(amount * reward_rate)
        Value product = PyArith.mul(amount, new PyFloat(rate));
        Value points = PyBuiltins.intOf(product);
        PyDict record = PyDict.builder()
                .put("transaction_id", id)
                .put("user_id", userId)
                .put("credit_card_type", card)
                .put("merchant_name", merchant)
                .put("transaction_amount", "$" + amount2)
                .put("transaction_date", BankingTools.TODAY)
                .put("category", category)
                .put("status", "COMPLETED")
                .put("rewards_earned", str(points) + " points")
                .build();
        if (!DbQuery.add(c, "credit_card_transaction_history", id, record)) {
            return s("Failed to submit transaction: Record ID '" + id + "' may already exist.");
        }
        return s("Transaction submitted successfully!\n  - Transaction ID: " + id + "\n  - User ID: " + str(userId)
                + "\n  - Card Type: "
                + str(card) + "\n  - Merchant: " + str(merchant) + "\n  - Amount: $" + amount2 + "\n  - Category: "
                + str(category)
                + "\n  - Date: " + BankingTools.TODAY + "\n  - Rewards Earned: " + str(points) + " points ("
                + str(new PyFloat(rate))
                + "% cashback rate)\n");
    }

    static PyList strList(List<String> xs) {
        return PyList.of(xs.stream().map(x -> (Value) new PyStr(x)).toList());
    }

    static String jsonIndent2(Value v) {
        return PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2));
    }

    static boolean lt(Value a, Value b) {
        return PyOps.lt(a, b);
    }
}
