package brokkr.domains.tau2.telecom;

import static brokkr.python.PydanticSchema.Field.optional;
import static brokkr.python.PydanticSchema.Field.required;

import brokkr.python.PydanticSchema;
import brokkr.python.PydanticSchema.DictSchema;
import brokkr.python.PydanticSchema.EnumSchema;
import brokkr.python.PydanticSchema.Field;
import brokkr.python.PydanticSchema.ListSchema;
import brokkr.python.PydanticSchema.ModelSchema;
import brokkr.python.PydanticSchema.NullableSchema;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;

/**
 * The pydantic models of src/tau2/domains/telecom/data_model.py (the agent's {@code TelecomDB}) and
 * user_data_model.py (the user's phone and surroundings, {@code TelecomUserDB}), field for field in
 * declaration order with their defaults. Every model is a {@code BaseModelNoExtra} ({@code extra="forbid"}).
 * A validated model is its {@code model_dump()}; enum members are kept as their values and dates as
 * their {@code str()} ({@link PydanticSchema}), which is what upstream's hash and {@code to_json_str} write.
 */
final class TelecomModel {
    private TelecomModel() {}

    private static final PydanticSchema STR = PydanticSchema.STR;
    private static final PydanticSchema INT = PydanticSchema.INT;
    private static final PydanticSchema FLOAT = PydanticSchema.FLOAT;
    private static final PydanticSchema BOOL = PydanticSchema.BOOL;
    private static final PydanticSchema DATE = PydanticSchema.DATE;
    private static final PydanticSchema DATETIME = PydanticSchema.DATETIME;
    private static final PyBool FALSE = PyBool.FALSE;

    private static PydanticSchema optionalOf(PydanticSchema s) {
        return new NullableSchema(s);
    }

    private static Field opt(String name, PydanticSchema schema, Value dflt) {
        return optional(name, schema, dflt, null);
    }

    private static Field req(String name, PydanticSchema schema) {
        return required(name, schema, null);
    }

    private static Field none(String name, PydanticSchema schema) {
        return opt(name, optionalOf(schema), PyNone.NONE);
    }

    private static ModelSchema model(String name, Field... fields) {
        return new ModelSchema(name, List.of(fields), true);
    }

    private static PyFloat f(double x) {
        return new PyFloat(x);
    }

    private static PyStr s(String x) {
        return new PyStr(x);
    }

    // ---------------------------------------------------------------- agent DB (data_model.py)

    static final EnumSchema DEVICE_TYPE = EnumSchema.of("DeviceType", "phone", "router", "tablet", "watch", "other");
    static final EnumSchema LINE_STATUS =
            EnumSchema.of("LineStatus", "Active", "Suspended", "Pending Activation", "Closed");
    static final EnumSchema BILL_STATUS =
            EnumSchema.of("BillStatus", "Draft", "Issued", "Awaiting Payment", "Paid", "Overdue", "Disputed");
    static final EnumSchema ACCOUNT_STATUS =
            EnumSchema.of("AccountStatus", "Active", "Suspended", "Pending Verification", "Closed");
    static final EnumSchema PAYMENT_METHOD_TYPE =
            EnumSchema.of("PaymentMethodType", "Credit Card", "Debit Card", "PayPal");

    static final String ACTIVE = "Active", SUSPENDED = "Suspended", PENDING_ACTIVATION = "Pending Activation";
    static final String DRAFT = "Draft", AWAITING_PAYMENT = "Awaiting Payment", PAID = "Paid", OVERDUE = "Overdue";

    static final ModelSchema ADDRESS =
            model("Address", req("street", STR), req("city", STR), req("state", STR), req("zip_code", STR));

    static final ModelSchema PLAN = model(
            "Plan",
            req("plan_id", STR),
            req("name", STR),
            req("data_limit_gb", FLOAT),
            req("price_per_month", FLOAT),
            req("data_refueling_price_per_gb", FLOAT));

    static final ModelSchema DEVICE = model(
            "Device",
            req("device_id", STR),
            req("device_type", DEVICE_TYPE),
            req("model", STR),
            none("imei", STR),
            req("is_esim_capable", BOOL),
            opt("activated", BOOL, FALSE),
            none("activation_date", DATETIME),
            none("last_esim_transfer_date", DATETIME));

    static final ModelSchema LINE = model(
            "Line",
            req("line_id", STR),
            req("phone_number", STR),
            opt("status", LINE_STATUS, s(PENDING_ACTIVATION)),
            req("plan_id", STR),
            none("device_id", STR),
            opt("data_used_gb", FLOAT, f(0.0)),
            opt("data_refueling_gb", FLOAT, f(0.0)),
            opt("roaming_enabled", BOOL, FALSE),
            none("contract_end_date", DATE),
            none("last_plan_change_date", DATE),
            none("last_sim_replacement_date", DATE),
            none("suspension_start_date", DATE));

