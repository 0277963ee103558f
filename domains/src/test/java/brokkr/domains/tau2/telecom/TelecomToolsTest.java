package brokkr.domains.tau2.telecom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Environment.ToolMessage;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.python.PyException;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Upstream's telecom quirks, one by one, as the transcription reproduces them. */
class TelecomToolsTest {
    static TelecomDomain telecom;

    /** A task whose initialization sets John Smith's phone (555-123-2002, line L1002 of C1001) on the user's side. */
    static final String DATA_TASK = "[mobile_data_issue]data_mode_off|data_usage_exceeded[PERSONA:None]";

    @BeforeAll
    static void load() {
        telecom = new TelecomDomain(new Tau2Data(SharedDirs.tau2Data()));
    }

    static PyDict args(String json) {
        return Json.parse(json).asDict();
    }

    static ToolMessage agent(Tau2Environment e, String tool, String json) {
        return e.getResponse(tool, args(json), "assistant");
    }

    static ToolMessage user(Tau2Environment e, String tool, String json) {
        return e.getResponse(tool, args(json), "user");
    }

    @Test
    void dictResultsStringifyTheirNumbersAndModelsKeepThem() {
        Tau2Environment e = telecom.environment(null, null);
        assertEquals(
                "{\"line_id\": \"L1002\", \"data_used_gb\": \"8.7\", \"data_limit_gb\": \"15.0\", \"data_refueling_gb\": \"0.0\", "
                        + "\"cycle_end_date\": \"2025-02-28\"}",
                agent(e, "get_data_usage", "{\"customer_id\": \"C1001\", \"line_id\": \"L1002\"}")
                        .content());
        String line = agent(e, "get_details_by_id", "{\"id\": \"L1002\"}").content();
        assertTrue(
                line.contains("\"data_used_gb\": 8.7") && line.contains("\"contract_end_date\": \"2026-12-31\""), line);
        String device = agent(e, "get_details_by_id", "{\"id\": \"D1001\"}").content();
        assertTrue(
                device.contains("\"activation_date\": \"2025-01-20 14:30:00\""),
                "a datetime dumps as str(): " + device);
    }

    @Test
    void refuelingDrawsTheOraclesBillIds() {
        Tau2Environment e = telecom.environment(null, null);
        ToolMessage m =
                agent(e, "refuel_data", "{\"customer_id\": \"C1002\", \"line_id\": \"L1004\", \"gb_amount\": 2}");
        assertFalse(m.error(), m.content());
        String bills = agent(e, "get_bills_for_customer", "{\"customer_id\": \"C1002\", \"limit\": 1}")
                .content();
        assertTrue(
                bills.startsWith(
                        "[{\"bill_id\": \"B00000001\", \"customer_id\": \"C1002\", \"period_start\": \"2025-03-01\""),
                bills);
        assertEquals(
                "Error: slice indices must be integers or None or have an __index__ method",
                agent(e, "get_bills_for_customer", "{\"customer_id\": \"C1002\", \"limit\": \"1\"}")
                        .content());
        assertEquals(
                "Error: '<=' not supported between instances of 'str' and 'int'",
                agent(e, "refuel_data", "{\"customer_id\": \"C1002\", \"line_id\": \"L1004\", \"gb_amount\": \"2\"}")
                        .content());
        assertEquals(
                "Error: 'int' object has no attribute 'startswith'",
                agent(e, "get_details_by_id", "{\"id\": 5}").content());
    }

    @Test
    void theUserSideRunsWithTheUsersToolsOnly() {
        Tau2Environment e = telecom.environment(DATA_TASK, null);
        assertEquals(
                "Error: Tool 'toggle_data' not found.",
                agent(e, "toggle_data", "{}").content());
        assertEquals(
                "Error: Tool 'refuel_data' not found.",
                user(e, "refuel_data", "{\"customer_id\": \"C1001\", \"line_id\": \"L1002\", \"gb_amount\": 2.0}")
                        .content());
        assertEquals(
                "Mobile Data is now ON.\nStatus Bar: \ud83d\udcf6\u2074 Excellent | 5G | \ud83d\udcf1 Data Enabled | \ud83d\udd0b 80%",
                user(e, "toggle_data", "{}").content());
        assertEquals(
                "Speed test failed: No Connection.",
                user(e, "run_speed_test", "{}").content(),
                "the data limit is exceeded");
        // the agent's refuel is seen on the user's side at the next sync_tools
        agent(e, "refuel_data", "{\"customer_id\": \"C1001\", \"line_id\": \"L1002\", \"gb_amount\": 2.0}");
        assertEquals(
                "Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.",
                user(e, "run_speed_test", "{}").content());
    }

