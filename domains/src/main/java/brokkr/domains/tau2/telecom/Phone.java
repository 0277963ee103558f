package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.domains.tau2.telecom.TelecomUserTools.SpeedTest;
import brokkr.python.PyBuiltins;
import brokkr.python.PyFormat;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.python.PyRound;
import brokkr.python.PyTruth;
import brokkr.tool.WorldCell;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The user's side of one call of {@code TelecomUserTools}: the device ({@code MockPhoneAttributes}) and
 * surroundings of the user DB in the call's cell, read and written one attribute at a time as the
 * Python code does, and the toolkit's private helpers ({@code _check_status_bar},
 * {@code simulate_network_search}, {@code _get_mobile_data_working}, {@code _run_speed_test}, ...).
 */
final class Phone {
    private static final String CLASS_VPN = "vpn_details";
    private final WorldCell cell;

    Phone(WorldCell cell) {
        this.cell = cell;
    }

    // ---------------------------------------------------------------- attributes

    private PyDict world() {
        return cell.get().asDict();
    }

    private PyDict db() {
        return world().get(Tau2Toolkit.DB).asDict();
    }

    private PyDict device() {
        return db().get("device").asDict();
    }

    private PyDict surroundings() {
        return db().get("surroundings").asDict();
    }

    private void setDb(PyDict db) {
        cell.set(world().with(Tau2Toolkit.DB, db));
    }

    Value dev(String field) {
        return device().get(field);
    }

    boolean devTrue(String field) {
        return PyTruth.truthy(dev(field));
    }
    /** {@code device.<field> = v}; assigning the value it already has changes nothing (the same node stays, its hash memo too). */
    void setDev(String field, Value v) {
        PyDict d = device();
        if (sameLeaf(v, d.get(field))) return;
        setDb(db().with("device", d.with(field, v)));
    }

    /**
     * Whether writing {@code v} over {@code old} changes nothing: the same scalar (type and value; a
     * float by its bits). Containers are always written: an equal dict in another key order dumps differently.
     */
    static boolean sameLeaf(Value v, Value old) {
        return !(v instanceof PyDict) && !(v instanceof PyList) && v.equals(old);
    }

    Value sur(String field) {
        return surroundings().get(field);
    }

    private boolean surTrue(String field) {
        return PyTruth.truthy(sur(field));
    }

    void setSur(String field, Value v) {
        PyDict s = surroundings();
        if (sameLeaf(v, s.get(field))) return;
        setDb(db().with("surroundings", s.with(field, v)));
    }

    private boolean devIs(String field, String member) {
        return PyOps.eq(dev(field), new PyStr(member));
    }

    private void setDev(String field, String member) {
        setDev(field, new PyStr(member));
    }

    /** {@code device.active_apn_settings.<field>}: a model's field, or CPython's AttributeError on a raw value stored there. */
    private Value apn(String field) {
        Value apn = dev("active_apn_settings");
        if (!(apn instanceof PyDict d)) throw PyBuiltins.attributeError(apn, field);
        return d.get(field);
    }

    /** {@code device.active_apn_settings.<field> = v}. */
    void setApn(String field, Value v) {
        Value apn = dev("active_apn_settings");
        if (!(apn instanceof PyDict d)) throw TelecomUserTools.setAttributeError(apn, field);
        setDev("active_apn_settings", d.with(field, v));
    }

    /** {@code device.vpn_details = details} where details is the class-level object: both change. */
    void setVpnDetails(PyDict details) {
        setDev(CLASS_VPN, details);
        TelecomSession s = TelecomSession.of(world().get(Tau2Toolkit.SESSION)).withVpnDetails(details);
        cell.set(world().with(Tau2Toolkit.SESSION, s.toValue()));
    }

    private PyDict defaultVpnDetails() {
        return TelecomSession.of(world().get(Tau2Toolkit.SESSION)).defaultVpnDetails();
    }

    /** {@code device.app_statuses.get(app_name)}: null when absent; an unhashable name is CPython's TypeError. */
    PyDict app(Value appName) {
        PyDict apps = dev("app_statuses").asDict();
        if (!PyBuiltins.contains(apps, appName)) return null;
        return apps.get(appName.asStr()).asDict();
    }

    void setPermission(String appName, String permission, Value v) {
        PyDict apps = dev("app_statuses").asDict();
        PyDict app = apps.get(appName).asDict();
        PyDict perms = app.get("permissions").asDict().with(permission, v);
        setDev("app_statuses", apps.with(appName, app.with("permissions", perms)));
    }

    // ---------------------------------------------------------------- status bar and network

