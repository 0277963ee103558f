package brokkr.domains.tau2.banking;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyJsonLoads;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
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

/**
 * Upstream's {@code db_query} module (src/tau2/domains/banking_knowledge/db_query.py) over the
 * {@code TransactionalDB} dump in a {@link WorldCell}: {@code query_db} with its {@code field__op}
 * constraints, {@code add_to_db}, {@code update_record_in_db} and the tool wrapper
 * {@code query_database_tool} with its exact texts.
 */
final class DbQuery {
    private DbQuery() {}

    /** {@code _load_databases}: the tables {@code query_database_tool} can see (all of them), in its order. */
    static final List<String> QUERYABLE = List.of(
            "users",
            "accounts",
            "referrals",
            "credit_card_applications",
            "user_discoverable_tools",
            "user_discoverable_tool_calls",
            "agent_discoverable_tools",
            "task_config",
            "verification_history",
            "credit_card_transaction_history",
            "cash_back_disputes",
            "bank_account_transaction_history",
            "credit_card_accounts",
            "human_transfer_requests",
            "transaction_disputes",
            "credit_card_orders",
            "credit_card_closure_reasons",
            "credit_card_account_flags",
            "debit_cards",
            "debit_card_orders",
            "debit_card_disputes",
            "credit_limit_increase_requests",
            "payment_history");

    static PyDict table(WorldCell c, String name) {
        return db(c).get(name).asDict().get("data").asDict();
    }

    static PyDict db(WorldCell c) {
        return BankingTools.db(c);
    }

    /** {@code table.data[record_id]}, or null. */
    static PyDict record(WorldCell c, String tableName, String id) {
        Value v = table(c, tableName).get(id);
        return v == null ? null : v.asDict();
    }

    /** {@code table.data[record_id] = record} (in place, no checks). */
    static void put(WorldCell c, String tableName, String id, PyDict record) {
        PyDict db = db(c);
        PyDict t = db.get(tableName).asDict();
        BankingTools.setDb(
                c, db.with(tableName, t.with("data", t.get("data").asDict().with(id, record))));
    }

    /** {@code table.data[record_id][field] = value}. */
    static void setField(WorldCell c, String tableName, String id, String field, Value value) {
        put(c, tableName, id, record(c, tableName, id).with(field, value));
    }

    /** {@code add_to_db}: false (nothing written) when the id exists. */
    static boolean add(WorldCell c, String tableName, String id, PyDict record) {
        if (table(c, tableName).containsKey(id)) return false;
        put(c, tableName, id, record);
        return true;
    }

    /** {@code update_record_in_db}: the updated record, or null when the id is absent. */
    static PyDict update(WorldCell c, String tableName, String id, PyDict updates) {
        PyDict r = record(c, tableName, id);
        if (r == null) return null;
        for (Map.Entry<String, Value> e : updates.entries()) r = r.with(e.getKey(), e.getValue());
        put(c, tableName, id, r);
        return r;
    }

    /** One match of {@code query_db(..., return_ids=True)}. */
    record Match(String id, PyDict record) {}

    /**
     * {@code query_db(db_name, db=db, return_ids=True, **constraints)}: the constraint dict is bound as
     * keyword arguments, so its keys can collide with the function's parameters ({@code db_name},
     * {@code db}, {@code return_ids}) or set {@code limit} (JSON injected through a tool's f-string).
     */
    static List<Match> queryDb(WorldCell c, String dbName, Value constraints) {
        if (!(constraints instanceof PyDict cons)) {
            throw PyException.typeError(
                    "tau2.domains.banking_knowledge.db_query.query_db() argument after ** must be a mapping, not "
                            + constraints.typeName());
        }
        if (cons.containsKey("return_ids"))
            throw PyException.typeError("query_db() got multiple values for keyword argument 'return_ids'");
        if (cons.containsKey("db"))
            throw PyException.typeError("query_db() got multiple values for keyword argument 'db'");
        if (cons.containsKey("db_name"))
            throw PyException.typeError("query_db() got multiple values for argument 'db_name'");
        Value limit = cons.getOrDefault("limit", PyNone.NONE);
        PyDict filters = cons.without("limit");
        List<Match> out = new ArrayList<>();
        Value tableValue = db(c).get(dbName);
        if (tableValue == null) return out;
        for (Map.Entry<String, Value> e :
                tableValue.asDict().get("data").asDict().entries()) {
            PyDict rec = e.getValue().asDict();
            if (matches(rec, filters)) {
                out.add(new Match(e.getKey(), rec));
                if (!limit.isNone() && PyOps.ge(PyInt.of(out.size()), limit)) break;
            }
        }
        return out;
    }