    @Test
    void apnSettingsAreValidatedOnlyWhenADictAndAStoredStrBreaksTheSearch() {
        Tau2Environment e = telecom.environment(null, null);
        assertEquals(
                "Error: 1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken' [type=enum, "
                        + "input_value='wifi', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.10/v/enum",
                user(e, "set_apn_settings", "{\"apn_settings\": {\"apn_name\": \"wifi\"}}")
                        .content());
        assertTrue(user(
                        e,
                        "set_apn_settings",
                        "{\"apn_settings\": {\"apn_name\": \"internet\", \"mms_port\": \"8080\", "
                                + "\"reset_at_reboot\": \"yes\"}}")
                .content()
                .startsWith("APN settings set to: internet\nStatus Bar: "));
        PyDict apn = e.userDb()
                .asDict()
                .get("device")
                .asDict()
                .get("active_apn_settings")
                .asDict();
        assertEquals(
                Json.parse(
                        "{\"apn_name\": \"internet\", \"reset_at_reboot\": true, \"mms_apn\": \"mms\", "
                                + "\"mmsc_url\": \"http://mms.carrier.com/mms/wapenc\", \"mms_proxy\": null, \"mms_port\": 8080}"),
                apn,
                "pydantic's lax coercions");
        assertEquals(
                "Error: 'str' object has no attribute 'apn_name'",
                user(e, "set_apn_settings", "{\"apn_settings\": \"x\"}").content());
        assertEquals(
                new PyStr("x"),
                e.userDb().asDict().get("device").asDict().get("active_apn_settings"),
                "stored before the raise");
        assertEquals(
                "Error: 'str' object has no attribute 'apn_name'",
                user(e, "toggle_data", "{}").content(),
                "every search now fails");
        assertEquals(
                "Error: 'str' object has no attribute 'reset_at_reboot' and no __dict__ for setting new attributes",
                user(e, "reset_apn_settings", "{}").content());
        assertEquals(
                "Error: 'str' object has no attribute 'model_copy'",
                user(e, "check_apn_settings", "{}").content());
    }

    @Test
    void theClassLevelVpnDetailsOutliveTheirEnvironment() {
        Tau2Environment fresh = telecom.environment(null, null);
        user(fresh, "connect_vpn", "{}");
        assertEquals(
                "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', "
                        + "'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}",
                user(fresh, "check_vpn_status", "{}").content());
        String badVpn =
                "[mobile_data_issue]bad_network_preference|bad_vpn|user_abroad_roaming_disabled_off[PERSONA:Hard]";
        Value after = telecom.factory().processAfter(null, badVpn);
        Tau2Environment later = telecom.environment(null, after);
        user(later, "connect_vpn", "{}");
        assertEquals(
                "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', "
                        + "'server_performance': <PerformanceLevel.POOR: 'poor'>}",
                user(later, "check_vpn_status", "{}").content(),
                "break_vpn in an earlier task changed TelecomUserTools.default_vpn_details for the rest of the process");
        assertNotEquals(fresh.userDbHash(), later.userDbHash());
    }

    @Test
    void aSyncThatRaisesIsTheCallsErrorAndKeepsItsEarlierWrites() {
        Worlds w = telecom.environment(DATA_TASK, null).worlds();
        // L1002 (the user's line) suspended and on a plan that does not exist: sync_tools writes line_active
        // and roaming_allowed, then _get_plan_by_id raises
        PyDict db = w.db().asDict();
        var lines = db.get("lines").asList();
        PyDict broken = db.with(
                "lines",
                lines.with(
                        1,
                        lines.get(1).asDict().with("plan_id", new PyStr("P9")).with("status", new PyStr("Suspended"))));
        Worlds bad = new Worlds(broken, w.userDb(), w.session());
        Tau2Environment.SyncRaised r =
                assertThrows(Tau2Environment.SyncRaised.class, () -> TelecomSync.INSTANCE.apply(bad));
        assertEquals("Plan with ID P9 not found", r.str());
        assertEquals(
                Json.parse("false"),
                r.partial().userDb().asDict().get("surroundings").asDict().get("line_active"));
        PyException init = assertThrows(
                PyException.class,
                () -> new Tau2Environment(telecom.toolkit(), telecom.userToolkit(), TelecomSync.INSTANCE, bad));
        assertEquals("Plan with ID P9 not found", init.str(), "Environment.__init__ syncs");
        // get_response: the call succeeded, its sync_tools raised: the answer is that error, the earlier writes stay
        int[] syncs = {0};
        Tau2Environment e = new Tau2Environment(
                telecom.toolkit(),
                telecom.userToolkit(),
                x -> syncs[0]++ == 0 ? x : TelecomSync.INSTANCE.apply(x),
                bad);
        ToolMessage m = user(e, "check_status_bar", "{}");
        assertTrue(m.error());
        assertEquals("Error: Plan with ID P9 not found", m.content());
        assertEquals(
                Json.parse("false"),
                e.userDb().asDict().get("surroundings").asDict().get("line_active"));
    }
}
