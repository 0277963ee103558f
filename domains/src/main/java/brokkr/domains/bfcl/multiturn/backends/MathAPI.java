package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.backends.Mpmath.Mpc;
import brokkr.domains.bfcl.multiturn.backends.Mpmath.Mpf;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * gorilla {@code func_source_code/math_api.py} {@code MathAPI}: stateless (no compared attributes). Its
 * {@code try/except TypeError} blocks turn Python TypeErrors into error dicts; other exceptions reach the
 * executor. {@code logarithm} uses mpmath ({@link Mpmath}; the working precision {@code mpmath.mp.prec} is
 * process-global, so it lives in {@link Globals}: a failed {@code mp.dps = precision} keeps the previous
 * one), {@code square_root} the decimal module ({@link #decimalSqrt}).
 */
public record MathAPI() implements Backend {

    @Override
    public Map<String, Object> state(Globals globals) {
        return Map.of();
    }

    static final String MP_PREC_CELL = "mpmath.mp.prec";

    private static Outcome ok(Backend b, Globals g, Object result) {
        return new Outcome(b, g, result);
    }

    private static boolean isTypeError(PyException e) {
        return e.pyType().equals("TypeError");
    }

    /** {@code try: return {"result": f()} except TypeError: return {"error": msg}}. */
    private static Outcome guarded(Backend b, Globals g, java.util.function.Supplier<Object> f, String msg) {
        try {
            return ok(b, g, dict("result", f.get()));
        } catch (PyException e) {
            if (isTypeError(e)) return ok(b, g, dict("error", msg));
            throw e;
        }
    }

    private static Outcome logarithm(Backend b, Object[] a, Globals g) {
        int prec = (Integer) g.get(MP_PREC_CELL, () -> 53);
        try {
            // mpmath ctx._set_dps: dps_to_prec(n) = max(1, int(round((int(n)+1)*3.3219280948873626)))
            BigInteger dps = PyObjects.asBigInteger(PyBuiltins.call("int", BfclData.PYTHON, a[2]));
            prec = (int) Math.max(1, Math.rint((dps.doubleValue() + 1) * 3.3219280948873626));
            g = g.with(MP_PREC_CELL, prec);
            Object value = Mpmath.log(Mpmath.convert(a[0], prec), prec);
            Object base = Mpmath.log(Mpmath.convert(a[1], prec), prec);
            Object result;
            if (value instanceof Mpf v && base instanceof Mpf w) result = Mpmath.div(v, w, prec);
            else if (value instanceof Mpc v && base instanceof Mpf w) result = Mpmath.div(v, w, prec);
            else if (value instanceof Mpf v) result = Mpmath.div(v, (Mpc) base, prec);
            else result = Mpmath.div((Mpc) value, (Mpc) base, prec);
            return ok(b, g, dict("result", new Mpmath.MpNumber(result, prec)));
        } catch (PyException e) {
            return ok(b, g, dict("error", e.str()));
        }
    }

    private static Object sum(Object numbers) {
        return PyBuiltins.call("sum", BfclData.PYTHON, numbers);
    }

    private static Object len(Object numbers) {
        return BigInteger.valueOf(PyObjectOps.len(numbers));
    }

    private static Outcome mean(Backend b, Object[] a, Globals g) {
        Object numbers = a[0];
        if (!PyObjects.truthy(numbers)) return ok(b, g, dict("error", "Cannot calculate mean of an empty list"));
        return guarded(
                b,
                g,
                () -> PyObjectOps.truediv(sum(numbers), len(numbers)),
                "All elements in the list must be numbers");
    }

    private static Outcome standardDeviation(Backend b, Object[] a, Globals g) {
        Object numbers = a[0];
        if (!PyObjects.truthy(numbers))
            return ok(b, g, dict("error", "Cannot calculate standard deviation of an empty list"));
        return guarded(
                b,
                g,
                () -> {
                    Object mean = PyObjectOps.truediv(sum(numbers), len(numbers));
                    Object squares = BigInteger.ZERO;
                    for (Object x : PyObjectOps.iterate(numbers)) {
                        squares = PyObjectOps.add(squares, PyObjectOps.pow(PyObjectOps.sub(x, mean), BigInteger.TWO));
                    }
                    double variance = PyObjectOps.toDouble(PyObjectOps.truediv(squares, len(numbers)));
                    return Math.sqrt(variance);
                },
                "All elements in the list must be numbers");
    }

    private static final Map<String, Object> TO_METERS = Map.of(
            "km", BigInteger.valueOf(1000), "m", BigInteger.ONE, "cm", 0.01, "mm", 0.001, "um", 1e-6, "nm", 1e-9);

    private static boolean isIntOrFloat(Object v) {
        return PyObjects.isNumber(v);
    }

    private static Outcome siUnitConversion(Backend b, Object[] a, Globals g) {
        Object value = a[0], unitIn = a[1], unitOut = a[2];
        if (!isIntOrFloat(value)) return ok(b, g, dict("error", "Value must be a number"));
        if (!inMeters(unitIn) || !inMeters(unitOut)) {
            return ok(
                    b,
                    g,
                    dict(
                            "error",
                            "Conversion from '" + PyObjects.str(unitIn) + "' to '" + PyObjects.str(unitOut)
                                    + "' is not supported"));
        }
        try {
            Object meters = PyObjectOps.mul(value, TO_METERS.get((String) unitIn));
            // from_meters = {unit: 1 / factor}
            Object fromMeters = PyObjectOps.truediv(BigInteger.ONE, TO_METERS.get((String) unitOut));
            return ok(b, g, dict("result", PyObjectOps.mul(meters, fromMeters)));
        } catch (PyException e) {
            if (e.pyType().equals("OverflowError"))
                return ok(b, g, dict("error", "Conversion resulted in a value too large to represent"));
            throw e;
        }
    }

    private static boolean inMeters(Object unit) {
        PyObjects.requireHashable(unit);
        return unit instanceof String s && TO_METERS.containsKey(s);
    }

    private static final Map<String, Double> CONVERSION = Map.ofEntries(
            Map.entry("cm_to_in", 0.393701),
            Map.entry("in_to_cm", 2.54),
            Map.entry("m_to_ft", 3.28084),
            Map.entry("ft_to_m", 0.3048),
            Map.entry("m_to_yd", 1.09361),
            Map.entry("yd_to_m", 0.9144),
            Map.entry("km_to_miles", 0.621371),
            Map.entry("miles_to_km", 1.60934),
            Map.entry("kg_to_lb", 2.20462),
            Map.entry("lb_to_kg", 0.453592),
            Map.entry("celsius_to_fahrenheit", 1.8),
            Map.entry("fahrenheit_to_celsius", 5.0 / 9));

    private static Outcome imperialSiConversion(Backend b, Object[] a, Globals g) {
        Object value = a[0], unitIn = a[1], unitOut = a[2];
        if (!isIntOrFloat(value)) return ok(b, g, dict("error", "Value must be a number"));
        if (PyObjects.eq(unitIn, unitOut)) return ok(b, g, dict("result", value));
        String key = PyObjects.str(unitIn) + "_to_" + PyObjects.str(unitOut);
        Double factor = CONVERSION.get(key);
        if (factor == null) {
            return ok(
                    b,
                    g,
                    dict(
                            "error",
                            "Conversion from '" + PyObjects.str(unitIn) + "' to '" + PyObjects.str(unitOut)
                                    + "' is not supported"));
        }
        try {
            Object result;
            if (PyObjects.eq(unitIn, "celsius") && PyObjects.eq(unitOut, "fahrenheit")) {
                result = PyObjectOps.add(PyObjectOps.mul(value, factor), BigInteger.valueOf(32));
            } else if (PyObjects.eq(unitIn, "fahrenheit") && PyObjects.eq(unitOut, "celsius")) {
                result = PyObjectOps.mul(PyObjectOps.sub(value, BigInteger.valueOf(32)), factor);
            } else {
                result = PyObjectOps.mul(value, factor);
            }
            return ok(b, g, dict("result", result));
        } catch (PyException e) {
            if (e.pyType().equals("OverflowError"))
                return ok(b, g, dict("error", "Conversion resulted in a value too large to represent"));
            throw e;
        }
    }

    private static Outcome add(Backend b, Object[] a, Globals g) {
        return guarded(b, g, () -> PyObjectOps.add(a[0], a[1]), "Both inputs must be numbers");
    }

    private static Outcome subtract(Backend b, Object[] a, Globals g) {
        return guarded(b, g, () -> PyObjectOps.sub(a[0], a[1]), "Both inputs must be numbers");
    }

    private static Outcome multiply(Backend b, Object[] a, Globals g) {
        if (!isIntOrFloat(a[0]) || !isIntOrFloat(a[1])) return ok(b, g, dict("error", "Both inputs must be numbers"));
        return guarded(b, g, () -> PyObjectOps.mul(a[0], a[1]), "Both inputs must be numbers");
    }

    private static Outcome divide(Backend b, Object[] a, Globals g) {
        if (PyObjects.eq(a[1], BigInteger.ZERO)) return ok(b, g, dict("error", "Cannot divide by zero"));
        return guarded(b, g, () -> PyObjectOps.truediv(a[0], a[1]), "Both inputs must be numbers");
    }

    private static Outcome power(Backend b, Object[] a, Globals g) {
        return guarded(b, g, () -> PyObjectOps.pow(a[0], a[1]), "Both inputs must be numbers");
    }

    private static Outcome squareRoot(Backend b, Object[] a, Globals g) {
        Object number = a[0], precision = a[1];
        String msg = "Input must be a number or computation resulted in an invalid operation";
        try {
            if (PyObjectOps.lt(number, BigInteger.ZERO))
                return ok(b, g, dict("error", "Cannot calculate square root of a negative number"));
            // getcontext().prec = precision
            if (!PyObjects.isInt(precision)) {
                throw PyException.typeError(
                        "'" + PyObjects.typeName(precision) + "' object cannot be interpreted as an integer");
            }
            BigInteger p = PyObjects.asBigInteger(precision);
            if (p.signum() <= 0 || p.compareTo(BigInteger.valueOf(999999999999999999L)) > 0) {
                throw PyException.valueError("valid range for prec is [1, MAX_PREC]");
            }
            return ok(b, g, dict("result", decimalSqrt(number, p.intValueExact())));
        } catch (PyException e) {
            if (isTypeError(e)) return ok(b, g, dict("error", msg));
            throw e;
        }
    }

    /** {@code Decimal(number).sqrt()} at {@code prec} digits, ROUND_HALF_EVEN (Python's decimal module). */
    static PyDecimal decimalSqrt(Object number, int prec) {
        if (number instanceof Double d) {
            if (d.isNaN()) return PyDecimal.special("NaN");
            if (d.isInfinite()) return PyDecimal.special("Infinity"); // negative infinity was rejected by `number < 0`
        }
        boolean negZero = number instanceof Double d && d == 0.0 && Math.copySign(1.0, d) < 0;
        BigDecimal x = number instanceof Double d ? new BigDecimal(d) : new BigDecimal(PyObjects.asBigInteger(number));
        // Decimal(float) keeps every digit of the binary value: coefficient c, exponent e (x = c * 10^e)
        BigInteger c = x.unscaledValue();
        long e = -x.scale();
        if (c.signum() == 0) {
            return new PyDecimal(negZero, BigInteger.ZERO, Math.floorDiv(e, 2), null);
        }
        long ideal = Math.floorDiv(e, 2);
        // N = c * 10^(e - 2f) integral with at least 2*prec + 2 digits, so isqrt(N) has more than prec digits
        int digitsC = c.toString().length();
        long f = Math.min(Math.floorDiv(e, 2), Math.floorDiv(e + digitsC - 2L * prec - 2, 2));
        BigInteger n = c.multiply(BigInteger.TEN.pow((int) (e - 2 * f)));
        BigInteger s = n.sqrt();
        boolean exactRoot = s.multiply(s).equals(n);
        int drop = s.toString().length() - prec; // >= 1: N has at least 2 * prec + 2 digits
        BigInteger unit = BigInteger.TEN.pow(drop);
        BigInteger[] qr = s.divideAndRemainder(unit);
        BigInteger q = qr[0];
        long exp = f + drop;
        if (!(exactRoot && qr[1].signum() == 0)) {
            // ROUND_HALF_EVEN on the true root: s <= root < s + 1, equal to s only for an exact root
            int cmp = qr[1].shiftLeft(1).compareTo(unit);
            boolean up = cmp > 0 || cmp == 0 && (!exactRoot || q.testBit(0));
            if (up) q = q.add(BigInteger.ONE);
            if (q.toString().length() > prec) {
                q = q.divide(BigInteger.TEN);
                exp += 1;
            }
            return new PyDecimal(false, q, exp, null);
        }
        // exact: strip trailing zeros down to the ideal exponent
        while (exp < ideal && q.mod(BigInteger.TEN).signum() == 0 && q.signum() != 0) {
            q = q.divide(BigInteger.TEN);
            exp++;
        }
        return new PyDecimal(false, q, exp, null);
    }

    /** A {@code decimal.Decimal}: {@code (-1)^neg * coefficient * 10^exponent}, or a special ("NaN", "Infinity"). */
    record PyDecimal(boolean neg, BigInteger coefficient, long exponent, String special) implements PyObjects.Custom {
        static PyDecimal special(String s) {
            return new PyDecimal(false, BigInteger.ZERO, 0, s);
        }

        @Override
        public String pyTypeName() {
            return "Decimal";
        }

        @Override
        public String pyRepr() {
            return "Decimal('" + pyStr() + "')";
        }

        /** Decimal.__str__: to-scientific-string. */
        @Override
        public String pyStr() {
            String sign = neg ? "-" : "";
            if (special != null) return sign + special;
            String digits = coefficient.toString();
            long adjusted = exponent + digits.length() - 1;
            if (exponent <= 0 && adjusted >= -6) {
                if (exponent == 0) return sign + digits;
                int point = digits.length() + (int) exponent;
                if (point > 0) return sign + digits.substring(0, point) + "." + digits.substring(point);
                return sign + "0." + "0".repeat(-point) + digits;
            }
            String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "") + adjusted;
        }
    }

    private static Outcome absoluteValue(Backend b, Object[] a, Globals g) {
        return guarded(b, g, () -> PyObjectOps.abs(a[0]), "Input must be a number");
    }

    private static Outcome roundNumber(Backend b, Object[] a, Globals g) {
        return guarded(
                b,
                g,
                () -> PyBuiltins.call("round", BfclData.PYTHON, a[0], a[1]),
                "First input must be a number, second input must be an integer");
    }

    private static Outcome percentage(Backend b, Object[] a, Globals g) {
        if (PyObjects.eq(a[1], BigInteger.ZERO)) return ok(b, g, dict("error", "Whole value cannot be zero"));
        return guarded(
                b,
                g,
                () -> PyObjectOps.mul(PyObjectOps.truediv(a[0], a[1]), BigInteger.valueOf(100)),
                "Both inputs must be numbers");
    }

    private static Outcome minValue(Backend b, Object[] a, Globals g) {
        if (!PyObjects.truthy(a[0])) return ok(b, g, dict("error", "Cannot find minimum of an empty list"));
        return guarded(
                b, g, () -> PyBuiltins.call("min", BfclData.PYTHON, a[0]), "All elements in the list must be numbers");
    }

    private static Outcome maxValue(Backend b, Object[] a, Globals g) {
        if (!PyObjects.truthy(a[0])) return ok(b, g, dict("error", "Cannot find maximum of an empty list"));
        return guarded(
                b, g, () -> PyBuiltins.call("max", BfclData.PYTHON, a[0]), "All elements in the list must be numbers");
    }

    private static Outcome sumValues(Backend b, Object[] a, Globals g) {
        if (!PyObjects.truthy(a[0])) return ok(b, g, dict("error", "Cannot calculate sum of an empty list"));
        return guarded(b, g, () -> sum(a[0]), "All elements in the list must be numbers");
    }

    public static final BackendClass CLASS = BackendClass.of(
            "MathAPI",
            true,
            (config, lc, g) -> new Outcome(new MathAPI(), g, PyNone.NONE),
            List.of(
                    Method.of(
                            "logarithm",
                            MathAPI::logarithm,
                            required("value"),
                            required("base"),
                            required("precision")),
                    Method.of("mean", MathAPI::mean, required("numbers")),
                    Method.of("standard_deviation", MathAPI::standardDeviation, required("numbers")),
                    Method.of(
                            "si_unit_conversion",
                            MathAPI::siUnitConversion,
                            required("value"),
                            required("unit_in"),
                            required("unit_out")),
                    Method.of(
                            "imperial_si_conversion",
                            MathAPI::imperialSiConversion,
                            required("value"),
                            required("unit_in"),
                            required("unit_out")),
                    Method.of("add", MathAPI::add, required("a"), required("b")),
                    Method.of("subtract", MathAPI::subtract, required("a"), required("b")),
                    Method.of("multiply", MathAPI::multiply, required("a"), required("b")),
                    Method.of("divide", MathAPI::divide, required("a"), required("b")),
                    Method.of("power", MathAPI::power, required("base"), required("exponent")),
                    Method.of("square_root", MathAPI::squareRoot, required("number"), required("precision")),
                    Method.of("absolute_value", MathAPI::absoluteValue, required("number")),
                    Method.of(
                            "round_number",
                            MathAPI::roundNumber,
                            required("number"),
                            optional("decimal_places", BigInteger.ZERO)),
                    Method.of("percentage", MathAPI::percentage, required("part"), required("whole")),
                    Method.of("min_value", MathAPI::minValue, required("numbers")),
                    Method.of("max_value", MathAPI::maxValue, required("numbers")),
                    Method.of("sum_values", MathAPI::sumValues, required("numbers"))));
}
