package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.python.PyTruth;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 30 user tools of upstream's {@code TelecomUserTools} (src/tau2/domains/telecom/user_tools.py),
 * the user's phone and surroundings, and the methods tasks call by name (initialization actions such as
 * {@code set_user_info}, {@code break_vpn}, {@code simulate_network_search}; env assertions
 * {@code assert_*}), over an immutable {@code TelecomUserDB} dump.
 *
 * <p>Each attribute assignment of the Python code is one write to the cell, in the same order, so a call
 * that raises half way keeps what it wrote (e.g. {@code set_apn_settings("x")} stores the str, then fails
 * on {@code .apn_name}; every later network search then fails on it too). Values upstream stores without
 * validation (a non-str network mode, a non-dict APN setting) are stored as given, and reading an
 * attribute of them raises CPython's {@code AttributeError}. The toolkit is session-scoped: the
 * class-level VPN details live in {@link TelecomSession}.
 */
final class TelecomUserTools {
    private TelecomUserTools() {}

    static final String CLS = "TelecomUserTools";

    static final Set<String> WRITE = Set.of(
            "set_network_mode_preference",
            "toggle_airplane_mode",
            "reseat_sim_card",
            "toggle_data",
            "toggle_roaming",
            "toggle_data_saver_mode",
            "set_apn_settings",
            "reset_apn_settings",
            "toggle_wifi",
            "toggle_wifi_calling",
            "connect_vpn",
            "disconnect_vpn",
            "grant_app_permission",
            "reboot_device",
            "make_payment");

    private static final String STATUS_BAR = "\nStatus Bar: ";

