package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.environment.ToolSchema;
import brokkr.python.PydanticSchema.Field;
import brokkr.python.PydanticSchema.NullableSchema;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import java.util.List;

/**
 * The docstrings of upstream's {@code TelecomTools} and {@code TelecomUserTools} tools
 * (src/tau2/domains/telecom/tools.py, user_tools.py), as {@code docstring_parser} splits them, with
 * their parameter types as pydantic's JSON schema writes them: {@code Union[NetworkModePreference, str]}
 * and {@code Union[APNSettings, dict]} as {@code anyOf} a {@code $defs} entry or the plain type.
 */
final class TelecomToolDocs {
    private TelecomToolDocs() {}

    private static PyDict modeOrStr() {
        return PyDict.of(
                "anyOf", PyList.of(PyDict.of("$ref", "#/$defs/NetworkModePreference"), PyDict.of("type", "string")));
    }

    private static PyDict apnSettingsOrDict() {
        return PyDict.of("anyOf", PyList.of(PyDict.of("$ref", "#/$defs/APNSettings"), PyDict.of("type", "object")));
    }

    private static PyDict defs(PyDict... enumSchemas) {
        PyDict.Builder b = PyDict.builder();
        for (PyDict s : enumSchemas) b.put(s.get("title").asStr(), s);
        return b.build();
    }

    /**
     * {@code APNSettings}' {@code $defs} entry and its enum's: {@code additionalProperties: false}
     * ({@code extra="forbid"}), the class docstring, each field's default, an enum field as a bare
     * {@code $ref} (no title), an {@code Optional[T]} as {@code anyOf} T or null.
     */
    private static PyDict apnDefs() {
        PyDict.Builder props = PyDict.builder();
        for (Field f : TelecomModel.APN_SETTINGS.fields()) {
            PyDict.Builder p = PyDict.builder();
            if (f.schema() == TelecomModel.APN_NAMES) {
                p.put("$ref", "#/$defs/" + TelecomModel.APN_NAMES.className());
            } else if (f.schema() instanceof NullableSchema n) {
                p.put("anyOf", PyList.of(n.inner().jsonSchema(), PyDict.of("type", "null")));
            }
            p.put("default", f.dflt()).put("description", f.description());
            if (f.schema() != TelecomModel.APN_NAMES) p.put("title", ToolSchema.title(f.name()));
            if (!(f.schema() instanceof NullableSchema) && f.schema() != TelecomModel.APN_NAMES) {
                for (var e : f.schema().jsonSchema().entries()) p.put(e.getKey(), e.getValue());
            }
            props.put(f.name(), p.build());
        }
        PyDict apn = PyDict.builder()
                .put("additionalProperties", false)
                .put("description", "Represents the configuration for a single Access Point Name (APN).")
                .put("properties", props.build())
                .put("title", TelecomModel.APN_SETTINGS.name())
                .put("type", "object")
                .build();
        return PyDict.of(
                TelecomModel.APN_NAMES.className(),
                TelecomModel.APN_NAMES.jsonSchema(),
                TelecomModel.APN_SETTINGS.name(),
                apn);
    }

