package brokkr.domains.tau2.banking;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.tool.Args;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Map;

/**
 * The 4 user-discoverable tools of {@code KnowledgeUserTools} (tools.py): each checks that the agent gave
 * it ({@code _check_tool_given}: a {@code user_discoverable_tools} query by the f-string constraint),
 * logs the call ({@code _log_user_tool_call}) and runs its business logic.
 */
final class UserDiscoverableTools {
    private UserDiscoverableTools() {}

    private static final Map<String, ToolFunction> BODIES = Map.of(
            "submit_cash_back_dispute_0589", UserDiscoverableTools::submitCashBackDispute,
            "get_referral_link", UserDiscoverableTools::getReferralLink,
            "get_card_last_4_digits", UserDiscoverableTools::getCardLast4Digits,
            "deposit_check_3847", UserDiscoverableTools::depositCheck);

    static ToolFunction body(String name) {
        ToolFunction f = BODIES.get(name);
        if (f == null) throw new IllegalStateException("no body for user discoverable tool " + name);
        return f;
    }

    private static String str(Value v) {
        return BankingTools.str(v);
    }

    private static String checkGiven(WorldCell c, String tool) {
        String r = DbQuery.queryBy(c, "user_discoverable_tools", "tool_name", new PyStr(tool));
        if (r.contains("No records found")) {
            return "Error: Tool '" + tool + "' has not been given to you by the agent. "
                    + "The agent must first use `give_discoverable_user_tool` to give this tool to you.";
        }
        return null;
    }

    private static void logCall(WorldCell c, String tool, PyDict args) {
        String id = BankingTools.deterministicId(
                "user_discoverable_tool_call:" + tool + ":"
                        + brokkr.python.PyJson.dumps(args, brokkr.python.PyJson.DumpOptions.SORTED),
                16);
        DbQuery.add(
                c,
                "user_discoverable_tool_calls",
                id,
                PyDict.builder()
                        .put("tool_name", tool)
                        .put("arguments", args)
                        .put("called_at", BankingTools.TODAY)
                        .put("status", "CALLED")
                        .build());
    }

    private static Value submitCashBackDispute(WorldCell c, Args a) {
        String tool = "submit_cash_back_dispute_0589";
        String err = checkGiven(c, tool);
        if (err != null) return new PyStr(err);
        Value userId = a.get("user_id"), txn = a.get("transaction_id");
        PyDict args = PyDict.of("user_id", userId, "transaction_id", txn);
        logCall(c, tool, args);
        String disputeId = "dsp_" + BankingTools.deterministicId("dispute:" + str(userId) + ":" + str(txn), 12);
        boolean autoResolve = false;
        PyDict config = DbQuery.table(c, "task_config");
        if (!config.isEmpty()) {
            Value settings = config.getOrDefault("dispute_settings", PyDict.empty());
            autoResolve = PyBuiltins.truthy(getOr(settings, "auto_resolve_disputes", brokkr.value.PyBool.FALSE));
        }
        PyDict.Builder rec = PyDict.builder()
                .put("dispute_id", disputeId)
                .put("user_id", userId)
                .put("transaction_id", txn)
                .put("submitted_at", BankingTools.TODAY);
        String status;
        if (autoResolve) {
            rec.put("status", "RESOLVED").put("resolution", "APPROVED");
            status =
                    "Status: RESOLVED - The dispute has been reviewed and approved. The transaction rewards need to be updated.";
        } else {
            rec.put("status", "SUBMITTED");
            status = "Status: SUBMITTED - Your dispute has been queued for review.";
        }
        boolean ok = DbQuery.add(c, "cash_back_disputes", disputeId, rec.build());
        String result = "Cash back dispute submitted successfully. Your case has been queued for review.\n\nExecuted: "
                + tool + "\nArguments: " + BankingTools.jsonIndent2(args) + "\n";
        result += ok
                ? "Dispute ID: " + disputeId + "\n" + status
                : "Note: Dispute may have already been submitted for this transaction.";
        return new PyStr(result);
    }

    /** {@code d.get(key, default)} on a value that must be a dict. */
    static Value getOr(Value d, String key, Value dflt) {
        if (!(d instanceof PyDict dict)) throw PyBuiltins.attributeError(d, "get");
        return dict.getOrDefault(key, dflt);
    }