    static Tau2Toolkit toolkit() {
        Map<String, ToolFunction> bodies = Map.ofEntries(
                Map.entry("check_status_bar", (c, a) -> str("Status Bar: " + new Phone(c).statusBar())),
                Map.entry("check_network_status", (c, a) -> str(new Phone(c).networkStatus())),
                Map.entry(
                        "check_network_mode_preference",
                        (c, a) -> str(
                                "Network Mode Preference: " + enumValue(new Phone(c).dev("network_mode_preference")))),
                Map.entry(
                        "set_network_mode_preference",
                        (c, a) -> str(new Phone(c).setNetworkModePreference(a.get("mode")))),
                Map.entry("run_speed_test", (c, a) -> str(new Phone(c).runSpeedTestText())),
                Map.entry("toggle_airplane_mode", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean on = p.toggleAirplaneMode();
                    return str("Airplane Mode is now " + onOff(on) + "." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("check_sim_status", (c, a) -> str(new Phone(c).simStatusText())),
                Map.entry("reseat_sim_card", (c, a) -> {
                    Phone p = new Phone(c);
                    p.setDev("sim_card_missing", PyBool.FALSE);
                    p.simulateNetworkSearch();
                    return str("SIM card re-seated successfully." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("toggle_data", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean on = p.toggle("data_enabled", true);
                    return str("Mobile Data is now " + onOff(on) + "." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("toggle_roaming", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean on = p.toggle("roaming_enabled", true);
                    return str("Data Roaming is now " + onOff(on) + "." + STATUS_BAR + p.statusBar());
                }),
                Map.entry(
                        "check_data_restriction_status",
                        (c, a) -> str(
                                new Phone(c).devTrue("data_saver_mode")
                                        ? "Data Saver mode is ON (limits data usage)."
                                        : "Data Saver mode is OFF.")),
                Map.entry("toggle_data_saver_mode", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean on = p.toggle("data_saver_mode", false);
                    return str("Data Saver Mode is now " + onOff(on) + "." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("check_apn_settings", (c, a) -> str(new Phone(c).apnSettingsText())),
                Map.entry("set_apn_settings", (c, a) -> str(new Phone(c).setApnSettings(a.get("apn_settings")))),
                Map.entry("reset_apn_settings", (c, a) -> {
                    Phone p = new Phone(c);
                    p.setApn("reset_at_reboot", PyBool.TRUE);
                    p.simulateNetworkSearch();
                    return str("APN settings will reset at reboot." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("check_wifi_status", (c, a) -> str(new Phone(c).wifiStatusText())),
                Map.entry("toggle_wifi", (c, a) -> str(new Phone(c).toggleWifi())),
                Map.entry(
                        "check_wifi_calling_status",
                        (c, a) -> str("Wi-Fi Calling is currently turned "
                                + onOff(new Phone(c).devTrue("wifi_calling_enabled")) + ".")),
                Map.entry("toggle_wifi_calling", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean on = p.toggle("wifi_calling_enabled", false);
                    return str("Wi-Fi Calling is now " + onOff(on) + "." + STATUS_BAR + p.statusBar());
                }),
                Map.entry("check_vpn_status", (c, a) -> str(new Phone(c).vpnStatusText())),
                Map.entry("connect_vpn", (c, a) -> str(new Phone(c).connectVpnText())),
                Map.entry("disconnect_vpn", (c, a) -> {
                    Phone p = new Phone(c);
                    boolean done = p.disconnectVpn();
                    return str((done ? "VPN disconnected successfully." : "No active VPN connection to disconnect.")
                            + STATUS_BAR
                            + p.statusBar());
                }),
                Map.entry(
                        "check_installed_apps",
                        (c, a) -> str("The following apps are installed on the phone: "
                                + String.join(
                                        ", ",
                                        new Phone(c)
                                                .dev("app_statuses")
                                                .asDict()
                                                .keys()))),
                Map.entry("check_app_status", (c, a) -> str(new Phone(c).appStatusText(a.get("app_name")))),
                Map.entry("check_app_permissions", (c, a) -> str(new Phone(c).appPermissionsText(a.get("app_name")))),
                Map.entry(
                        "grant_app_permission",
                        (c, a) -> str(new Phone(c).grantAppPermission(a.get("app_name"), a.get("permission")))),
                Map.entry(
                        "can_send_mms",
                        (c, a) -> str(
                                new Phone(c).canSendMms()
                                        ? "Your messaging app can send MMS messages."
                                        : "Your messaging app cannot send MMS messages.")),
                Map.entry("reboot_device", (c, a) -> {
                    Phone p = new Phone(c);
                    String status = p.reboot();
                    return str(status + STATUS_BAR + p.statusBar());
                }),
                Map.entry("check_payment_request", (c, a) -> {
                    Value pr = new Phone(c).sur("payment_request");
                    if (pr.isNone()) return str("No payment request has been made.");
                    return str("You have a payment request for bill "
                            + PyRepr.str(pr.asDict().get("bill_id")) + " of "
                            + PyRepr.str(pr.asDict().get("amount_due")) + " USD.");
                }),
                Map.entry("make_payment", (c, a) -> {
                    Phone p = new Phone(c);
                    Value pr = p.sur("payment_request");
                    if (pr.isNone()) return str("You do not have a payment request.");
                    p.setSur("payment_request", pr.asDict().with("paid", PyBool.TRUE));
                    return str(
                            "Payment of " + PyRepr.str(pr.asDict().get("amount_due")) + " USD has been made for bill "
                                    + PyRepr.str(pr.asDict().get("bill_id")) + ".");
                }));
        return Tau2Toolkit.builder(CLS, TelecomToolDocs.USER)
                .bodies(bodies)
                .mutating(WRITE)
                .functions(functions())
                .sessionScoped()
                .build();
    }

    private static List<ToolDef> functions() {
        return List.of(
                fn(
                        "set_user_info",
                        (c, a) -> {
                            Phone p = new Phone(c);
                            p.setSur("name", a.get("name"));
                            p.setSur("phone_number", a.get("phone_number"));
                            return PyNone.NONE;
                        },
                        "name",
                        "phone_number"),
                fn(
                        "set_user_location",
                        (c, a) -> {
                            new Phone(c).setSur("is_abroad", a.get("abroad"));
                            return PyNone.NONE;
                        },
                        "abroad"),
                fn("turn_airplane_mode_on", (c, a) -> {
                    Phone p = new Phone(c);
                    if (!p.toggleAirplaneMode()) p.toggleAirplaneMode();
                    return str("Airplane Mode is now ON.");
                }),
                fn("turn_airplane_mode_off", (c, a) -> {
                    Phone p = new Phone(c);
                    if (p.toggleAirplaneMode()) p.toggleAirplaneMode();
                    return str("Airplane Mode is now OFF.");
                }),
                fn("unseat_sim_card", (c, a) -> {
                    Phone p = new Phone(c);
                    p.setDev("sim_card_missing", PyBool.TRUE);
                    p.simulateNetworkSearch();
                    if (!p.devTrue("sim_card_missing") || !p.simStatus().equals("missing")) throw assertionError();
                    return str("SIM card un-seated successfully.");
                }),
                fn(
                        "lock_sim_card",
                        (c, a) -> {
                            Phone p = new Phone(c);
                            Value mode = a.get("mode");
                            boolean pin = PyOps.eq(mode, new PyStr("pin")), puk = PyOps.eq(mode, new PyStr("puk"));
                            if (pin) p.setDev("sim_card_status", str("locked_pin"));
                            else if (puk) p.setDev("sim_card_status", str("locked_puk"));
                            p.simulateNetworkSearch();
                            if (pin && !PyOps.eq(p.dev("sim_card_status"), str("locked_pin"))) throw assertionError();
                            if (!pin && puk && !PyOps.eq(p.dev("sim_card_status"), str("locked_puk")))
                                throw assertionError();
                            return str("SIM card locked successfully in " + PyRepr.str(mode) + " mode.");
                        },
                        "mode"),
                fn("turn_data_on", (c, a) -> {
                    new Phone(c).setDev("data_enabled", PyBool.TRUE);
                    return str("Data connection restored.");
                }),
                fn("turn_data_off", (c, a) -> {
                    Phone p = new Phone(c);
                    if (p.toggle("data_enabled", true)) p.toggle("data_enabled", true);
                    return str("Data connection broken.");
                }),
                fn("turn_roaming_on", (c, a) -> {
                    Phone p = new Phone(c);
                    if (!p.toggle("roaming_enabled", true)) p.toggle("roaming_enabled", true);
                    return str("Data Roaming is now ON.");
                }),
                fn("turn_roaming_off", (c, a) -> {
                    Phone p = new Phone(c);
                    if (p.toggle("roaming_enabled", true)) p.toggle("roaming_enabled", true);
                    return str("Data Roaming is now OFF.");
                }),
                fn("turn_data_saver_mode_on", (c, a) -> {
                    Phone p = new Phone(c);
                    if (!p.toggle("data_saver_mode", false)) p.toggle("data_saver_mode", false);
                    return str("Data Saver Mode is now ON.");
                }),
                fn("turn_data_saver_mode_off", (c, a) -> {
                    Phone p = new Phone(c);
                    if (p.toggle("data_saver_mode", false)) p.toggle("data_saver_mode", false);
                    return str("Data Saver Mode is now OFF.");
                }),
                fn("break_apn_settings", (c, a) -> {
                    Phone p = new Phone(c);
                    p.setApn("apn_name", str("broken"));
                    p.simulateNetworkSearch();
                    if (!PyOps.eq(p.dev("network_connection_status"), str("no_service"))) throw assertionError();
                    return str("APN settings broken. Please call reset_apn_settings() to fix.");
                }),
                fn("break_apn_mms_setting", (c, a) -> {
                    Phone p = new Phone(c);
                    p.setApn("mmsc_url", PyNone.NONE);
                    if (p.canSendMms()) throw assertionError();
                    return str("APN MMS setting broken. Please call reset_apn_settings() to fix.");
                }),
                fn(
                        "set_wifi_calling",
                        (c, a) -> {
                            Phone p = new Phone(c);
                            Value enabled = a.get("enabled"), mms = a.get("mms_over_wifi");
                            if (!PyOps.eq(p.dev("wifi_calling_enabled"), enabled))
                                p.toggle("wifi_calling_enabled", false);
                            String msg = "Wi-Fi Calling is now " + onOff(PyTruth.truthy(enabled)) + ".";
                            if (!mms.isNone()) {
                                p.setDev("wifi_calling_mms_over_wifi", mms);
                                msg += "\nMMS over Wi-Fi is now " + onOff(PyTruth.truthy(mms)) + ".";
                            }
                            return str(msg);
                        },
                        List.of(Param.required("enabled"), Param.optional("mms_over_wifi", PyNone.NONE))),
                fn("break_vpn", (c, a) -> {
                    Phone p = new Phone(c);
                    p.connectVpnText(); // self.connect_vpn(), its message unused
                    Value details = p.dev("vpn_details");
                    if (details.isNone()) throw setAttributeError(details, "server_performance");
                    p.setVpnDetails(details.asDict().with("server_performance", str("poor")));
                    return str("VPN connection broken.");
                }),
                fn(
                        "remove_app_permission",
                        (c, a) -> {
                            Phone p = new Phone(c);
                            Value appName = a.get("app_name");
                            Value app = p.app(appName);
                            String permission = PyBuiltins.lower(a.get("permission"));
                            // upstream returns a (bool, message) tuple, here a list
                            if (app == null)
                                return PyList.of(List.of(
                                        PyBool.FALSE,
                                        str("App '" + PyRepr.str(appName) + "' not found. Cannot remove permission.")));
                            if (!app.asDict().get("permissions").asDict().containsKey(permission)) {
                                return PyList.of(List.of(
                                        PyBool.FALSE,
                                        str("Permission '" + permission + "' not tracked for app '"
                                                + PyRepr.str(appName) + "'.")));
                            }
                            p.setPermission(appName.asStr(), permission, PyBool.FALSE);
                            return PyList.of(List.of(
                                    PyBool.TRUE,
                                    str("Permission '" + permission + "' removed from app '" + PyRepr.str(appName)
                                            + "'.")));
                        },
                        "app_name",
                        "permission"),
                fn("simulate_network_search", (c, a) -> {
                    new Phone(c).simulateNetworkSearch();
                    return PyNone.NONE;
                }),
                fn(
                        "assert_airplane_mode_status",
                        (c, a) -> PyBool.of(PyOps.eq(new Phone(c).dev("airplane_mode"), a.get("expected_status"))),
                        "expected_status"),
                fn(
                        "assert_service_status",
                        (c, a) -> {
                            Value expected = a.get("expected_status");
                            if (!(expected instanceof PyStr s)
                                    || !TelecomModel.NETWORK_STATUS.values().contains(s.value())) {
                                throw PyException.valueError(PyRepr.repr(expected) + " is not a valid NetworkStatus");
                            }
                            return PyBool.of(PyOps.eq(new Phone(c).dev("network_connection_status"), expected));
                        },
                        "expected_status"),
                fn(
                        "assert_mobile_data_status",
                        (c, a) -> PyBool.of(
                                PyOps.eq(PyBool.of(new Phone(c).mobileDataWorking()), a.get("expected_status"))),
                        "expected_status"),
                fn(
                        "assert_mobile_roaming_status",
                        (c, a) -> PyBool.of(PyOps.eq(new Phone(c).dev("roaming_enabled"), a.get("expected_status"))),
                        "expected_status"),
                fn(
                        "assert_mobile_data_saver_mode_status",
                        (c, a) -> PyBool.of(PyOps.eq(new Phone(c).dev("data_saver_mode"), a.get("expected_status"))),
                        "expected_status"),
                fn(
                        "assert_internet_speed",
                        (c, a) -> {
                            SpeedTest t = new Phone(c).speedTest();
                            Value speed = t.speed() == null ? new PyFloat(0.0) : new PyFloat(t.speed());
                            Value expectedDesc = a.get("expected_desc");
                            boolean fast = PyOps.ge(speed, a.get("expected_speed"));
                            if (expectedDesc.isNone()) return PyBool.of(fast);
                            return PyBool.of(fast
                                    && t.description()
                                            .toLowerCase(java.util.Locale.ROOT)
                                            .equals(PyBuiltins.lower(expectedDesc)));
                        },
                        List.of(Param.required("expected_speed"), Param.optional("expected_desc", PyNone.NONE))),
                fn(
                        "assert_internet_not_excellent",
                        (c, a) -> PyBool.of(
                                !new Phone(c).speedTest().description().equalsIgnoreCase("excellent"))),
                fn(
                        "assert_can_send_mms",
                        (c, a) -> PyBool.of(PyOps.eq(PyBool.of(new Phone(c).canSendMms()), a.get("expected_status"))),
                        "expected_status"),
                fn(
                        "assert_mobile_data_usage_exceeded",
                        (c, a) -> PyBool.of(
                                PyOps.eq(new Phone(c).sur("mobile_data_usage_exceeded"), a.get("expected_status"))),
                        "expected_status"));
    }

    private static ToolDef fn(String name, ToolFunction body, String... params) {
        return fn(name, body, List.of(params).stream().map(Param::required).toList());
    }

    private static ToolDef fn(String name, ToolFunction body, List<Param> params) {
        return new ToolDef(name, CLS + "." + name, params, body, true);
    }

    private static PyStr str(String s) {
        return new PyStr(s);
    }

    private static String onOff(boolean on) {
        return on ? "ON" : "OFF";
    }

    /** A bare {@code assert} that failed. */
    private static PyException assertionError() {
        return new PyException("AssertionError", "");
    }

    /** {@code obj.attr = v} on a built-in value: CPython 3.13's message. */
    static PyException setAttributeError(Value obj, String attr) {
        return PyException.attributeError("'" + obj.typeName() + "' object has no attribute '" + attr
                + "' and no __dict__ for setting new attributes");
    }

    /** {@code member.value}: an enum field holds its member (kept as the value); anything else was stored raw. */
    static String enumValue(Value v) {
        if (v instanceof PyStr s) return s.value();
        throw PyBuiltins.attributeError(v, "value");
    }

    /** A speed test's outcome: speed in Mbps (null: no connection) and its description. */
    record SpeedTest(Double speed, String description) {}
}