    /** {@code _check_status_bar}. */
    String statusBar() {
        List<String> indicators = new ArrayList<>();
        if (devTrue("airplane_mode")) {
            indicators.add("\u2708\ufe0f Airplane Mode");
        } else {
            Value signal = dev("network_signal_strength");
            String shown = signal instanceof PyStr s
                    ? switch (s.value()) {
                        case "none" -> "\ud83d\udcf5 No Signal";
                        case "poor" -> "\ud83d\udcf6\u00b9 Poor";
                        case "fair" -> "\ud83d\udcf6\u00b2 Fair";
                        case "good" -> "\ud83d\udcf6\u00b3 Good";
                        case "excellent" -> "\ud83d\udcf6\u2074 Excellent";
                        default -> "\ud83d\udcf5 No Signal";
                    }
                    : "\ud83d\udcf5 No Signal";
            indicators.add(shown);
            boolean hasTech = !devIs("network_technology_connected", "none");
            if (hasTech) indicators.add(TelecomUserTools.enumValue(dev("network_technology_connected")));
            if (devTrue("data_enabled") && hasTech) {
                indicators.add("\ud83d\udcf1 Data Enabled");
                if (devTrue("data_saver_mode")) indicators.add("\ud83d\udd3d Data Saver");
            } else {
                indicators.add("\ud83d\udcf5 Data Disabled");
            }
        }
        if (devTrue("wifi_enabled") && devTrue("wifi_connected")) {
            indicators.add(
                    devTrue("wifi_ssid")
                            ? "\ud83d\udce1 Connected to " + PyRepr.str(dev("wifi_ssid"))
                            : "\ud83d\udce1 Enabled");
        }
        if (devTrue("vpn_connected")) indicators.add("\ud83d\udd12 VPN Connected");
        indicators.add("\ud83d\udd0b " + PyRepr.str(dev("battery_level")) + "%");
        return String.join(" | ", indicators);
    }

    /** {@code check_network_status}. */
    String networkStatus() {
        List<String> lines = new ArrayList<>(List.of(
                "Airplane Mode: " + (devTrue("airplane_mode") ? "ON" : "OFF"),
                "SIM Card Status: " + simStatus(),
                "Cellular Connection: " + TelecomUserTools.enumValue(dev("network_connection_status")),
                "Cellular Signal: " + TelecomUserTools.enumValue(dev("network_signal_strength")),
                "Cellular Network Type: " + TelecomUserTools.enumValue(dev("network_technology_connected")),
                "Mobile Data Enabled: " + (devTrue("data_enabled") ? "Yes" : "No"),
                "Data Roaming Enabled: " + (devTrue("roaming_enabled") ? "Yes" : "No"),
                "Wi-Fi Radio: " + (devTrue("wifi_enabled") ? "ON" : "OFF"),
                "Wi-Fi Connected: " + (devTrue("wifi_connected") ? "Yes" : "No")));
        if (devTrue("wifi_connected")) lines.add("Connected Wi-Fi Network: " + PyRepr.str(dev("wifi_ssid")));
        return String.join("\n", lines);
    }

    /** {@code _check_sim_status}. */
    String simStatus() {
        if (devTrue("sim_card_missing")) return "missing";
        return TelecomUserTools.enumValue(dev("sim_card_status"));
    }

    /** {@code check_sim_status} (the default's f-string reads {@code status.value} first, which cannot fail on a member). */
    String simStatusText() {
        return switch (simStatus()) {
            case "active" -> "Your SIM card is active and working.";
            case "missing" -> "No SIM card detected in the phone.";
            case "locked_pin" -> "The SIM card is locked with a PIN code.";
            case "locked_puk" -> "The SIM card is locked with a PUK code.";
            default -> "Unknown SIM status: " + simStatus();
        };
    }

    /** {@code surroundings.signal_strength.get(tech, SignalStrength.NONE)}. */
    private Value signalFor(String tech) {
        return sur("signal_strength").asDict().getOrDefault(tech, new PyStr("none"));
    }

    private void connectTo(String tech) {
        setDev("network_technology_connected", tech);
        setDev("network_signal_strength", signalFor(tech));
    }

    private void noService() {
        setDev("network_connection_status", "no_service");
        setDev("network_technology_connected", "none");
        setDev("network_signal_strength", "none");
    }