    static final ModelSchema LINE_ITEM =
            model("LineItem", req("description", STR), req("amount", FLOAT), req("date", DATE), req("item_type", STR));

    static final ModelSchema BILL = model(
            "Bill",
            req("bill_id", STR),
            req("customer_id", STR),
            req("period_start", DATE),
            req("period_end", DATE),
            req("issue_date", DATE),
            req("total_due", FLOAT),
            req("due_date", DATE),
            opt("line_items", new ListSchema(LINE_ITEM), PyList.empty()),
            opt("status", BILL_STATUS, s(DRAFT)));

    static final ModelSchema PAYMENT_METHOD = model(
            "PaymentMethod",
            req("method_type", PAYMENT_METHOD_TYPE),
            req("account_number_last_4", STR),
            req("expiration_date", STR));

    /** {@code created_at}'s default is {@code DEFAULT_START_DATE}, a {@code date} (not validated), so it dumps as a date. */
    static final ModelSchema CUSTOMER = model(
            "Customer",
            req("customer_id", STR),
            req("full_name", STR),
            req("date_of_birth", STR),
            req("email", STR),
            req("phone_number", STR),
            req("address", ADDRESS),
            opt("account_status", ACCOUNT_STATUS, s("Pending Verification")),
            opt("payment_methods", new ListSchema(PAYMENT_METHOD), PyList.empty()),
            opt("line_ids", new ListSchema(STR), PyList.empty()),
            opt("bill_ids", new ListSchema(STR), PyList.empty()),
            opt("created_at", DATETIME, s("2025-01-01")),
            none("last_extension_date", DATE),
            opt("goodwill_credit_used_this_year", FLOAT, f(0.0)));

    static final ModelSchema TELECOM_DB = model(
            "TelecomDB",
            opt("plans", new ListSchema(PLAN), PyList.empty()),
            opt("customers", new ListSchema(CUSTOMER), PyList.empty()),
            opt("lines", new ListSchema(LINE), PyList.empty()),
            opt("bills", new ListSchema(BILL), PyList.empty()),
            opt("devices", new ListSchema(DEVICE), PyList.empty()));

    // ---------------------------------------------------------------- user DB (user_data_model.py)

    static final EnumSchema SIM_STATUS = EnumSchema.of("SimStatus", "active", "missing", "locked_pin", "locked_puk");
    static final EnumSchema NETWORK_TECHNOLOGY = EnumSchema.of("NetworkTechnology", "none", "2G", "3G", "4G", "5G");
    static final EnumSchema NETWORK_MODE_PREFERENCE =
            EnumSchema.of("NetworkModePreference", "4g_5g_preferred", "4g_only", "3g_only", "2g_only");
    static final EnumSchema SIGNAL_STRENGTH =
            EnumSchema.of("SignalStrength", "none", "poor", "fair", "good", "excellent");
    static final EnumSchema PERFORMANCE_LEVEL =
            EnumSchema.of("PerformanceLevel", "unknown", "poor", "fair", "good", "excellent");
    static final EnumSchema NETWORK_STATUS =
            EnumSchema.of("NetworkStatus", "connected", "searching", "no_service", "emergency_only");
    static final EnumSchema APN_NAMES = EnumSchema.of("APNNames", "internet", "broken");

    /** The APN model, with the descriptions its tool schema shows (set_apn_settings). */
    static final ModelSchema APN_SETTINGS = model(
            "APNSettings",
            optional("apn_name", APN_NAMES, s("internet"), "The name identifier for the APN connection."),
            optional("reset_at_reboot", BOOL, FALSE, "Whether the APN settings will be reset at the next reboot."),
            optional(
                    "mms_apn",
                    optionalOf(STR),
                    s("mms"),
                    "Specific APN name used for MMS traffic, if different from general data."),
            optional(
                    "mmsc_url",
                    optionalOf(STR),
                    s("http://mms.carrier.com/mms/wapenc"),
                    "The URL of the Multimedia Messaging Service Center (MMSC). Crucial for MMS."),
            optional(
                    "mms_proxy",
                    optionalOf(STR),
                    PyNone.NONE,
                    "The proxy server address required for MMS traffic on some networks."),
            optional(
                    "mms_port",
                    optionalOf(INT),
                    PyNone.NONE,
                    "The proxy server port required for MMS traffic on some networks."));

