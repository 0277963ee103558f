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

import brokkr.python.PyBuiltins;
import brokkr.python.PyDates;
import brokkr.python.PyException;
import brokkr.python.PyRound;
import brokkr.python.PyStrings;
import brokkr.tool.Args;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Agent-discoverable tools of {@code KnowledgeTools} (tools.py) for bank accounts: open, close, list, transfer, credit, report. */
final class BankAccountTools {
    private BankAccountTools() {}

    static final Map<String, ToolFunction> BODIES = Map.of(
            "open_bank_account_4821", BankAccountTools::openBankAccount,
            "close_bank_account_7392", BankAccountTools::closeBankAccount,
            "get_all_user_accounts_by_user_id_3847", BankAccountTools::allUserAccounts,
            "transfer_funds_between_bank_accounts_7291", BankAccountTools::transferFunds,
            "apply_checking_account_credit_5829", BankAccountTools::applyCheckingCredit,
            "apply_savings_account_credit_6831", BankAccountTools::applySavingsCredit,
            "submit_interest_discrepancy_report_7294", BankAccountTools::interestDiscrepancyReport,
            "get_bank_account_transactions_9173", BankAccountTools::bankAccountTransactions);

    /** {@code get_now()}. */
    static final LocalDateTime NOW = LocalDateTime.of(2025, 11, 14, 3, 40, 0);

    /** {@code (get_now() - date_opened).days}: whole days, floored. */
    static long daysSince(LocalDateTime opened) {
        return Math.floorDiv(Duration.between(opened, NOW).getSeconds(), 86_400L);
    }

    private static String lower(Value v) {
        if (!(v instanceof PyStr s)) throw PyBuiltins.attributeError(v, "lower");
        return PyStrings.lower(s.value());
    }

    private static boolean activeOrOpen(PyDict account) {
        return PyBuiltins.inStrSet(get(account, "status"), "ACTIVE", "OPEN");
    }

    private static Value openBankAccount(WorldCell c, Args a) {
        Value user = a.get("user_id"), type = a.get("account_type"), cls = a.get("account_class");
        if (!t(user) || !t(type) || !t(cls)) return ps("Error: Missing required parameters.");
        List<String> types = List.of("checking", "savings", "business_checking", "business_savings");
        if (!oneOf(type, types)) return ps("Error: Invalid account_type. Must be one of: " + listRepr(types));
        List<PyDict> accounts = new ArrayList<>();
        for (Value acc : DbQuery.table(c, "accounts").asMap().values())
            if (eq(get(acc.asDict(), "user_id"), user)) accounts.add(acc.asDict());
        if (eq(type, "savings")) {
            boolean eligible = false;
            for (PyDict acc : accounts) {
                Value accType = get(acc, "account_type", get(acc, "class", ""));
                if (oneOf(accType, List.of("checking", "personal_checking"))
                        && oneOf(get(acc, "status", ""), List.of("OPEN", "ACTIVE"))) {
                    if (ageDays(acc) >= 14) {
                        eligible = true;
                        break;
                    }
                }
            }
            if (!eligible) return ps("Error: Account eligibility requirements not met.");
        }
        if (eq(type, "business_checking")) {
            for (PyDict acc : accounts)
                if (eq(get(acc, "status"), "CLOSED")) return ps("Error: Account eligibility requirements not met.");
            boolean personal = false;
            for (PyDict acc : accounts) {
                if (oneOf(get(acc, "account_type", get(acc, "class", "")), List.of("checking", "personal_checking"))
                        && oneOf(get(acc, "status", ""), List.of("OPEN", "ACTIVE"))) {
                    personal = true;
                    break;
                }
            }
            if (!personal) return ps("Error: Account eligibility requirements not met.");
        }
        if (eq(type, "business_savings")) {
            for (PyDict acc : accounts) {
                if (AgentDiscoverableTools.accountBalance(acc) < 0)
                    return ps("Error: Account eligibility requirements not met.");
            }
            boolean eligible = false;
            for (PyDict acc : accounts) {
                if (eq(get(acc, "account_type", get(acc, "class", "")), "business_checking")
                        && oneOf(get(acc, "status", ""), List.of("OPEN", "ACTIVE"))) {
                    if (ageDays(acc) >= 30) {
                        eligible = true;
                        break;
                    }
                }
            }
            if (!eligible) return ps("Error: Account eligibility requirements not met.");
        }
        String id = BankingTools.deterministicId("account:" + s(user) + ":" + s(type) + ":" + s(cls), 16);
        PyDict rec = PyDict.builder()
                .put("account_id", id)
                .put("user_id", user)
                .put("account_type", type)
                .put("account_class", cls)
                .put("current_holdings", "0.00")
                .put("status", "OPEN")
                .put("date_opened", BankingTools.TODAY)
                .build();
        if (!DbQuery.add(c, "accounts", id, rec))
            return ps("Failed to open account: Account ID '" + id + "' may already exist.");
        return ps("Bank account opened successfully!\n  - Account ID: " + id + "\n  - User ID: " + s(user)
                + "\n  - Account Type: " + s(type) + "\n  - Account Class: " + s(cls)
                + "\n  - Status: OPEN\n  - Initial Balance: $0.00\n  - Date Opened: " + BankingTools.TODAY);
    }

