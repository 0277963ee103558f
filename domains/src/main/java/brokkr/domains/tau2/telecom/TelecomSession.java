package brokkr.domains.tau2.telecom;

import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.Value;

/**
 * What upstream's telecom environment keeps outside its two DBs, as the worlds' session value:
 * <ul>
 *   <li>{@code bill_id_draws}: how many {@code uuid.uuid4()} draws {@code _apply_one_time_charge} made
 *       (tools.py; a new draft bill's id is {@code f"B{uuid.uuid4().hex[:8]}"}). Upstream's ids are random;
 *       the oracle pins the n-th draw of a task or sequence to {@code UUID(int=n << 96)}, so the id is
 *       {@code "B%08x" % n} (shared/conformance/tau2/README.md), and that is the id source here.</li>
 *   <li>{@code default_vpn_details}: the class attribute {@code TelecomUserTools.default_vpn_details}
 *       (user_tools.py). {@code connect_vpn} assigns that very object to the device and {@code break_vpn}
 *       then sets its {@code server_performance} to POOR, which changes it for every later connection in
 *       the process. The device's {@code vpn_details}, when set, is always that object (nothing else
 *       assigns one), so a write through either is a write to both.</li>
 * </ul>
 */
record TelecomSession(long billIdDraws, PyDict defaultVpnDetails) {
    static final String DRAWS = "bill_id_draws", VPN = "default_vpn_details";

    /** A fresh process: no draws, the class-level VPN details as defined. */
    static final TelecomSession FRESH = new TelecomSession(0, TelecomModel.DEFAULT_VPN_DETAILS);

    static TelecomSession of(Value v) {
        if (v == null || v.isNone()) return FRESH;
        PyDict d = v.asDict();
        return new TelecomSession(((PyInt) d.get(DRAWS)).longValue(), d.get(VPN).asDict());
    }

    PyDict toValue() {
        return PyDict.of(DRAWS, billIdDraws, VPN, defaultVpnDetails);
    }

    /** The next {@code uuid4()} draw's bill id and the session after it. */
    TelecomSession draw() {
        return new TelecomSession(billIdDraws + 1, defaultVpnDetails);
    }

    String lastBillId() {
        return String.format(java.util.Locale.ROOT, "B%08x", billIdDraws);
    }

    TelecomSession withVpnDetails(PyDict d) {
        return new TelecomSession(billIdDraws, d);
    }

    /** The same process at the start of the next task or sequence: the oracle's draw counter restarts. */
    TelecomSession nextRecord() {
        return new TelecomSession(0, defaultVpnDetails);
    }
}