    /** The agent's tools, in upstream order ({@code TelecomTools} definition order). */
    static final List<ToolSchema.ToolDoc> AGENT = List.of(
            new ToolSchema.ToolDoc(
                    "get_customer_by_phone",
                    "Finds a customer by their primary contact or line phone number.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "phone_number", "The phone number to search for.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_customer_by_id",
                    "Retrieves a customer directly by their unique ID.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "customer_id", "The unique identifier of the customer.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_customer_by_name",
                    "Searches for customers by name and DOB. May return multiple matches if names are similar,",
                    "DOB helps disambiguate.",
                    List.of(
                            new ToolSchema.ParamDoc("full_name", "The full name of the customer.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "dob",
                                    "Date of birth for verification, in the format YYYY-MM-DD.",
                                    ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_details_by_id",
                    "Retrieves the details for a given ID.",
                    "The ID must be a valid ID for a Customer, Line, Device, Bill, or Plan.",
                    List.of(new ToolSchema.ParamDoc("id", "The ID of the object to retrieve.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "suspend_line",
                    "Suspends a specific line (max 6 months).",
                    "Checks: Line status must be Active.\nLogic: Sets line status to Suspended, records suspension_start_date.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("line_id", "ID of the line to suspend.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("reason", "Reason for suspension.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "resume_line",
                    "Resumes a suspended line.",
                    "Checks: Line status must be Suspended or Pending Activation.\nLogic: Sets line status to Active, clears suspension_start_date.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("line_id", "ID of the line to resume.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_bills_for_customer",
                    "Retrieves a list of the customer's bills, most recent first.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc("customer_id", "ID of the customer.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "limit", "Maximum number of bills to return.", ToolSchema.INTEGER, PyInt.of(12))),
                    null),
            new ToolSchema.ToolDoc(
                    "send_payment_request",
                    "Sends a payment request to the customer for a specific bill.",
                    "Checks:\n    - Customer exists\n    - Bill exists and belongs to the customer\n    - No other bills are already awaiting payment for this customer\nLogic: Sets bill status to AWAITING_PAYMENT and notifies customer.\nWarning: This method does not check if the bill is already PAID.\nAlways check the bill status before calling this method.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the bill.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "bill_id", "ID of the bill to send payment request for.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "get_data_usage",
                    "Retrieves current billing cycle data usage for a line, including data",
                    "refueling amount, data limit, and cycle end date.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "line_id", "ID of the line to check usage for.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "enable_roaming",
                    "Enables international roaming on a line.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "line_id", "ID of the line to enable roaming for.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "disable_roaming",
                    "Disables international roaming on a line.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "line_id", "ID of the line to disable roaming for.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "transfer_to_human_agents",
                    "Transfer the user to a human agent, with a summary of the user's issue.",
                    "Only transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.",
                    List.of(new ToolSchema.ParamDoc("summary", "A summary of the user's issue.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "refuel_data",
                    "Refuels data for a specific line, adding to the customer's bill.",
                    "Checks: Line status must be Active, Customer owns the line.\nLogic: Adds data to the line and charges customer based on the plan's refueling rate.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "customer_id", "ID of the customer who owns the line.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("line_id", "ID of the line to refuel data for.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "gb_amount", "Amount of data to add in gigabytes.", ToolSchema.NUMBER)),
                    null));

    /** The user's tools, in upstream order ({@code TelecomUserTools} definition order). */
    static final List<ToolSchema.ToolDoc> USER = List.of(
            new ToolSchema.ToolDoc(
                    "check_status_bar",
                    "Shows what icons are currently visible in your phone's status bar (the area at the top of the screen). Displays network signal strength, mobile data status (enabled, disabled, data saver), Wi-Fi status, and battery level.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_network_status",
                    "Checks your phone's connection status to cellular networks and Wi-Fi. Shows airplane mode status, signal strength, network type, whether mobile data is enabled, and whether data roaming is enabled.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_network_mode_preference",
                    "Shows the current network mode preference.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "set_network_mode_preference",
                    "Changes the type of cellular network your phone prefers to connect to (e.g., 5G, LTE/4G, 3G). Higher-speed networks (LTE/5G) provide faster data but may use more battery.",
                    null,
                    List.of(new ToolSchema.ParamDoc("mode", null, modeOrStr())),
                    defs(TelecomModel.NETWORK_MODE_PREFERENCE.jsonSchema())),
            new ToolSchema.ToolDoc(
                    "run_speed_test",
                    "Measures your current internet connection speed (download speed). Provides information about connection quality and what activities it can support.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_airplane_mode",
                    "Toggles Airplane Mode ON or OFF. When ON, it disconnects all wireless communications including cellular, Wi-Fi, and Bluetooth.",
                    "Returns the new state of airplane_mode.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_sim_status",
                    "Checks if your SIM card is working correctly and displays its current status. Shows if the SIM is active, missing, or locked with a PIN or PUK code.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "reseat_sim_card",
                    "Simulates removing and reinserting your SIM card. This can help resolve recognition issues.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_data",
                    "Toggles your phone's mobile data connection ON or OFF. Controls whether your phone can use cellular data for internet access when Wi-Fi is unavailable.",
                    "Returns the new data connection status.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_roaming",
                    "Toggles Data Roaming ON or OFF. When ON, your phone can use data networks in areas outside your carrier's coverage.",
                    "Returns the new data roaming status.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_data_restriction_status",
                    "Checks if your phone has any data-limiting features active. Shows if Data Saver mode is on.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_data_saver_mode",
                    "Toggles Data Saver mode ON or OFF. When ON, it reduces data usage, which may affect data speed.",
                    "Returns the new data saver mode status.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_apn_settings",
                    "Checks the technical APN settings your phone uses to connect to your carrier's mobile data network. Shows current APN name and MMSC URL for picture messaging.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "set_apn_settings",
                    "Sets the APN settings for the phone.",
                    null,
                    List.of(new ToolSchema.ParamDoc("apn_settings", null, apnSettingsOrDict())),
                    apnDefs()),
            new ToolSchema.ToolDoc(
                    "reset_apn_settings", "Resets your APN settings to the default settings.", null, List.of(), null),
            new ToolSchema.ToolDoc(
                    "check_wifi_status",
                    "Checks your Wi-Fi connection status. Shows if Wi-Fi is turned on, which network you're connected to (if any), and the signal strength.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_wifi",
                    "Toggles your phone's Wi-Fi radio ON or OFF. Controls whether your phone can discover and connect to wireless networks for internet access.",
                    "Returns the new Wi-Fi status.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_wifi_calling_status",
                    "Checks if Wi-Fi Calling is enabled on your device. This feature allows you to make and receive calls over a Wi-Fi network instead of using the cellular network.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "toggle_wifi_calling",
                    "Toggles Wi-Fi Calling ON or OFF. This feature allows you to make and receive calls over Wi-Fi instead of the cellular network, which can help in areas with weak cellular signal.",
                    "Returns the new Wi-Fi Calling status.",
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_vpn_status",
                    "Checks if you're using a VPN (Virtual Private Network) connection. Shows if a VPN is active, connected, and displays any available connection details.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "connect_vpn", "Connects to your VPN (Virtual Private Network).", null, List.of(), null),
            new ToolSchema.ToolDoc(
                    "disconnect_vpn",
                    "Disconnects any active VPN (Virtual Private Network) connection. Stops routing your internet traffic through a VPN server, which might affect connection speed or access to content.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_installed_apps",
                    "Returns the name of all installed apps on the phone.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_app_status",
                    "Checks detailed information about a specific app. Shows its permissions and background data usage settings.",
                    null,
                    List.of(new ToolSchema.ParamDoc("app_name", null, ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "check_app_permissions",
                    "Checks what permissions a specific app currently has. Shows if the app has access to features like storage, camera, location, etc.",
                    null,
                    List.of(new ToolSchema.ParamDoc("app_name", null, ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "grant_app_permission",
                    "Gives a specific permission to an app (like access to storage, camera, or location). Required for some app functions to work properly.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "app_name", "The name of the app to grant the permission to.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "permission", "The permission to grant, should be lowercase.", ToolSchema.STRING)),
                    null),
            new ToolSchema.ToolDoc(
                    "can_send_mms",
                    "Checks if the default messaging app can send MMS messages.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "reboot_device",
                    "Restarts your phone completely. This can help resolve many temporary software glitches by refreshing all running services and connections.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "check_payment_request",
                    "Checks if the agent has sent you a payment request.",
                    null,
                    List.of(),
                    null),
            new ToolSchema.ToolDoc(
                    "make_payment",
                    "Makes a payment for the bill that the agent has sent you.",
                    null,
                    List.of(),
                    null));
}