    /** {@code simulate_network_search}: every write in upstream's order (a raw APN value raises after the first ones). */
    void simulateNetworkSearch() {
        String sim = simStatus();
        if (sim.equals("active")) {
            setDev("network_connection_status", "connected");
            Value pref = dev("network_mode_preference");
            if (PyOps.eq(pref, new PyStr("4g_5g_preferred"))) {
                Value five = signalFor("5G");
                if (PyOps.eq(five, new PyStr("none"))) {
                    connectTo("4G");
                } else {
                    setDev("network_technology_connected", "5G");
                    setDev("network_signal_strength", five);
                }
            } else if (PyOps.eq(pref, new PyStr("4g_only"))) {
                connectTo("4G");
            } else if (PyOps.eq(pref, new PyStr("3g_only"))) {
                connectTo("3G");
            } else if (PyOps.eq(pref, new PyStr("2g_only"))) {
                connectTo("2G");
            } else {
                connectTo("4G");
            }
        } else {
            noService(); // missing, locked_pin / locked_puk, or anything else
        }
        if (devTrue("airplane_mode")) noService();
        if (PyOps.eq(apn("apn_name"), new PyStr("broken"))) noService();
        if (!surTrue("line_active")) noService();
    }

    /** {@code _set_network_mode_preference} and {@code set_network_mode_preference}. */
    String setNetworkModePreference(Value mode) {
        Value valid;
        if (mode instanceof PyStr s
                && !TelecomModel.NETWORK_MODE_PREFERENCE.values().contains(s.value())) {
            valid = PyNone.NONE; // NetworkModePreference(mode) raised ValueError
        } else {
            // a str became the member; anything else is stored as given
            setDev("network_mode_preference", mode);
            simulateNetworkSearch();
            valid = mode;
        }
        if (valid.isNone()) {
            return "Failed to set network mode: '" + PyRepr.str(mode) + "' is not a valid option. Please use one of: "
                    + String.join(", ", TelecomModel.NETWORK_MODE_PREFERENCE.values()) + "\nStatus Bar: " + statusBar();
        }
        return "Preferred Network Mode set to: " + TelecomUserTools.enumValue(valid) + "\nStatus Bar: " + statusBar();
    }

    /** {@code _get_mobile_data_working}. */
    boolean mobileDataWorking() {
        if (devTrue("airplane_mode") || devIs("network_signal_strength", "none")) return false;
        if (devIs("network_connection_status", "no_service")) return false;
        if (surTrue("is_abroad") && (!devTrue("roaming_enabled") || !surTrue("roaming_allowed"))) return false;
        if (!devTrue("data_enabled")) return false;
        return !surTrue("mobile_data_usage_exceeded");
    }

    private static final Map<String, double[]> TECH_SPEED = Map.of(
            "2G",
            new double[] {0.1, 0.4},
            "3G",
            new double[] {1.0, 5.0},
            "4G",
            new double[] {10.0, 100.0},
            "5G",
            new double[] {50.0, 500.0},
            "none",
            new double[] {0.0, 0.0});
    private static final Map<String, Double> SIGNAL_FACTOR =
            Map.of("poor", 0.2, "fair", 0.5, "good", 0.8, "excellent", 1.0, "none", 0.0);

    /** {@code _run_speed_test}. */
    SpeedTest speedTest() {
        if (!mobileDataWorking()) return new SpeedTest(null, "No Connection");
        Value details = dev(CLASS_VPN);
        double base = devTrue("vpn_connected")
                        && PyTruth.truthy(details)
                        && details instanceof PyDict d
                        && PyOps.eq(d.get("server_performance"), new PyStr("poor"))
                ? 0.1
                : 1.0;
        if (devTrue("data_saver_mode")) base *= 0.2;
        Value tech = dev("network_technology_connected");
        double[] range = tech instanceof PyStr t
                ? TECH_SPEED.getOrDefault(t.value(), new double[] {0.0, 0.0})
                : new double[] {0.0, 0.0};
        Value signal = dev("network_signal_strength");
        double factor = signal instanceof PyStr s ? SIGNAL_FACTOR.getOrDefault(s.value(), 0.0) : 0.0;
        double speed = PyRound.round((range[0] + range[1]) / 2.0 * factor * base, 2);
        String desc =
                speed < 1 ? "Very Poor" : speed < 5 ? "Poor" : speed < 25 ? "Fair" : speed < 100 ? "Good" : "Excellent";
        return new SpeedTest(speed, desc);
    }

    /** {@code run_speed_test}. */
    String runSpeedTestText() {
        SpeedTest t = speedTest();
        if (t.speed() == null) return "Speed test failed: " + t.description() + ".";
        String advice = switch (t.description()) {
            case "Very Poor" -> "Connection is very slow. Basic web browsing might be difficult.";
            case "Poor" -> "Connection is slow. Web browsing may be sluggish, streaming difficult.";
            case "Fair" -> "Connection is okay for web browsing and some standard definition streaming.";
            case "Good" -> "Connection is good for most activities, including HD streaming.";
            case "Excellent" -> "Connection is very fast.";
            default -> "";
        };
        return "Speed Test Result: " + PyFormat.format(t.speed(), ".2f") + " Mbps (" + t.description() + "). " + advice;
    }

