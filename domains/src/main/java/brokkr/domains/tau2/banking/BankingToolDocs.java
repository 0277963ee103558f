package brokkr.domains.tau2.banking;

import brokkr.domains.tau2.environment.ToolSchema.ParamDoc;
import brokkr.domains.tau2.environment.ToolSchema.ToolDoc;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;

/**
 * The docstrings of the banking_knowledge tools the agent and the user see (KnowledgeToolsWithKBSearch:
 * {@code KBSearchMixin.KB_search} and the 14 {@code KnowledgeTools} tools; the 6 {@code KnowledgeUserTools}
 * tools; src/tau2/domains/banking_knowledge/tools.py, retrieval_mixins.py) as docstring_parser splits them,
 * with their parameter types as pydantic's JSON schema writes them ({@code TransferReasonLiteral} as an enum).
 */
final class BankingToolDocs {
    private BankingToolDocs() {}

    /** Upstream order ({@code env.get_tools()}: the mixin's tool first, then KnowledgeTools' in definition order). */
    static final List<ToolDoc> AGENT = List.of(
            new ToolDoc(
                    "KB_search",
                    "Search the knowledge base for relevant documents.",
                    null,
                    List.of(new ParamDoc(
                            "query",
                            "The search query to find relevant documents",
                            PyDict.of("type", new PyStr("string")),
                            null))),
            new ToolDoc(
                    "transfer_to_human_agents",
                    "Transfer the user to a human agent.",
                    "The proper transfer reason enum can be found in the knowledge base: search it before calling this tool to select the proper applicable reason.",
                    List.of(
                            new ParamDoc(
                                    "summary",
                                    "A summary of the user's issue and what was attempted before transfer.",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "reason",
                                    "The specific reason code for the transfer.",
                                    PyDict.of(
                                            "enum",
                                            PyList.of(
                                                    (Value) new PyStr("fraud_or_security_concern"),
                                                    (Value) new PyStr("account_closure_request"),
                                                    (Value) new PyStr("deceased_account_holder"),
                                                    (Value) new PyStr("legal_or_regulatory_matter"),
                                                    (Value) new PyStr("account_ownership_dispute"),
                                                    (Value) new PyStr("complex_billing_dispute"),
                                                    (Value) new PyStr("abusive_customer_behavior"),
                                                    (Value) new PyStr("third_party_inquiry"),
                                                    (Value) new PyStr("technical_system_error"),
                                                    (Value) new PyStr("unconfirmed_external_communication"),
                                                    (Value) new PyStr(
                                                            "customer_demands_after_unavailable_offer_refusal"),
                                                    (Value) new PyStr(
                                                            "kb_search_unsuccessful_customer_requests_transfer"),
                                                    (Value) new PyStr("specialized_department_required"),
                                                    (Value) new PyStr("accessibility_or_special_needs"),
                                                    (Value) new PyStr("customer_frustrated_demands_human"),
                                                    (Value) new PyStr("supervisor_request_service_complaint"),
                                                    (Value) new PyStr("customer_requests_human_no_specific_reason"),
                                                    (Value) new PyStr(
                                                            "request_completed_customer_wants_human_followup"),
                                                    (Value) new PyStr("other")),
                                            "type",
                                            new PyStr("string")),
                                    new PyStr("other")))),
            new ToolDoc(
                    "get_current_time",
                    "Get the current time. Use this to get the current timestamp for logging verification records.",
                    null,
                    List.of()),
            new ToolDoc(
                    "get_user_information_by_id",
                    "Get the information (date of birth, email, phone number, address) for a user by their user id.",
                    null,
                    List.of(new ParamDoc(
                            "user_id", "The ID of the user", PyDict.of("type", new PyStr("string")), null))),
            new ToolDoc(
                    "get_user_information_by_name",
                    "Get the information (date of birth, email, phone number, address) for a user by their name. Case Sensitive.",
                    null,
                    List.of(new ParamDoc(
                            "customer_name", "The name of the user", PyDict.of("type", new PyStr("string")), null))),
            new ToolDoc(
                    "get_user_information_by_email",
                    "Get the information (date of birth, email, phone number, address) for a user by their email.",
                    null,
                    List.of(new ParamDoc(
                            "email", "The email of the user", PyDict.of("type", new PyStr("string")), null))),
            new ToolDoc(
                    "change_user_email",
                    "Change the email address for a user.",
                    null,
                    List.of(
                            new ParamDoc(
                                    "user_id",
                                    "The ID of the user whose email should be changed",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "new_email",
                                    "The new email address to set for the user",
                                    PyDict.of("type", new PyStr("string")),
                                    null))),
            new ToolDoc(
                    "get_referrals_by_user",
                    "Get all referrals made by a user.",
                    null,
                    List.of(new ParamDoc(
                            "user_id",
                            "The ID of the user (referrer) to look up referrals for",
                            PyDict.of("type", new PyStr("string")),
                            null))),
            new ToolDoc(
                    "get_credit_card_transactions_by_user",
                    "Get all credit card transactions for a user.",
                    null,
                    List.of(new ParamDoc(
                            "user_id",
                            "The ID of the user to look up transactions for",
                            PyDict.of("type", new PyStr("string")),
                            null))),
            new ToolDoc(
                    "get_credit_card_accounts_by_user",
                    "Get all credit card accounts for a user.",
                    "Returns information about each credit card account including card type,\ndate opened, current balance, and reward points.",
                    List.of(new ParamDoc(
                            "user_id",
                            "The ID of the user to look up credit card accounts for",
                            PyDict.of("type", new PyStr("string")),
                            null))),
            new ToolDoc(
                    "log_verification",
                    "Log a verification record after successfully verifying a user's identity.",
                    "Call this tool after you have verified a user by confirming 2 out of 4 identity fields\n(date of birth, email, phone number, address). This creates an audit record of the verification.",
                    List.of(
                            new ParamDoc(
                                    "name",
                                    "The verified user's full name",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "user_id", "The verified user's ID", PyDict.of("type", new PyStr("string")), null),
                            new ParamDoc(
                                    "address",
                                    "The verified user's address",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "email", "The verified user's email", PyDict.of("type", new PyStr("string")), null),
                            new ParamDoc(
                                    "phone_number",
                                    "The verified user's phone number",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "date_of_birth",
                                    "The verified user's date of birth (MM/DD/YYYY format)",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "time_verified",
                                    "The timestamp of the verification (e.g., \"2025-11-14 03:40:00 EST\")",
                                    PyDict.of("type", new PyStr("string")),
                                    null))),
            new ToolDoc(
                    "give_discoverable_user_tool",
                    "Pass a tool to the user so they can execute it themselves.",
                    "Use this when the knowledge base indicates that the user should perform\nan action themselves (e.g., \"to do X, have the user call tool_name(args)\").\n\nThe user will then be able to call `call_discoverable_tool` with the same\ntool name and arguments to simulate executing the action.",
                    List.of(
                            new ParamDoc(
                                    "discoverable_tool_name",
                                    "The name of the discoverable tool (e.g., \"open_webpage\", \"navigate_to_section\")",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "arguments",
                                    "JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')",
                                    PyDict.of("type", new PyStr("string")),
                                    new PyStr("{}")))),
            new ToolDoc(
                    "unlock_discoverable_agent_tool",
                    "Unlock an agent discoverable tool that was found in the knowledge base.",
                    "Use this when the knowledge base indicates that you have access to a specialized\ninternal tool. The knowledge base will tell you the tool name to unlock.\n\nAfter unlocking, you can use the tool by calling `call_discoverable_agent_tool` with\nthe tool name and required arguments.",
                    List.of(new ParamDoc(
                            "agent_tool_name",
                            "The name of the agent discoverable tool to unlock\n(e.g., \"calculate_apr_adjustment_7842\")",
                            PyDict.of("type", new PyStr("string")),
                            null))),
            new ToolDoc(
                    "call_discoverable_agent_tool",
                    "Call an agent discoverable tool that you have previously unlocked.",
                    "Use this after unlocking a tool with `unlock_discoverable_agent_tool`. The knowledge base\nwill tell you which tool to use and what arguments to provide.",
                    List.of(
                            new ParamDoc(
                                    "agent_tool_name",
                                    "The name of the agent discoverable tool to call",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "arguments",
                                    "JSON string of arguments for the tool (e.g., '{\"user_id\": \"abc123\"}')",
                                    PyDict.of("type", new PyStr("string")),
                                    new PyStr("{}")))),
            new ToolDoc(
                    "list_discoverable_agent_tools",
                    "List all agent discoverable tools that you have called.",
                    "Use this to see what specialized tools you have used.",
                    List.of()));

