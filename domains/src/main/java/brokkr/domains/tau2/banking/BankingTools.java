package brokkr.domains.tau2.banking;

import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyJson;
import brokkr.python.PyJsonLoads;
import brokkr.python.PyRepr;
import brokkr.tool.Args;
import brokkr.tool.Param;
import brokkr.tool.PyBinding;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The agent's toolkit of the {@code bm25} variant, {@code KnowledgeToolsWithKBSearch}
 * (src/tau2/domains/banking_knowledge/retrieval_toolkits.py): {@code KB_search} and the 14 tools of
 * {@code KnowledgeTools} (tools.py), plus the agent-discoverable tools ({@link AgentDiscoverableTools}),
 * which are tools of the class too and so callable by name directly, without unlocking (quirk kept:
 * {@code ToolKitBase.use_tool} looks in {@code self.tools}, which includes them; only the schemas leave
 * them out).
 *
 * <p>The toolkit is session-scoped: which tools are unlocked ({@code _agent_discoverable_tools_state})
 * and the read-log allowlist are instance state upstream, outside the hashed DB.
 */
final class BankingTools {
    private BankingTools() {}

    static final String CLS = "KnowledgeTools";
    static final String UNLOCKED = "unlocked", ALLOWLIST = "allowlist";

    /** {@code TransferReasonLiteral}, in declaration order. */
    static final List<String> TRANSFER_REASONS = List.of(
            "fraud_or_security_concern",
            "account_closure_request",
            "deceased_account_holder",
            "legal_or_regulatory_matter",
            "account_ownership_dispute",
            "complex_billing_dispute",
            "abusive_customer_behavior",
            "third_party_inquiry",
            "technical_system_error",
            "unconfirmed_external_communication",
            "customer_demands_after_unavailable_offer_refusal",
            "kb_search_unsuccessful_customer_requests_transfer",
            "specialized_department_required",
            "accessibility_or_special_needs",
            "customer_frustrated_demands_human",
            "supervisor_request_service_complaint",
            "customer_requests_human_no_specific_reason",
            "request_completed_customer_wants_human_followup",
            "other");

    // ---------------------------------------------------------------- the cell: {"db": TransactionalDB, "session":
    // ...}

    static PyDict db(WorldCell c) {
        Value v = c.get().asDict();
        PyDict d = v.asDict();
        return d.containsKey(Tau2Toolkit.SESSION) && d.containsKey(Tau2Toolkit.DB)
                ? d.get(Tau2Toolkit.DB).asDict()
                : d;
    }

    static void setDb(WorldCell c, PyDict db) {
        PyDict d = c.get().asDict();
        if (d.containsKey(Tau2Toolkit.SESSION) && d.containsKey(Tau2Toolkit.DB)) c.set(d.with(Tau2Toolkit.DB, db));
        else c.set(db);
    }

    static PyDict session(WorldCell c) {
        return c.get().asDict().get(Tau2Toolkit.SESSION).asDict();
    }

    /** A fresh process's session: nothing unlocked, the given read-log allowlist. */
    static PyDict session(List<String> readLogAllowlist) {
        return PyDict.of(
                UNLOCKED,
                PyDict.empty(),
                ALLOWLIST,
                PyList.of(
                        readLogAllowlist.stream().map(s -> (Value) new PyStr(s)).toList()));
    }

    // ---------------------------------------------------------------- ids (utils.py)