    /** {@code get_account_age_days}: 0 when the date does not parse (ValueError only; a non-str raises TypeError). */
    private static long ageDays(PyDict acc) {
        try {
            return daysSince(PyDates.strptime(get(acc, "date_opened", ""), "%m/%d/%Y"));
        } catch (PyException e) {
            if (e.pyType().equals("ValueError")) return 0;
            throw e;
        }
    }

    private record EarlyClosure(int fee, int windowDays) {}

    private static final Map<String, EarlyClosure> CHECKING_EARLY_CLOSURE = Map.of(
            "Light Blue Account",
            new EarlyClosure(15, 30),
            "Light Green Account",
            new EarlyClosure(15, 30),
            "Green Fee-Free Account",
            new EarlyClosure(15, 30),
            "Blue Account",
            new EarlyClosure(25, 60),
            "Green Account",
            new EarlyClosure(25, 60),
            "Evergreen Account",
            new EarlyClosure(50, 90),
            "Bluest Account",
            new EarlyClosure(100, 180));

    private static final Map<String, EarlyClosure> SAVINGS_EARLY_CLOSURE = Map.of(
            "Bronze Account",
            new EarlyClosure(20, 60),
            "Silver Account",
            new EarlyClosure(35, 90),
            "Silver Plus Account",
            new EarlyClosure(35, 90),
            "Gold Account",
            new EarlyClosure(75, 180),
            "Gold Plus Account",
            new EarlyClosure(75, 180),
            "Gold Years Account",
            new EarlyClosure(75, 180),
            "Platinum Account",
            new EarlyClosure(150, 270),
            "Platinum Plus Account",
            new EarlyClosure(150, 270),
            "Diamond Elite Account",
            new EarlyClosure(150, 270));