    /** {@code APNSettings()}. */
    static final PyDict DEFAULT_APN_SETTINGS = APN_SETTINGS.create(PyDict.empty());

    static final ModelSchema VPN_DETAILS = model(
            "VpnDetails",
            none("server_address", STR),
            none("protocol", STR),
            opt("server_performance", PERFORMANCE_LEVEL, s("unknown")));

    static final ModelSchema APP_PERMISSIONS = model(
            "AppPermissions",
            opt("sms", BOOL, FALSE),
            opt("storage", BOOL, FALSE),
            opt("phone", BOOL, FALSE),
            opt("network", BOOL, FALSE));

    static final ModelSchema APP_STATUS = model(
            "AppStatus",
            req("app_name", STR),
            opt("permissions", APP_PERMISSIONS, APP_PERMISSIONS.create(PyDict.empty())));

    private static PyDict app(String name, boolean sms, boolean storage, boolean phone, boolean network) {
        return PyDict.of(
                "app_name",
                name,
                "permissions",
                PyDict.of("sms", sms, "storage", storage, "phone", phone, "network", network));
    }

    static final ModelSchema MOCK_PHONE_ATTRIBUTES = model(
            "MockPhoneAttributes",
            opt("sim_card_status", SIM_STATUS, s("active")),
            opt("sim_card_missing", BOOL, FALSE),
            opt("airplane_mode", BOOL, FALSE),
            opt("network_signal_strength", SIGNAL_STRENGTH, s("good")),
            opt("network_technology_connected", NETWORK_TECHNOLOGY, s("5G")),
            opt("network_connection_status", NETWORK_STATUS, s("connected")),
            opt("battery_level", INT, PyInt.of(80)),
            opt("data_enabled", BOOL, PyBool.TRUE),
            opt("roaming_enabled", BOOL, FALSE),
            opt("network_mode_preference", NETWORK_MODE_PREFERENCE, s("4g_5g_preferred")),
            opt("active_apn_settings", APN_SETTINGS, DEFAULT_APN_SETTINGS),
            opt("wifi_enabled", BOOL, FALSE),
            opt("wifi_connected", BOOL, FALSE),
            none("wifi_ssid", STR),
            opt("wifi_signal_strength", SIGNAL_STRENGTH, s("none")),
            opt("wifi_calling_enabled", BOOL, FALSE),
            opt("wifi_calling_mms_over_wifi", BOOL, FALSE),
            opt("data_saver_mode", BOOL, FALSE),
            opt("vpn_enabled_setting", BOOL, FALSE),
            opt("vpn_connected", BOOL, FALSE),
            none("vpn_details", VPN_DETAILS),
            opt(
                    "app_statuses",
                    new DictSchema(STR, APP_STATUS),
                    PyDict.of(
                            "messaging",
                            app("messaging", true, true, true, false),
                            "browser",
                            app("browser", false, true, false, true))));

    static final ModelSchema PAYMENT_REQUEST =
            model("PaymentRequest", req("bill_id", STR), req("amount_due", FLOAT), opt("paid", BOOL, FALSE));

    static final ModelSchema USER_SURROUNDINGS = model(
            "UserSurroundings",
            none("name", STR),
            none("phone_number", STR),
            opt("is_abroad", BOOL, FALSE),
            opt("roaming_allowed", BOOL, FALSE),
            opt(
                    "signal_strength",
                    new DictSchema(NETWORK_TECHNOLOGY, SIGNAL_STRENGTH),
                    PyDict.of("2G", "poor", "3G", "fair", "4G", "good", "5G", "excellent")),
            opt("mobile_data_usage_exceeded", BOOL, FALSE),
            opt("line_active", BOOL, PyBool.TRUE),
            none("payment_request", PAYMENT_REQUEST));

    static final ModelSchema TELECOM_USER_DB = model(
            "TelecomUserDB",
            opt("device", MOCK_PHONE_ATTRIBUTES, MOCK_PHONE_ATTRIBUTES.create(PyDict.empty())),
            opt("surroundings", USER_SURROUNDINGS, USER_SURROUNDINGS.create(PyDict.empty())));

    /** {@code TelecomUserTools.default_vpn_details}, as the class defines it. */
    static final PyDict DEFAULT_VPN_DETAILS = VPN_DETAILS.create(
            PyDict.of("server_address", "192.168.1.1", "protocol", "OpenVPN", "server_performance", "excellent"));

    /** {@code repr(member)} of a PerformanceLevel value, by its Python member name. */
    static String performanceLevelRepr(String value) {
        return PERFORMANCE_LEVEL.memberRepr(value.toUpperCase(java.util.Locale.ROOT), value);
    }
}