    /** {@code _deterministic_id}: the first {@code length / 2} bytes of sha256(seed), hex. */
    static String deterministicId(String seed, int length) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, length / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code get_today_str()}: the domain's fixed date. */
    static final String TODAY = "11/14/2025";
    /** {@code get_now().isoformat()}. */
    static final String NOW_ISO = "2025-11-14T03:40:00";

    static String str(Value v) {
        return PyRepr.str(v);
    }

    static String jsonIndent2(Value v) {
        return PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2));
    }

    // ---------------------------------------------------------------- the toolkit

    static Tau2Toolkit toolkit(KnowledgeBase kb, Value topK) {
        Map<String, ToolFunction> bodies = Map.ofEntries(
                Map.entry("KB_search", (c, a) -> new PyStr(kb.kbSearch(a.get("query"), topK))),
                Map.entry("transfer_to_human_agents", BankingTools::transferToHumanAgents),
                Map.entry("get_current_time", (c, a) -> new PyStr("The current time is 2025-11-14 03:40:00 EST.")),
                Map.entry(
                        "get_user_information_by_id",
                        (c, a) -> new PyStr(DbQuery.queryBy(c, "users", "user_id", a.get("user_id")))),
                Map.entry(
                        "get_user_information_by_name",
                        (c, a) -> new PyStr(DbQuery.queryBy(c, "users", "name", a.get("customer_name")))),
                Map.entry(
                        "get_user_information_by_email",
                        (c, a) -> new PyStr(DbQuery.queryBy(c, "users", "email", a.get("email")))),
                Map.entry("change_user_email", BankingTools::changeUserEmail),
                Map.entry(
                        "get_referrals_by_user",
                        (c, a) -> new PyStr(DbQuery.queryBy(c, "referrals", "referrer_id", a.get("user_id")))),
                Map.entry(
                        "get_credit_card_transactions_by_user",
                        (c, a) -> new PyStr(
                                DbQuery.queryBy(c, "credit_card_transaction_history", "user_id", a.get("user_id")))),
                Map.entry(
                        "get_credit_card_accounts_by_user",
                        (c, a) -> new PyStr(DbQuery.queryBy(c, "credit_card_accounts", "user_id", a.get("user_id")))),
                Map.entry("log_verification", BankingTools::logVerification),
                Map.entry("give_discoverable_user_tool", BankingTools::giveDiscoverableUserTool),
                Map.entry("unlock_discoverable_agent_tool", BankingTools::unlockDiscoverableAgentTool),
                Map.entry("call_discoverable_agent_tool", BankingTools::callDiscoverableAgentTool),
                Map.entry("list_discoverable_agent_tools", BankingTools::listDiscoverableAgentTools));
        // Discoverable tools are tools of the class (callable by name), listed after the plain ones.
        List<ToolDef> discoverable = Discoverable.agent().stream()
                .map(d -> d.def(AgentDiscoverableTools.body(d.name())))
                .toList();
        return Tau2Toolkit.builder(CLS, BankingToolDocs.AGENT)
                .bodies(bodies)
                .mutating(MUTATES)
                .generic(java.util.Set.of(
                        "transfer_to_human_agents", "unlock_discoverable_agent_tool", "give_discoverable_user_tool"))
                .qualifiedName("KB_search", "KBSearchMixin.KB_search")
                .extraTools(discoverable)
                .sessionScoped()
                .build();
    }

    /** Tools whose upstream {@code mutates_state} is true (WRITE, or GENERIC with {@code mutates_state=True}). */
    static final java.util.Set<String> MUTATES = java.util.Set.of(
            "change_user_email",
            "log_verification",
            "give_discoverable_user_tool",
            "unlock_discoverable_agent_tool",
            "call_discoverable_agent_tool");

    private static Value transferToHumanAgents(WorldCell c, Args a) {
        Value reason = a.get("reason");
        if (!PyBuiltins.in(
                reason,
                PyList.of(
                        TRANSFER_REASONS.stream().map(s -> (Value) new PyStr(s)).toList()))) {
            return new PyStr("Error: Invalid transfer reason '" + str(reason) + "'. Must be one of: "
                    + String.join(", ", TRANSFER_REASONS));
        }
        return new PyStr("Transfer successful (reason: " + str(reason) + "). A human agent will assist you shortly.");
    }

    private static Value changeUserEmail(WorldCell c, Args a) {
        Value userId = a.get("user_id"), email = a.get("new_email");
        // update_record_in_db: `record_id not in table.data` (an unhashable id raises TypeError)
        PyBuiltins.requireHashable(userId);
        PyDict r = userId instanceof PyStr s ? DbQuery.update(c, "users", s.value(), PyDict.of("email", email)) : null;
        if (r == null) return new PyStr("Error: User with ID '" + str(userId) + "' not found.");
        return new PyStr("Email updated successfully.\n  - User ID: " + str(userId) + "\n  - New Email: " + str(email));
    }

    private static Value logVerification(WorldCell c, Args a) {
        Value userId = a.get("user_id"), time = a.get("time_verified"), name = a.get("name");
        // generate_verification_id: time_verified.replace(...) (a non-str raises AttributeError)
        if (!(time instanceof PyStr t)) throw PyBuiltins.attributeError(time, "replace");
        String id =
                str(userId) + "_" + t.value().replace(" ", "_").replace(":", "").replace("-", "");
        PyDict record = PyDict.builder()
                .put("name", name)
                .put("user_id", userId)
                .put("address", a.get("address"))
                .put("email", a.get("email"))
                .put("phone_number", a.get("phone_number"))
                .put("date_of_birth", a.get("date_of_birth"))
                .put("time_verified", time)
                .build();
        if (!DbQuery.add(c, "verification_history", id, record))
            return new PyStr("Failed to log verification: Record may already exist.");
        return new PyStr("Verification logged successfully.\n  - User: " + str(name) + " (ID: " + str(userId)
                + ")\n  - Verified at: " + str(time));
    }

    private static Value giveDiscoverableUserTool(WorldCell c, Args a) {
        Value nameV = a.get("discoverable_tool_name");
        // hasattr(KnowledgeUserTools, name): a non-str name is hasattr's TypeError
        if (!(nameV instanceof PyStr ns))
            throw PyException.typeError("attribute name must be string, not '" + nameV.typeName() + "'");
        String name = ns.value();
        Discoverable d = Discoverable.user(name);
        if (d == null) return new PyStr("Error: Unknown discoverable tool '" + name + "'.");
        Value args;
        try {
            args = PyJsonLoads.loads(a.get("arguments"), false);
        } catch (PyJsonLoads.JSONDecodeError e) {
            return new PyStr("Error: Invalid JSON in arguments: " + e.str());
        }
        for (Value k : PyBuiltins.iterate(args)) {
            if (!d.hasParam(k) && !(k instanceof PyStr ks && ks.value().equals("self"))) {
                return new PyStr("Error: Unexpected parameter: " + str(k));
            }
        }
        DbQuery.add(
                c,
                "user_discoverable_tools",
                deterministicId("user_discoverable_tool:" + name, 16),
                PyDict.of("tool_name", name, "status", "GIVEN"));
        String argsStr = PyBuiltins.truthy(args) ? jsonIndent2(args) : "(no arguments)";
        return new PyStr(
                "Tool given to user: " + name + "\nDescription: " + d.description() + "\nArguments: " + argsStr + "\n\n"
                        + "The user can now execute this action by calling `call_discoverable_user_tool` with discoverable_tool_name='"
                        + name + "' and the same arguments.");
    }

    /** {@code self.has_discoverable_tool(name)}: {@code name in dict} (an unhashable name raises TypeError). */
    private static Discoverable agentTool(Value name) {
        PyBuiltins.requireHashable(name);
        return name instanceof PyStr s ? Discoverable.agent(s.value()) : null;
    }

    private static Value unlockDiscoverableAgentTool(WorldCell c, Args a) {
        Value name = a.get("agent_tool_name");
        Discoverable d = agentTool(name);
        if (d == null) return new PyStr("Error: Unknown agent tool '" + str(name) + "'. This tool is not available.");
        PyDict s = session(c);
        c.set(c.get()
                .asDict()
                .with(
                        Tau2Toolkit.SESSION,
                        s.with(UNLOCKED, s.get(UNLOCKED).asDict().with(d.name(), PyBool.TRUE))));
        return new PyStr("Tool unlocked: " + d.name() + "\nDescription: " + d.description() + "\n\n"
                + d.formatForAgent() + "\n\n"
                + "You can now use this tool by calling `call_discoverable_agent_tool` with agent_tool_name='"
                + d.name()
                + "' and the required arguments.");
    }

    private static Value callDiscoverableAgentTool(WorldCell c, Args a) {
        Value name = a.get("agent_tool_name");
        Discoverable d = agentTool(name);
        if (d == null) return new PyStr("Error: Unknown agent tool '" + str(name) + "'. This tool is not available.");
        if (!session(c).get(UNLOCKED).asDict().containsKey(d.name())) {
            return new PyStr("Error: Tool '" + d.name() + "' has not been unlocked. "
                    + "You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it.");
        }
        Value args;
        try {
            // parse_int=float (quirk kept): 33 and 33.0 give the same ids and DB state
            args = PyJsonLoads.loads(a.get("arguments"), true);
        } catch (PyJsonLoads.JSONDecodeError e) {
            return new PyStr("Error: Invalid JSON in arguments: " + e.str());
        }
        Value result;
        try {
            result = d.invoke(AgentDiscoverableTools.body(d.name()), c, args);
        } catch (PyException e) {
            // except TypeError: the writes the method made before raising stay (the cell keeps them)
            if (!e.pyType().equals("TypeError")) throw e;
            return new PyStr("Error: Invalid arguments: " + e.str());
        }
        boolean allowlisted = PyBuiltins.in(new PyStr(d.name()), session(c).get(ALLOWLIST));
        if (d.mutates() || allowlisted) {
            DbQuery.add(
                    c,
                    "agent_discoverable_tools",
                    deterministicId("agent_discoverable_tool:" + d.name(), 16),
                    PyDict.of("tool_name", d.name(), "status", "CALLED"));
        }
        return result;
    }

    private static Value listDiscoverableAgentTools(WorldCell c, Args a) {
        String result = DbQuery.queryTool(c, new PyStr("agent_discoverable_tools"), new PyStr("{}"));
        // Quirk kept: query_database_tool never says "No results found" ("No records found in ..."), so
        // this branch is dead and an empty table is listed as "Your called agent tools:\nNo records found ...".
        if (result.contains("No results found")) {
            return new PyStr(
                    "No agent tools have been called yet. Search the knowledge base to discover available tools.");
        }
        return new PyStr("Your called agent tools:\n" + result);
    }

    /** Binds a parsed JSON arguments value as {@code method(**args)} (a non-dict is CPython's TypeError). */
    static Args bindJson(String qualname, List<Param> params, Value args) {
        if (!(args instanceof PyDict kw)) {
            throw PyException.typeError("tau2.domains.banking_knowledge.tools." + qualname
                    + "() argument after ** must be a mapping, not " + args.typeName());
        }
        return PyBinding.bind(qualname, List.of("self"), params, kw);
    }
}