    private static Value closeBankAccount(WorldCell c, Args a) {
        Value id = a.get("account_id"), reason = a.get("reason"), waive = a.get("waive_early_closure_fee");
        if (!t(id)) return ps("Error: Missing required parameter (account_id).");
        PyDict account = row(c, "accounts", id);
        if (account == null) return ps("Error: Account '" + s(id) + "' not found.");
        if (eq(get(account, "status"), "CLOSED")) return ps("Error: Account '" + s(id) + "' is already closed.");
        double balance = AgentDiscoverableTools.accountBalance(account);
        double fee = 0.0;
        if (!t(waive)) {
            Value level = get(account, "level", ""),
                    cls = get(account, "class", ""),
                    opened = get(account, "date_opened", "");
            EarlyClosure config = null;
            PyBuiltins.requireHashable(level);
            String lv = level instanceof PyStr ls ? ls.value() : null;
            if (eq(cls, "checking")) config = lv == null ? null : CHECKING_EARLY_CLOSURE.get(lv);
            // Quirk kept: accounts' class is "saving", never "savings", so the savings early-closure fee never applies
            else if (eq(cls, "savings")) config = lv == null ? null : SAVINGS_EARLY_CLOSURE.get(lv);
            if (config != null && t(opened)) {
                try {
                    long age = daysSince(PyDates.strptime(opened, "%m/%d/%Y"));
                    if (age < config.windowDays()) {
                        if (balance < config.fee()) return ps("Error: Account unable to be closed.");
                        fee = config.fee();
                    }
                } catch (PyException e) {
                    if (!e.pyType().equals("ValueError")) throw e;
                }
            }
        }
        double remaining = balance - fee;
        if (remaining != 0)
            return ps("Error: Account balance must be $0.00 before closing. Current balance: $" + f2(balance));
        String key = id.asStr();
        DbQuery.setField(c, "accounts", key, "status", ps("CLOSED"));
        DbQuery.setField(c, "accounts", key, "date_closed", ps(BankingTools.TODAY));
        DbQuery.setField(c, "accounts", key, "closure_reason", reason);
        DbQuery.setField(c, "accounts", key, "early_closure_fee_waived", waive);
        PyDict after = DbQuery.record(c, "accounts", key);
        return ps("Bank account closed successfully!\n  - Account ID: " + s(id) + "\n  - Account Type: "
                + s(get(after, "account_type", "N/A"))
                + "\n  - Account Class: " + s(get(after, "account_class", "N/A"))
                + "\n  - Status: CLOSED\n  - Date Closed: " + BankingTools.TODAY
                + "\n  - Reason: " + s(reason) + "\n  - Early Closure Fee Waived: " + (t(waive) ? "Yes" : "No"));
    }

    private static Value allUserAccounts(WorldCell c, Args a) {
        Value user = a.get("user_id");
        if (!t(user)) return ps("Error: Missing required parameter: user_id");
        String accounts = DbQuery.queryBy(c, "accounts", "user_id", user);
        String cards = DbQuery.queryBy(c, "credit_card_accounts", "user_id", user);
        List<String> parts = new ArrayList<>(List.of(
                "User accounts retrieved successfully.",
                "",
                "Executed: get_all_user_accounts_by_user_id_3847",
                "Accounts for user " + s(user) + ":",
                "",
                "Bank Accounts:"));
        parts.add(!BankPy.none(accounts) ? accounts : "  No bank accounts found.");
        parts.add("\nCredit Card Accounts:");
        parts.add(!BankPy.none(cards) ? cards : "  No credit card accounts found.");
        return ps(String.join("\n", parts));
    }

    private static Value transferFunds(WorldCell c, Args a) {
        Value src = a.get("source_account_id"), dst = a.get("destination_account_id"), amountArg = a.get("amount");
        if (!t(src) || !t(dst) || amountArg.isNone()) {
            return ps("Error: Missing required parameters (source_account_id, destination_account_id, amount).");
        }
        double amount;
        try {
            amount = PyBuiltins.toFloat(amountArg);
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError") && !e.pyType().equals("TypeError")) throw e;
            return ps("Error: Invalid amount '" + s(amountArg) + "'. Must be a number.");
        }
        if (amount <= 0) return ps("Error: Transfer amount must be positive.");
        if (eq(src, dst)) return ps("Error: Source and destination accounts cannot be the same.");
        PyDict source = row(c, "accounts", src);
        if (source == null) return ps("Error: Source account '" + s(src) + "' not found.");
        PyDict dest = row(c, "accounts", dst);
        if (dest == null) return ps("Error: Destination account '" + s(dst) + "' not found.");
        if (!activeOrOpen(source)) return ps("Error: Source account '" + s(src) + "' is not active.");
        if (!activeOrOpen(dest)) return ps("Error: Destination account '" + s(dst) + "' is not active.");
        double sb = AgentDiscoverableTools.accountBalance(source);
        if (sb < amount) {
            return ps("Error: Insufficient funds. Source account balance is $" + f2(sb) + ", but transfer amount is $"
                    + f2(amount) + ".");
        }
        double db = AgentDiscoverableTools.accountBalance(dest);
        double ns = sb - amount, nd = db + amount;
        DbQuery.setField(c, "accounts", src.asStr(), "current_holdings", ps("$" + f2(ns)));
        DbQuery.setField(c, "accounts", dst.asStr(), "current_holdings", ps("$" + f2(nd)));
        return ps("Transfer completed successfully!\n  - Amount: $" + f2(amount) + "\n  - From: " + s(src)
                + " (new balance: $" + f2(ns) + ")\n  - To: " + s(dst) + " (new balance: $" + f2(nd) + ")");
    }