    // ---------------------------------------------------------------- toggles

    /** {@code _toggle_airplane_mode}: the new state's truth. */
    boolean toggleAirplaneMode() {
        boolean wasOn = devTrue("airplane_mode");
        setDev("airplane_mode", PyBool.of(!wasOn));
        if (wasOn) {
            setDev("network_connection_status", "searching");
            if (devTrue("wifi_enabled")) clearWifi();
        } else {
            clearWifi();
            if (devTrue("vpn_connected")) disconnectVpn();
        }
        simulateNetworkSearch();
        return devTrue("airplane_mode");
    }

    private void clearWifi() {
        setDev("wifi_connected", PyBool.FALSE);
        setDev("wifi_ssid", PyNone.NONE);
        setDev("wifi_signal_strength", "none");
    }

    /** {@code new_state = not device.<field>; device.<field> = new_state} (then a network search for data and roaming). */
    boolean toggle(String field, boolean search) {
        boolean on = !devTrue(field);
        setDev(field, PyBool.of(on));
        if (search) simulateNetworkSearch();
        return on;
    }

    /** {@code toggle_wifi}. */
    String toggleWifi() {
        if (devTrue("airplane_mode"))
            return "Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: " + statusBar();
        boolean on = !devTrue("wifi_enabled");
        setDev("wifi_enabled", PyBool.of(on));
        if (!on) clearWifi();
        return "Wi-Fi is now " + (on ? "ON" : "OFF") + ".\nStatus Bar: " + statusBar();
    }

    String wifiStatusText() {
        if (!devTrue("wifi_enabled")) return "Wi-Fi is turned OFF.";
        if (devTrue("wifi_connected")) {
            return "Wi-Fi is ON and connected to '" + PyRepr.str(dev("wifi_ssid")) + "'. Signal strength: "
                    + TelecomUserTools.enumValue(dev("wifi_signal_strength")) + ".";
        }
        return "Wi-Fi is ON but not connected to any network.";
    }

    // ---------------------------------------------------------------- APN

    /** {@code check_apn_settings}: {@code model_copy} of the active settings first. */
    String apnSettingsText() {
        Value settings = dev("active_apn_settings");
        if (!(settings instanceof PyDict d)) throw PyBuiltins.attributeError(settings, "model_copy");
        String name = TelecomUserTools.enumValue(d.get("apn_name"));
        Value url = d.get("mmsc_url");
        return "Current APN Name: " + (name.isEmpty() ? "Not Set" : name) + "\nMMSC URL (for picture messages): "
                + (PyTruth.truthy(url) ? PyRepr.str(url) : "Not Set")
                + "\n(These are technical settings, usually best left unchanged.)";
    }

    /** {@code set_apn_settings}: a dict becomes {@code APNSettings(**d)}; anything else is stored as given, then read. */
    String setApnSettings(Value settings) {
        Value s = settings instanceof PyDict d ? TelecomModel.APN_SETTINGS.create(d) : settings;
        setDev("active_apn_settings", s);
        if (!(s instanceof PyDict model)) throw PyBuiltins.attributeError(s, "apn_name");
        String status = "APN settings set to: " + TelecomUserTools.enumValue(model.get("apn_name"));
        simulateNetworkSearch();
        return status + "\nStatus Bar: " + statusBar();
    }

    /** {@code reboot_device}. */
    String reboot() {
        List<String> lines = new ArrayList<>();
        if (PyTruth.truthy(apn("reset_at_reboot"))) {
            lines.add("Resetting APN settings...");
            setDev("active_apn_settings", TelecomModel.DEFAULT_APN_SETTINGS);
        }
        lines.add("Restarting network services...");
        setDev("network_connection_status", "searching");
        simulateNetworkSearch();
        return String.join("\n", lines);
    }

    // ---------------------------------------------------------------- VPN

    String vpnStatusText() {
        Value details = dev(CLASS_VPN);
        boolean connected = devTrue("vpn_connected");
        Value dump = PyTruth.truthy(details) && connected ? details : PyNone.NONE;
        if (connected) {
            if (PyTruth.truthy(dump)) return "VPN is ON and connected. Details: " + vpnDetailsRepr(dump.asDict());
            return "VPN is ON and connected (no specific details available).";
        }
        if (devTrue("vpn_enabled_setting")) return "VPN is turned ON in settings, but currently not connected.";
        return "VPN is turned OFF.";
    }

