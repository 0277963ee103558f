package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;

/** Python truthiness ({@code bool(x)}, {@code if x:}). */
public final class PyTruth {
    private PyTruth() {}

    /** False for None, False, 0, 0.0, -0.0, '' and empty containers; NaN is true. */
    public static boolean truthy(Value v) {
        return switch (v) {
            case PyNone n -> false;
            case PyBool b -> b.value();
            case PyInt i -> i.value().signum() != 0;
            case PyFloat f -> f.value() != 0.0 || Double.isNaN(f.value());
            case PyStr s -> !s.value().isEmpty();
            case PyList l -> !l.isEmpty();
            case PyDict d -> !d.isEmpty();
        };
    }
}