    private static Value applyCheckingCredit(WorldCell c, Args a) {
        return applyCredit(c, a, List.of("rebate_credit", "fee_refund"), true);
    }

    private static Value applySavingsCredit(WorldCell c, Args a) {
        return applyCredit(c, a, List.of("interest_correction", "fee_refund", "goodwill_credit"), false);
    }

    /** {@code apply_checking_account_credit_5829} and {@code apply_savings_account_credit_6831}, which differ only where noted. */
    private static Value applyCredit(WorldCell c, Args a, List<String> types, boolean checking) {
        Value id = a.get("account_id"), amountArg = a.get("amount"), type = a.get("credit_type");
        if (!t(id) || amountArg.isNone() || !t(type)) return ps("Error: Missing required parameters.");
        double amount;
        try {
            amount = PyBuiltins.toFloat(amountArg);
        } catch (PyException e) {
            if (!e.pyType().equals("ValueError") && !e.pyType().equals("TypeError")) throw e;
            return ps("Error: Invalid credit amount. Must be a number.");
        }
        if (amount <= 0) return ps("Error: Credit amount must be positive.");
        if (!oneOf(type, types)) return ps("Error: Invalid credit_type. Must be one of: " + listRepr(types));
        PyDict account = row(c, "accounts", id);
        if (account == null) return ps("Error: Account '" + s(id) + "' not found.");
        String cls = lower(get(account, "class", ""));
        if (checking && !cls.equals("checking")) {
            return ps("Error: Account '" + s(id)
                    + "' is not a checking account. Credits can only be applied to checking accounts.");
        }
        if (!checking && !cls.equals("saving") && !cls.equals("savings")) {
            return ps("Error: Account '" + s(id)
                    + "' is not a savings account. This tool only applies to savings accounts.");
        }
        if (!activeOrOpen(account)) return ps("Error: Account '" + s(id) + "' is not active.");
        double current = AgentDiscoverableTools.accountBalance(account);
        double balance = current + amount;
        // checking writes "$x.xx", savings "x.xx" (as upstream)
        DbQuery.setField(c, "accounts", id.asStr(), "current_holdings", ps((checking ? "$" : "") + f2(balance)));
        String txnId = "txn_"
                + BankingTools.deterministicId(
                        (checking ? "checking_credit:" : "savings_credit:") + s(id) + ":" + s(type) + ":"
                                + s(new PyFloat(amount)) + ":" + BankingTools.TODAY,
                        16);
        String description = checking
                ? (eq(type, "rebate_credit") ? "REBATE CREDIT - CUSTOMER SERVICE" : "FEE REFUND - CUSTOMER SERVICE")
                : eq(type, "interest_correction")
                        ? "INTEREST CORRECTION - CUSTOMER SERVICE"
                        : eq(type, "fee_refund")
                                ? "FEE REFUND - CUSTOMER SERVICE"
                                : "GOODWILL CREDIT - CUSTOMER SERVICE";
        DbQuery.put(
                c,
                "bank_account_transaction_history",
                txnId,
                PyDict.builder()
                        .put("transaction_id", txnId)
                        .put("account_id", id)
                        .put("date", BankingTools.TODAY)
                        .put("description", description)
                        .put("amount", new PyFloat(amount))
                        .put("type", type)
                        .put("status", "posted")
                        .build());
        return ps("\nCredit applied successfully!\n  - Transaction ID: " + txnId + "\n  - Account: " + s(id)
                + "\n  - Credit Type: " + s(type) + "\n  - Amount: $" + f2(amount) + "\n  - Previous Balance: $"
                + f2(current) + "\n  - New Balance: $" + f2(balance));
    }