    static final List<ToolDoc> USER = List.of(
            new ToolDoc(
                    "apply_for_credit_card",
                    "Apply for a credit card.",
                    null,
                    List.of(
                            new ParamDoc(
                                    "card_type", "Type of credit card", PyDict.of("type", new PyStr("string")), null),
                            new ParamDoc(
                                    "customer_name", "Full legal name", PyDict.of("type", new PyStr("string")), null),
                            new ParamDoc(
                                    "annual_income",
                                    "Annual income in USD",
                                    PyDict.of("type", new PyStr("number")),
                                    null),
                            new ParamDoc(
                                    "rho_bank_subscription",
                                    "Whether user has Rho-Bank+ subscription",
                                    PyDict.of("type", new PyStr("boolean")),
                                    PyBool.of(false)))),
            new ToolDoc(
                    "submit_referral",
                    "Submit a referral request to refer someone to open an account.",
                    null,
                    List.of(
                            new ParamDoc(
                                    "user_id",
                                    "Your user ID (the referrer)",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "account_type",
                                    "The type of account you are referring someone to open",
                                    PyDict.of("type", new PyStr("string")),
                                    null))),
            new ToolDoc(
                    "call_discoverable_user_tool",
                    "Call a tool that was given to you by the agent.",
                    "Use this when the agent has instructed you to perform an action using\na discoverable tool. The agent will have told you the tool name and arguments.\n\nThis simulates you performing the action in the real world (e.g., opening\na webpage, navigating to a section, clicking a button).",
                    List.of(
                            new ParamDoc(
                                    "discoverable_tool_name",
                                    "The name of the discoverable tool to call (e.g., \"open_webpage\")",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "arguments",
                                    "JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')",
                                    PyDict.of("type", new PyStr("string")),
                                    new PyStr("{}")))),
            new ToolDoc(
                    "list_discoverable_user_tools",
                    "List all tools that have been given to you by the agent.",
                    "Use this to see what actions the agent has instructed you to perform.",
                    List.of()),
            new ToolDoc(
                    "request_human_agent_transfer",
                    "Request to be transferred to a human agent for assistance.",
                    "Use this when you want to speak with a real human agent instead of\nthe automated system. Each request will be logged and processed.",
                    List.of()),
            new ToolDoc(
                    "submit_transaction",
                    "Submit a credit card transaction.",
                    null,
                    List.of(
                            new ParamDoc("user_id", "Your user ID", PyDict.of("type", new PyStr("string")), null),
                            new ParamDoc(
                                    "credit_card_type",
                                    "Type of credit card used (e.g., \"Bronze Rewards Card\", \"Gold Rewards Card\")",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "merchant_name",
                                    "Name of the merchant where the purchase was made",
                                    PyDict.of("type", new PyStr("string")),
                                    null),
                            new ParamDoc(
                                    "amount",
                                    "Transaction amount in USD (e.g., 127.43)",
                                    PyDict.of("type", new PyStr("number")),
                                    null),
                            new ParamDoc(
                                    "category",
                                    "Transaction category (e.g., \"Groceries\", \"Dining\", \"Travel\", \"Software\", \"Entertainment\", \"Utilities\", \"Shopping\")",
                                    PyDict.of("type", new PyStr("string")),
                                    null))));
}