    /** {@code _record_matches}: every constraint holds; a comparison raising TypeError or ValueError is a miss. */
    static boolean matches(PyDict record, PyDict constraints) {
        for (Map.Entry<String, Value> e : constraints.entries()) {
            String key = e.getKey();
            String field = key, op = "eq";
            int i = key.lastIndexOf("__");
            if (i >= 0) {
                field = key.substring(0, i);
                op = key.substring(i + 2);
            }
            Value actual = record.getOrDefault(field, PyNone.NONE);
            try {
                if (!compare(op, actual, e.getValue())) return false;
            } catch (PyException x) {
                if (x.pyType().equals("TypeError") || x.pyType().equals("ValueError")) return false;
                throw x;
            }
        }
        return true;
    }

    /** {@code _get_comparison_op(op)(a, b)}; an unknown operator name is {@code eq}. */
    private static boolean compare(String op, Value a, Value b) {
        return switch (op) {
            case "ne" -> PyOps.ne(a, b);
            case "gt" -> PyOps.gt(a, b);
            case "gte" -> PyOps.ge(a, b);
            case "lt" -> PyOps.lt(a, b);
            case "lte" -> PyOps.le(a, b);
            case "contains" -> !a.isNone() && PyBuiltins.in(b, a);
            case "startswith" -> !a.isNone() && PyRepr.str(a).startsWith(PyRepr.str(b));
            case "endswith" -> !a.isNone() && PyRepr.str(a).endsWith(PyRepr.str(b));
            case "in" -> PyBuiltins.in(a, b);
            case "nin" -> !PyBuiltins.in(a, b);
            default -> PyOps.eq(a, b);
        };
    }

    /**
     * {@code query_database_tool(database_name, constraints, db)}: the formatted matches, or one of its
     * error texts (returned, not raised).
     */
    static String queryTool(WorldCell c, Value databaseName, Value constraints) {
        try {
            if (!PyBuiltins.in(
                    databaseName,
                    PyList.of(QUERYABLE.stream().map(s -> (Value) new PyStr(s)).toList()))) {
                return "Error: Database '" + PyRepr.str(databaseName) + "' not found. Available: "
                        + PyRepr.repr(PyList.of(QUERYABLE.stream()
                                .map(s -> (Value) new PyStr(s))
                                .toList()));
            }
            String name = databaseName.asStr();
            Value dict;
            try {
                dict = PyBuiltins.truthy(constraints) ? PyJsonLoads.loads(constraints, false) : PyDict.empty();
            } catch (PyJsonLoads.JSONDecodeError e) {
                return "Error: Invalid JSON: " + e.str();
            }
            List<Match> results = queryDb(c, name, dict);
            if (results.isEmpty()) return "No records found in '" + name + "'.";
            List<String> lines = new ArrayList<>();
            lines.add("Found " + results.size() + " record(s) in '" + name + "':\n");
            int i = 1;
            for (Match m : results) {
                lines.add((i++) + ". Record ID: " + m.id());
                for (Map.Entry<String, Value> f : m.record().entries())
                    lines.add("   " + f.getKey() + ": " + PyRepr.str(f.getValue()));
                lines.add("");
            }
            return String.join("\n", lines);
        } catch (PyException e) {
            return "Error querying database: " + e.str();
        }
    }

    /** {@code query_database_tool(name, f'{{"field": "{value}"}}')}: the f-string splices {@code str(value)} into the JSON. */
    static String queryBy(WorldCell c, String tableName, String field, Value value) {
        return queryTool(c, new PyStr(tableName), new PyStr("{\"" + field + "\": \"" + PyRepr.str(value) + "\"}"));
    }
}
