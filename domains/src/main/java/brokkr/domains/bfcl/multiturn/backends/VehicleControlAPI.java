package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.LongContextData;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Raised;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Upstream's {@code VehicleControlAPI} (func_source_code/vehicle_control.py) as an immutable value: the
 * public attributes in {@code vars()} order, the private ones ({@code _parkingBrakeForce},
 * {@code _slopeAngle}, {@code _brakePedalForce}: never compared) and the instance's {@code random.Random}.
 * Every method is upstream's, statement by statement, on raw arguments (any Python object).
 */
public record VehicleControlAPI(
        OrderedPMap<String, Object> attrs,
        PyRandom random,
        Object parkingBrakeForce,
        Object slopeAngle,
        Object brakePedalForce)
        implements Backend {

    private static final double MAX_FUEL_LEVEL = 50;
    private static final double MIN_FUEL_LEVEL = 0.0;
    private static final double MILE_PER_GALLON = 20.0;

    @Override
    public Map<String, Object> state(Globals globals) {
        return attrs;
    }

    Object get(String attr) {
        return attrs.get(attr);
    }

    VehicleControlAPI with(String attr, Object value) {
        return new VehicleControlAPI(attrs.plus(attr, value), random, parkingBrakeForce, slopeAngle, brakePedalForce);
    }

    VehicleControlAPI withRandom(PyRandom r) {
        return new VehicleControlAPI(attrs, r, parkingBrakeForce, slopeAngle, brakePedalForce);
    }

    VehicleControlAPI withParkingBrake(Object force, Object slope) {
        return new VehicleControlAPI(attrs, random, force, slope, brakePedalForce);
    }

    VehicleControlAPI withBrakePedalForce(Object force) {
        return new VehicleControlAPI(attrs, random, parkingBrakeForce, slopeAngle, force);
    }

    boolean longContext() {
        return PyObjects.truthy(get("long_context"));
    }

    /** {@code _load_scenario}: every {@code scenario.get(key, DEFAULT_STATE[...])} in upstream's order. */
    static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> sc = (Map<?, ?>) config;
        PyRandom random =
                Seeds.random(sc.containsKey("random_seed") ? sc.get("random_seed") : PyObjects.integer(141053));
        OrderedPMap<String, Object> a = OrderedPMap.empty();
        a = a.plus("fuelLevel", or(sc, "fuelLevel", 0.0));
        a = a.plus("batteryVoltage", or(sc, "batteryVoltage", 12.6));
        a = a.plus("engine_state", or(sc, "engineState", "stopped"));
        a = a.plus("remainingUnlockedDoors", or(sc, "remainingUnlockedDoors", PyObjects.integer(4)));
        Object doors = or(
                sc,
                "doorStatus",
                PyObjects.dict(
                        "driver",
                        "unlocked",
                        "passenger",
                        "unlocked",
                        "rear_left",
                        "unlocked",
                        "rear_right",
                        "unlocked"));
        a = a.plus("doorStatus", doors);
        long locked = 0;
        Map<?, ?> doorMap = (Map<?, ?>) doors;
        for (Object door : doorMap.keySet()) if (PyObjects.eq(doorMap.get(door), "locked")) locked++;
        a = a.plus("remainingUnlockedDoors", PyObjects.integer(4 - locked));
        a = a.plus("acTemperature", or(sc, "acTemperature", 25.0));
        a = a.plus("fanSpeed", or(sc, "fanSpeed", PyObjects.integer(50)));
        a = a.plus("acMode", or(sc, "acMode", "auto"));
        a = a.plus("humidityLevel", or(sc, "humidityLevel", 50.0));
        a = a.plus("headLightStatus", or(sc, "headLightStatus", "off"));
        a = a.plus("parkingBrakeStatus", or(sc, "parkingBrakeStatus", "released"));
        Object parkingBrakeForce = or(sc, "parkingBrakeForce", 0.0);
        Object slopeAngle = or(sc, "slopeAngle", 0.0);
        a = a.plus("brakePedalStatus", or(sc, "brakePedalStatus", "released"));
        Object brakePedalForce = or(sc, "brakePedalForce", 0.0);
        a = a.plus("distanceToNextVehicle", or(sc, "distanceToNextVehicle", 50.0));
        a = a.plus("cruiseStatus", or(sc, "cruiseStatus", "inactive"));
        a = a.plus("destination", or(sc, "destination", "None"));
        a = a.plus("frontLeftTirePressure", or(sc, "frontLeftTirePressure", 32.0));
        a = a.plus("frontRightTirePressure", or(sc, "frontRightTirePressure", 32.0));
        a = a.plus("rearLeftTirePressure", or(sc, "rearLeftTirePressure", 30.0));
        a = a.plus("rearRightTirePressure", or(sc, "rearRightTirePressure", 30.0));
        a = a.plus("long_context", longContext);
        return new Outcome(
                new VehicleControlAPI(a, random, parkingBrakeForce, slopeAngle, brakePedalForce), g, PyNone.NONE);
    }

    private static Object or(Map<?, ?> sc, String key, Object dflt) {
        return sc.containsKey(key) ? sc.get(key) : dflt;
    }

    private static Outcome ok(VehicleControlAPI v, Globals g, Object result) {
        return new Outcome(v, g, result);
    }

    private static Object ext(String name) {
        return LongContextData.get().value(name);
    }

    // ---- methods ----

    static Outcome startEngine(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object ignitionMode = a[0];
        if (PyObjects.eq(ignitionMode, "STOP")) v = v.with("engine_state", "stopped");
        if (PyObjectOps.gt(v.get("remainingUnlockedDoors"), BigInteger.ZERO)) {
            List<String> unlocked = new ArrayList<>();
            Map<?, ?> doors = (Map<?, ?>) v.get("doorStatus");
            for (Map.Entry<?, ?> e : doors.entrySet())
                if (PyObjects.eq(e.getValue(), "unlocked")) unlocked.add((String) e.getKey());
            return ok(
                    v,
                    g,
                    PyObjects.dict(
                            "error",
                            "All doors must be locked before starting the engine. Here are the unlocked doors: "
                                    + String.join(", ", unlocked)));
        }
        if (!PyObjects.eq(v.get("brakePedalStatus"), "pressed")) {
            return ok(v, g, PyObjects.dict("error", "Brake pedal needs to be pressed when starting the engine."));
        }
        if (!PyObjects.eq(v.brakePedalForce, 1000.0)) {
            return ok(v, g, PyObjects.dict("error", "Must press the brake fully before starting the engine."));
        }
        if (PyObjectOps.lt(v.get("fuelLevel"), MIN_FUEL_LEVEL))
            return ok(v, g, PyObjects.dict("error", "Fuel tank is empty."));
        if (PyObjects.eq(ignitionMode, "START")) {
            v = v.with("engine_state", "running");
        } else {
            return ok(v, g, PyObjects.dict("error", "Invalid ignition mode."));
        }
        return ok(
                v,
                g,
                PyObjects.dict(
                        "engineState",
                        v.get("engine_state"),
                        "fuelLevel",
                        v.get("fuelLevel"),
                        "batteryVoltage",
                        v.get("batteryVoltage")));
    }

    static Outcome fillFuelTank(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object fuelAmount = a[0];
        if (PyObjectOps.lt(fuelAmount, BigInteger.ZERO))
            return ok(v, g, PyObjects.dict("error", "Fuel amount cannot be negative."));
        if (PyObjectOps.gt(PyObjectOps.add(v.get("fuelLevel"), fuelAmount, "+"), MAX_FUEL_LEVEL_INT)) {
            return ok(v, g, PyObjects.dict("error", "Cannot fill gas above the tank capacity."));
        }
        if (PyObjectOps.lt(PyObjectOps.add(v.get("fuelLevel"), fuelAmount, "+"), MIN_FUEL_LEVEL)) {
            return ok(v, g, PyObjects.dict("error", "Fuel tank is empty. Min fuel level is 0 gallons."));
        }
        v = v.with("fuelLevel", PyObjectOps.add(v.get("fuelLevel"), fuelAmount, "+="));
        return ok(v, g, PyObjects.dict("fuelLevel", v.get("fuelLevel")));
    }

    /** {@code MAX_FUEL_LEVEL = 50} is an int upstream. */
    private static final BigInteger MAX_FUEL_LEVEL_INT = BigInteger.valueOf((long) MAX_FUEL_LEVEL);

    static Outcome lockDoors(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        boolean unlock = PyObjects.truthy(a[0]);
        String target = unlock ? "unlocked" : "locked";
        // Doors change one by one in place: a bad door name raises after the earlier ones changed.
        for (Object d : PyObjectOps.iterate(a[1])) {
            Map<?, ?> doors = (Map<?, ?>) v.get("doorStatus");
            Object status;
            try {
                status = PyObjectOps.getItem(doors, d);
            } catch (PyException e) {
                throw new Raised(e, v, g);
            }
            if (PyObjects.eq(status, target)) continue;
            v = v.with("doorStatus", PyObjects.setItem(doors, d, target));
            Object remaining = v.get("remainingUnlockedDoors");
            v = v.with(
                    "remainingUnlockedDoors",
                    unlock
                            ? PyObjectOps.add(remaining, BigInteger.ONE, "+=")
                            : PyObjectOps.sub(remaining, BigInteger.ONE, "-="));
        }
        return ok(
                v, g, PyObjects.dict("lockStatus", target, "remainingUnlockedDoors", v.get("remainingUnlockedDoors")));
    }

    static Outcome adjustClimateControl(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object temperature = a[0], unit = a[1], fanSpeed = a[2], mode = a[3];
        if (!(PyObjectOps.le(BigInteger.ZERO, fanSpeed) && PyObjectOps.le(fanSpeed, BigInteger.valueOf(100)))) {
            return ok(v, g, PyObjects.dict("error", "Fan speed must be between 0 and 100."));
        }
        v = v.with("acTemperature", temperature);
        if (PyObjects.eq(unit, "fahrenheit")) {
            try {
                Object c = PyObjectOps.truediv(
                        PyObjectOps.mul(
                                PyObjectOps.sub(temperature, BigInteger.valueOf(32), "-"), BigInteger.valueOf(5), "*"),
                        BigInteger.valueOf(9));
                v = v.with("acTemperature", c);
            } catch (PyException e) {
                throw new Raised(e, v, g);
            }
        }
        v = v.with("fanSpeed", fanSpeed).with("acMode", mode);
        return ok(
                v,
                g,
                PyObjects.dict(
                        "currentACTemperature",
                        temperature,
                        "climateMode",
                        mode,
                        "humidityLevel",
                        v.get("humidityLevel")));
    }

    static Outcome getOutsideTemperatureFromGoogle(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        PyRandom.Draw<Double> t = v.random.uniform(-10.0, 40.0);
        v = v.withRandom(t.next());
        if (v.longContext()) {
            // Upstream writes the draw into the module-global LONG_WEATHER_EXTENSION and returns that dict; nothing
            // else reads it, and the key lands in the same place every time, so the result is the import-time dict
            // with the new temperature.
            Map<?, ?> weather = (Map<?, ?>) ext("LONG_WEATHER_EXTENSION");
            return ok(v, g, PyObjects.setItem(weather, "outsideTemperature", t.value()));
        }
        return ok(v, g, PyObjects.dict("outsideTemperature", t.value()));
    }

    static Outcome getOutsideTemperatureFromWeatherCom(Backend self, Object[] a, Globals g) {
        return ok((VehicleControlAPI) self, g, PyObjects.dict("error", PyObjects.integer(404)));
    }

    static Outcome setHeadlights(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object mode = a[0];
        if (!PyObjectOps.in(mode, List.of("on", "off", "auto")))
            return ok(v, g, PyObjects.dict("error", "Invalid headlight mode."));
        if (PyObjects.eq(mode, "on"))
            return ok(v.with("headLightStatus", "on"), g, PyObjects.dict("headlightStatus", "on"));
        return ok(v.with("headLightStatus", "off"), g, PyObjects.dict("headlightStatus", "off"));
    }

    static Outcome displayCarStatus(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object option = a[0];
        OrderedPMap<Object, Object> status = OrderedPMap.empty();
        if (v.longContext()) status = status.plus("metadata", ext("CAR_STATUS_METADATA_EXTENSION"));
        if (PyObjects.eq(option, "fuel")) {
            status = status.plus("fuelLevel", v.get("fuelLevel"));
        } else if (PyObjects.eq(option, "battery")) {
            status = status.plus("batteryVoltage", v.get("batteryVoltage"));
        } else if (PyObjects.eq(option, "doors")) {
            status = status.plus("doorStatus", v.get("doorStatus"));
        } else if (PyObjects.eq(option, "climate")) {
            status = status.plus("currentACTemperature", v.get("acTemperature"))
                    .plus("fanSpeed", v.get("fanSpeed"))
                    .plus("climateMode", v.get("acMode"))
                    .plus("humidityLevel", v.get("humidityLevel"));
        } else if (PyObjects.eq(option, "headlights")) {
            status = status.plus("headlightStatus", v.get("headLightStatus"));
        } else if (PyObjects.eq(option, "parkingBrake")) {
            status = status.plus("parkingBrakeStatus", v.get("parkingBrakeStatus"))
                    .plus("parkingBrakeForce", v.parkingBrakeForce)
                    .plus("slopeAngle", v.slopeAngle);
        } else if (PyObjects.eq(option, "brakePedal")) {
            status = status.plus("brakePedalStatus", v.get("brakePedalStatus"))
                    .plus("brakePedalForce", v.brakePedalForce);
        } else if (PyObjects.eq(option, "engine")) {
            status = status.plus("engineState", v.get("engine_state"));
        } else {
            status = status.plus("error", "Invalid option");
        }
        return ok(v, g, status);
    }

    static Outcome activateParkingBrake(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object mode = a[0];
        if (!PyObjectOps.in(mode, List.of("engage", "release")))
            return ok(v, g, PyObjects.dict("error", "Invalid mode"));
        boolean engage = PyObjects.eq(mode, "engage");
        String status = engage ? "engaged" : "released";
        double force = engage ? 500.0 : 0.0;
        v = v.with("parkingBrakeStatus", status).withParkingBrake(force, 10.0);
        if (v.longContext()) {
            return ok(
                    v,
                    g,
                    PyObjects.dict(
                            "parkingBrakeInstruction",
                            ext("PARKING_BRAKE_INSTRUCTION"),
                            "parkingBrakeStatus",
                            status,
                            "_parkingBrakeForce",
                            force,
                            "_slopeAngle",
                            10.0));
        }
        return ok(v, g, PyObjects.dict("parkingBrakeStatus", status, "_parkingBrakeForce", force, "_slopeAngle", 10.0));
    }

    static Outcome pressBrakePedal(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object p = a[0];
        if (!(PyObjectOps.le(BigInteger.ZERO, p) && PyObjectOps.le(p, BigInteger.ONE))) {
            return ok(v, g, PyObjects.dict("error", "Pedal position must be between 0 and 1."));
        }
        if (PyObjects.eq(p, BigInteger.ZERO)) {
            v = v.with("brakePedalStatus", "released").withBrakePedalForce(0.0);
            return ok(v, g, PyObjects.dict("brakePedalStatus", "released", "brakePedalForce", 0.0));
        }
        Object force = PyObjectOps.mul(p, BigInteger.valueOf(1000), "*");
        v = v.with("brakePedalStatus", "pressed").withBrakePedalForce(force);
        return ok(
                v,
                g,
                PyObjects.dict(
                        "brakePedalStatus",
                        "pressed",
                        "brakePedalForce",
                        PyBuiltins.floatOfObject(force, BfclData.PYTHON)));
    }

    static Outcome releaseBrakePedal(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v =
                ((VehicleControlAPI) self).with("brakePedalStatus", "released").withBrakePedalForce(0.0);
        return ok(v, g, PyObjects.dict("brakePedalStatus", "released", "brakePedalForce", 0.0));
    }

    static Outcome setCruiseControl(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        double distance = PyBuiltins.floatOfObject(a[2], BfclData.PYTHON);
        double speed = PyBuiltins.floatOfObject(a[0], BfclData.PYTHON);
        if (PyObjects.eq(v.get("engine_state"), "stopped")) {
            return ok(v, g, PyObjects.dict("error", "Start the engine before activating the cruise control."));
        }
        if (PyObjects.truthy(a[1])) {
            v = v.with("distanceToNextVehicle", distance);
            if (speed < 0 || speed > 120 || pyMod(speed, 5.0) != 0)
                return ok(v, g, PyObjects.dict("error", "Invalid speed"));
            v = v.with("cruiseStatus", "active");
            return ok(
                    v,
                    g,
                    PyObjects.dict("cruiseStatus", "active", "currentSpeed", speed, "distanceToNextVehicle", distance));
        }
        v = v.with("cruiseStatus", "inactive").with("distanceToNextVehicle", distance);
        return ok(
                v,
                g,
                PyObjects.dict("cruiseStatus", "inactive", "currentSpeed", speed, "distanceToNextVehicle", distance));
    }

    /** Python's float {@code %} (result has the divisor's sign; inf % 5 is nan). */
    private static double pyMod(double x, double y) {
        double m = x % y;
        if (m != 0 && (m < 0) != (y < 0)) m += y;
        return m;
    }

    static Outcome getCurrentSpeed(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        PyRandom.Draw<Double> s = v.random.uniform(0.0, 120.0);
        return ok(v.withRandom(s.next()), g, PyObjects.dict("currentSpeed", s.value()));
    }

    static Outcome displayLog(Backend self, Object[] a, Globals g) {
        return ok((VehicleControlAPI) self, g, PyObjects.dict("log", a[0]));
    }

    static Outcome estimateDriveFeasibilityByMileage(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        boolean cannot = PyObjectOps.lt(PyObjectOps.mul(v.get("fuelLevel"), MILE_PER_GALLON, "*"), a[0]);
        return ok(v, g, PyObjects.dict("canDrive", !cannot));
    }

    static Outcome literToGallon(Backend self, Object[] a, Globals g) {
        return ok((VehicleControlAPI) self, g, PyObjects.dict("gallon", PyObjectOps.mul(a[0], 0.264172, "*")));
    }

    static Outcome gallonToLiter(Backend self, Object[] a, Globals g) {
        return ok((VehicleControlAPI) self, g, PyObjects.dict("liter", PyObjectOps.mul(a[0], 3.78541, "*")));
    }

    private static final String[][] DISTANCES = {
        {"83214", "74532", "750.0"}, {"56108", "62947", "320.0"}, {"71354", "83462", "450.0"},
        {"47329", "52013", "290.0"}, {"69238", "51479", "630.0"}, {"94016", "83214", "980.0"},
        {"94016", "94704", "600.0"}, {"94704", "08540", "2550.0"}, {"94016", "08540", "1950.0"},
        {"62947", "47329", "1053.0"}, {"94016", "62947", "780.0"}, {"74532", "94016", "880.0"}
    };

    static Outcome estimateDistance(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object cityA = a[0], cityB = a[1];
        OrderedPMap<Object, Object> distance = null;
        for (String[] d : DISTANCES) {
            if ((PyObjects.eq(cityA, d[0]) && PyObjects.eq(cityB, d[1]))
                    || (PyObjects.eq(cityA, d[1]) && PyObjects.eq(cityB, d[0]))) {
                distance = PyObjects.dict("distance", Double.parseDouble(d[2]));
                break;
            }
        }
        if (distance == null) distance = PyObjects.dict("error", "distance not found in database.");
        if (v.longContext()) distance = distance.plus("intermediaryCities", ext("INTERMEDIARY_CITIES"));
        return ok(v, g, distance);
    }

    private static final String[][] ZIPCODES = {
        {"Rivermist", "83214"}, {"Stonebrook", "74532"}, {"Maplecrest", "56108"}, {"Silverpine", "62947"},
        {"Shadowridge", "71354"}, {"Sunset Valley", "83462"}, {"Oakendale", "47329"}, {"Willowbend", "52013"},
        {"Crescent Hollow", "69238"}, {"Autumnville", "51479"}, {"San Francisco", "94016"}
    };

    static Outcome getZipcodeBasedOnCity(Backend self, Object[] a, Globals g) {
        for (String[] z : ZIPCODES)
            if (PyObjects.eq(a[0], z[0])) return ok((VehicleControlAPI) self, g, PyObjects.dict("zipcode", z[1]));
        return ok((VehicleControlAPI) self, g, PyObjects.dict("zipcode", "00000"));
    }

    static Outcome setNavigation(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = ((VehicleControlAPI) self).with("destination", a[0]);
        try {
            return ok(v, g, PyObjects.dict("status", PyObjectOps.add("Navigating to ", a[0], "+")));
        } catch (PyException e) {
            throw new Raised(e, v, g);
        }
    }

    static Outcome checkTirePressure(Backend self, Object[] a, Globals g) {
        VehicleControlAPI v = (VehicleControlAPI) self;
        Object sum = PyObjectOps.add(
                PyObjectOps.add(
                        PyObjectOps.add(v.get("frontLeftTirePressure"), v.get("frontRightTirePressure"), "+"),
                        v.get("rearLeftTirePressure"),
                        "+"),
                v.get("rearRightTirePressure"),
                "+");
        Object mean = PyObjectOps.truediv(sum, BigInteger.valueOf(4));
        boolean healthy = PyObjectOps.le(BigInteger.valueOf(30), mean) && PyObjectOps.le(mean, BigInteger.valueOf(35));
        Object carInfo = v.longContext() ? ext("CAR_STATUS_METADATA_EXTENSION") : PyObjects.dict();
        return ok(
                v,
                g,
                PyObjects.dict(
                        "frontLeftTirePressure",
                        v.get("frontLeftTirePressure"),
                        "frontRightTirePressure",
                        v.get("frontRightTirePressure"),
                        "rearLeftTirePressure",
                        v.get("rearLeftTirePressure"),
                        "rearRightTirePressure",
                        v.get("rearRightTirePressure"),
                        "healthy_tire_pressure",
                        healthy,
                        "car_info",
                        carInfo));
    }

    static Outcome findNearestTireShop(Backend self, Object[] a, Globals g) {
        return ok((VehicleControlAPI) self, g, PyObjects.dict("shopLocation", "456 Oakwood Avenue, Rivermist, 83214"));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "VehicleControlAPI",
            false,
            VehicleControlAPI::load,
            List.of(
                    Method.of("startEngine", VehicleControlAPI::startEngine, required("ignitionMode")),
                    Method.of("fillFuelTank", VehicleControlAPI::fillFuelTank, required("fuelAmount")),
                    Method.of("lockDoors", VehicleControlAPI::lockDoors, required("unlock"), required("door")),
                    Method.of(
                            "adjustClimateControl",
                            VehicleControlAPI::adjustClimateControl,
                            required("temperature"),
                            optional("unit", "celsius"),
                            optional("fanSpeed", PyObjects.integer(50)),
                            optional("mode", "auto")),
                    Method.of(
                            "get_outside_temperature_from_google", VehicleControlAPI::getOutsideTemperatureFromGoogle),
                    Method.of(
                            "get_outside_temperature_from_weather_com",
                            VehicleControlAPI::getOutsideTemperatureFromWeatherCom),
                    Method.of("setHeadlights", VehicleControlAPI::setHeadlights, required("mode")),
                    Method.of("displayCarStatus", VehicleControlAPI::displayCarStatus, required("option")),
                    Method.of("activateParkingBrake", VehicleControlAPI::activateParkingBrake, required("mode")),
                    Method.of("pressBrakePedal", VehicleControlAPI::pressBrakePedal, required("pedalPosition")),
                    Method.of("releaseBrakePedal", VehicleControlAPI::releaseBrakePedal),
                    Method.of(
                            "setCruiseControl",
                            VehicleControlAPI::setCruiseControl,
                            required("speed"),
                            required("activate"),
                            required("distanceToNextVehicle")),
                    Method.of("get_current_speed", VehicleControlAPI::getCurrentSpeed),
                    Method.of("display_log", VehicleControlAPI::displayLog, required("messages")),
                    Method.of(
                            "estimate_drive_feasibility_by_mileage",
                            VehicleControlAPI::estimateDriveFeasibilityByMileage,
                            required("distance")),
                    Method.of("liter_to_gallon", VehicleControlAPI::literToGallon, required("liter")),
                    Method.of("gallon_to_liter", VehicleControlAPI::gallonToLiter, required("gallon")),
                    Method.of(
                            "estimate_distance",
                            VehicleControlAPI::estimateDistance,
                            required("cityA"),
                            required("cityB")),
                    Method.of("get_zipcode_based_on_city", VehicleControlAPI::getZipcodeBasedOnCity, required("city")),
                    Method.of("set_navigation", VehicleControlAPI::setNavigation, required("destination")),
                    Method.of("check_tire_pressure", VehicleControlAPI::checkTirePressure),
                    Method.of("find_nearest_tire_shop", VehicleControlAPI::findNearestTireShop)));
}