    private static Value getReferralLink(WorldCell c, Args a) {
        String tool = "get_referral_link";
        String err = checkGiven(c, tool);
        if (err != null) return new PyStr(err);
        Value userId = a.get("user_id"), card = a.get("card_name");
        PyDict args = PyDict.of("user_id", userId, "card_name", card);
        logCall(c, tool, args);
        String id = BankingTools.deterministicId("referral_link:" + str(userId) + ":" + str(card), 16);
        boolean ok = DbQuery.add(
                c,
                "referrals",
                id,
                PyDict.builder()
                        .put("referral_id", id)
                        .put("referrer_id", userId)
                        .put("referred_account_type", card)
                        .put("referral_status", "NO_PROGRESS")
                        .put("date", BankingTools.TODAY)
                        .build());
        String result =
                "Referral link generated successfully. Share this link with the person you want to refer.\n\nExecuted: "
                        + tool + "\nArguments: " + BankingTools.jsonIndent2(args) + "\n";
        result += ok
                ? "Referral ID: " + id + "\nReferral link: https://rhobank.com/refer/" + id
                : "Note: A referral link for this card may have already been generated.";
        return new PyStr(result);
    }

    private static Value getCardLast4Digits(WorldCell c, Args a) {
        String tool = "get_card_last_4_digits";
        String err = checkGiven(c, tool);
        if (err != null) return new PyStr(err);
        Value id = a.get("credit_card_account_id");
        PyDict args = PyDict.of("credit_card_account_id", id);
        logCall(c, tool, args);
        String r = DbQuery.queryBy(c, "credit_card_accounts", "account_id", id);
        if (r.contains("No results found") || r.contains("No records found")) {
            return new PyStr("Error: Credit card account '" + str(id) + "' not found.");
        }
        String digest = BankingTools.sha256Hex("card_last4:" + str(id));
        StringBuilder last4 = new StringBuilder();
        for (char ch : digest.toCharArray()) {
            if (Character.isDigit(ch)) {
                last4.append(ch);
                if (last4.length() == 4) break;
            }
        }
        while (last4.length() < 4) last4.append('0');
        return new PyStr("Card information retrieved successfully.\n\nExecuted: " + tool + "\nArguments: "
                + BankingTools.jsonIndent2(args) + "\nLast 4 digits of card: " + last4);
    }

    private static Value depositCheck(WorldCell c, Args a) {
        String tool = "deposit_check_3847";
        String err = checkGiven(c, tool);
        if (err != null) return new PyStr(err);
        Value accountId = a.get("account_id"), amountArg = a.get("check_amount");
        PyDict args = PyDict.of("account_id", accountId, "check_amount", amountArg);
        logCall(c, tool, args);
        double amount;
        try {
            amount = PyBuiltins.toFloat(amountArg);
        } catch (PyException e) {
            if (!e.pyType().equals("TypeError") && !e.pyType().equals("ValueError")) throw e;
            return new PyStr("Error: Invalid check amount '" + str(amountArg) + "'. Must be a number.");
        }
        if (amount <= 0) return new PyStr("Error: Check amount must be positive.");
        PyBuiltins.requireHashable(accountId);
        PyDict account = accountId instanceof PyStr s ? DbQuery.record(c, "accounts", s.value()) : null;
        if (account == null) return new PyStr("Error: Account '" + str(accountId) + "' not found.");
        if (!PyBuiltins.inStrSet(account.getOrDefault("status", brokkr.value.PyNone.NONE), "ACTIVE", "OPEN")) {
            return new PyStr("Error: Account '" + str(accountId) + "' is not active.");
        }
        double current = AgentDiscoverableTools.parseBalance(
                account.getOrDefault("current_holdings", account.getOrDefault("balance", brokkr.value.PyInt.of(0))));
        double balance = current + amount;
        DbQuery.setField(
                c,
                "accounts",
                ((PyStr) accountId).value(),
                "current_holdings",
                new PyStr("$" + PyFormat.fixed(balance, 2)));
        return new PyStr(
                "Check deposited successfully. Funds will be available according to your account's deposit policy.\n\n"
                        + "Executed: " + tool + "\nArguments: " + BankingTools.jsonIndent2(args)
                        + "\nCheck deposit processed!\n  - Account: "
                        + str(accountId) + "\n  - Check Amount: $" + PyFormat.fixed(amount, 2)
                        + "\n  - Previous Balance: $"
                        + PyFormat.fixed(current, 2) + "\n  - New Balance: $" + PyFormat.fixed(balance, 2));
    }
}