    private static Value interestDiscrepancyReport(WorldCell c, Args a) {
        Value id = a.get("account_id"),
                user = a.get("user_id"),
                e = a.get("expected_apy"),
                ac = a.get("actual_apy"),
                d = a.get("amount_difference");
        if (!t(id) || !t(user) || e.isNone() || ac.isNone() || d.isNone())
            return ps("Error: Missing required parameters.");
        double expected, actual, diff;
        try {
            expected = PyBuiltins.toFloat(e);
            actual = PyBuiltins.toFloat(ac);
            diff = PyBuiltins.toFloat(d);
        } catch (PyException x) {
            if (!x.pyType().equals("ValueError") && !x.pyType().equals("TypeError")) throw x;
            return ps("Error: expected_apy, actual_apy, and amount_difference must be numbers.");
        }
        PyDict account = row(c, "accounts", id);
        if (account == null) return ps("Error: Account '" + s(id) + "' not found.");
        PyDict u = row(c, "users", user);
        if (u == null) return ps("Error: User '" + s(user) + "' not found.");
        String reportId = "IDR_"
                + BankingTools.deterministicId(
                        "interest_report:" + s(id) + ":" + s(user) + ":" + s(new PyFloat(expected)) + ":"
                                + s(new PyFloat(actual)) + ":" + BankingTools.TODAY,
                        16);
        // Quirk kept: add_to_db('interest_discrepancy_reports', ...) writes nothing (TransactionalDB has no such table)
        double apyDiff = PyRound.round(expected - actual, 4);
        return ps("\nInterest Discrepancy Report Submitted Successfully!\n  - Report ID: " + reportId
                + "\n  - Account: " + s(id) + " ("
                + s(get(account, "level", "Unknown")) + ")\n  - Customer: " + s(get(u, "name", "Unknown"))
                + "\n  - Expected APY: "
                + s(new PyFloat(expected)) + "%\n  - Actual APY: " + s(new PyFloat(actual)) + "%\n  - APY Difference: "
                + s(new PyFloat(apyDiff))
                + "%\n  - Amount Difference: $" + f2(diff)
                + "\n  - Status: PENDING_REVIEW\n\nThe backend team will investigate this discrepancy "
                + "and ensure correct APY calculations are applied going forward.");
    }

    private static Value bankAccountTransactions(WorldCell c, Args a) {
        Value id = a.get("account_id");
        if (!t(id)) return ps("Error: Missing required parameter: account_id");
        if (row(c, "accounts", id) == null) return ps("Error: Account '" + s(id) + "' not found.");
        List<DbQuery.Match> txns = DbQuery.queryDb(c, "bank_account_transaction_history", PyDict.of("account_id", id));
        // sorted(txns, key=txn_sort_key, reverse=True): stable; unparseable dates are datetime.min
        List<DbQuery.Match> sorted = new ArrayList<>(txns);
        sorted.sort(
                Comparator.comparing((DbQuery.Match m) -> sortKey(m.record())).reversed());
        List<String> parts = new ArrayList<>(List.of(
                "Bank account transactions retrieved successfully.",
                "",
                "Executed: get_bank_account_transactions_9173",
                "Transactions for account " + s(id) + ":"));
        if (!sorted.isEmpty()) {
            List<String> lines = new ArrayList<>();
            lines.add("Found " + sorted.size() + " record(s) in 'bank_account_transaction_history':\n");
            int i = 1;
            for (DbQuery.Match m : sorted) {
                lines.add((i++) + ". Record ID: " + m.id());
                for (Map.Entry<String, Value> f : m.record().entries())
                    lines.add("   " + f.getKey() + ": " + s(f.getValue()));
                lines.add("");
            }
            parts.add(String.join("\n", lines));
        } else {
            parts.add("\nNo transactions found for this account.");
        }
        return ps(String.join("\n", parts));
    }

    private static LocalDateTime sortKey(PyDict record) {
        Value date = new PyStr(s(get(record, "date", "")));
        for (String fmt : List.of("%m/%d/%Y %H:%M:%S", "%m/%d/%Y")) {
            try {
                return PyDates.strptime(date, fmt);
            } catch (PyException e) {
                if (!e.pyType().equals("ValueError")) throw e;
            }
        }
        return LocalDateTime.of(1, 1, 1, 0, 0);
    }
}
