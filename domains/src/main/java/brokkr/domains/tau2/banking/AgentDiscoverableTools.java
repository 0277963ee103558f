package brokkr.domains.tau2.banking;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.tool.ToolFunction;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Map;

/**
 * The bodies of {@code KnowledgeTools}' agent-discoverable tools (tools.py, {@code @is_discoverable_tool}),
 * reached through {@code call_discoverable_agent_tool} after an unlock, or by name directly.
 *
 * <p>Not every body is transcribed yet: a tool without one raises {@code NotImplementedError} naming
 * itself, so a replay reports it as a difference instead of inventing a result.
 */
final class AgentDiscoverableTools {
    private AgentDiscoverableTools() {}

    private static final Map<String, ToolFunction> BODIES = new java.util.HashMap<>();

    static {
        BODIES.put("example_agent_tool_0000", (c, a) -> new PyStr("Example tool executed successfully."));
        BODIES.putAll(CreditCardTools.BODIES);
        BODIES.putAll(BankAccountTools.BODIES);
        BODIES.putAll(DebitCardTools.BODIES);
        for (Discoverable d : Discoverable.agent()) {
            if (!BODIES.containsKey(d.name()))
                throw new IllegalStateException("no body for discoverable tool " + d.name());
        }
    }

    static ToolFunction body(String name) {
        ToolFunction f = BODIES.get(name);
        if (f != null) return f;
        return (c, a) -> {
            throw new PyException(
                    "NotImplementedError", "discoverable tool " + name + " is not transcribed in Brokkr yet");
        };
    }

    /** {@code _get_account_balance}: {@code _parse_balance(account.get("current_holdings", account.get("balance", 0)))}. */
    static double accountBalance(brokkr.value.PyDict account) {
        return parseBalance(
                account.getOrDefault("current_holdings", account.getOrDefault("balance", brokkr.value.PyInt.of(0))));
    }

    /** {@code _parse_balance}: a number, or a str such as {@code "$2,850.00"}; anything else is 0.0. */
    static double parseBalance(Value v) {
        return switch (v) {
            case brokkr.value.PyInt i -> PyBuiltins.toDouble(i);
            case brokkr.value.PyFloat f -> f.value();
            case brokkr.value.PyBool b -> b.value() ? 1.0 : 0.0;
            case PyStr s ->
                PyBuiltins.toFloat(new PyStr(s.value().replace("$", "").replace(",", "")));
            default -> 0.0;
        };
    }
}