    /** {@code str(vpn_details.model_dump())}: a dict repr whose performance level is an enum member. */
    static String vpnDetailsRepr(PyDict dump) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, Value> e : dump.entries()) {
            if (!first) sb.append(", ");
            first = false;
            sb.append(PyRepr.reprStr(e.getKey())).append(": ");
            if (e.getKey().equals("server_performance") && e.getValue() instanceof PyStr s)
                sb.append(TelecomModel.performanceLevelRepr(s.value()));
            else sb.append(PyRepr.repr(e.getValue()));
        }
        return sb.append('}').toString();
    }

    /** {@code connect_vpn}. */
    String connectVpnText() {
        if (devTrue("vpn_connected")) return "VPN already connected.";
        setDev("vpn_connected", PyBool.TRUE);
        setDev(CLASS_VPN, defaultVpnDetails());
        return "VPN connected successfully.\nStatus Bar: " + statusBar();
    }

    /** {@code _disconnect_vpn}. */
    boolean disconnectVpn() {
        if (!devTrue("vpn_connected")) return false;
        setDev("vpn_connected", PyBool.FALSE);
        setDev(CLASS_VPN, PyNone.NONE);
        return true;
    }

    // ---------------------------------------------------------------- apps and MMS

    /** The permissions granted, as upstream lists them ({@code name.replace("_", " ").lower()}). */
    private static List<String> allowed(PyDict permissions) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Value> e : permissions.entries()) {
            if (PyTruth.truthy(e.getValue()))
                out.add(e.getKey().replace('_', ' ').toLowerCase(java.util.Locale.ROOT));
        }
        return out;
    }

    String appStatusText(Value appName) {
        PyDict app = app(appName);
        if (app == null) return "App '" + PyRepr.str(appName) + "' not found on this phone.";
        List<String> lines = new ArrayList<>(List.of("Status for App: " + PyRepr.str(appName)));
        List<String> allowed = allowed(app.get("permissions").asDict());
        if (allowed.isEmpty()) {
            lines.add(" - Permissions: None granted.");
        } else {
            lines.add(" - Permissions Granted:");
            for (String p : allowed) lines.add("   - " + p);
        }
        return String.join("\n", lines);
    }

    String appPermissionsText(Value appName) {
        PyDict app = app(appName);
        if (app == null) return "App '" + PyRepr.str(appName) + "' not found on this phone.";
        List<String> allowed = allowed(app.get("permissions").asDict());
        if (allowed.isEmpty()) return "App '" + PyRepr.str(appName) + "' currently has no permissions granted.";
        return "App '" + PyRepr.str(appName) + "' has permission for: " + String.join(", ", allowed) + ".";
    }

    /** {@code grant_app_permission} ({@code _grant_app_permission}: the app is looked up before the permission is lowered). */
    String grantAppPermission(Value appName, Value permission) {
        PyDict app = app(appName);
        String perm = PyBuiltins.lower(permission);
        boolean ok;
        String message;
        if (app != null) {
            PyDict perms = app.get("permissions").asDict();
            if (!perms.containsKey(perm)) {
                ok = false;
                List<Value> names =
                        perms.keys().stream().map(k -> (Value) new PyStr(k)).toList();
                message = "Permission '" + perm + "' not tracked for app '" + PyRepr.str(appName)
                        + "', available permissions: " + PyRepr.repr(PyList.of(names));
            } else {
                setPermission(appName.asStr(), perm, PyBool.TRUE);
                ok = true;
                message = "Permission '" + perm + "' granted to app '" + PyRepr.str(appName) + "'.";
            }
        } else {
            ok = false;
            message = "App '" + PyRepr.str(appName) + "' not found. Cannot grant permission.";
        }
        return (ok ? "Success. " : "Error. ") + message + "\nStatus Bar: " + statusBar();
    }

    /** {@code _can_send_mms}. */
    boolean canSendMms() {
        if (!mobileDataWorking()) return false;
        if (devIs("network_technology_connected", "2G")) return false;
        if (devTrue("wifi_calling_enabled") && devTrue("wifi_calling_mms_over_wifi")) return false;
        if (apn("mmsc_url").isNone()) return false;
        PyDict messaging = dev("app_statuses").asDict().get("messaging") instanceof PyDict d ? d : null;
        if (messaging == null) return false;
        PyDict perms = messaging.get("permissions").asDict();
        return PyTruth.truthy(perms.get("storage")) && PyTruth.truthy(perms.get("sms"));
    }
}
