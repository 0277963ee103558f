package brokkr.domains.bfcl.multiturn.backends;

import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.PVector;

/**
 * Conveniences TradingBot, TravelAPI and VehicleControlAPI share over {@link PyObjects}' model: the
 * persistent form of a raw call argument, the AttributeError of a method called on the wrong type, and
 * {@code format(x, '.2f')}. The Python rules themselves (operators, {@code float()}/{@code int()}, dict
 * lookup with numeric key unification, subscripts) are {@code brokkr.python}'s ({@link PyObjectOps},
 * {@link PyObjects}, {@code PyBuiltins}).
 */
final class PyDyn {
    private PyDyn() {}

    @SuppressWarnings("unchecked")
    static OrderedPMap<Object, Object> ordered(Map<?, ?> m) {
        if (m instanceof OrderedPMap<?, ?> o) return (OrderedPMap<Object, Object>) o;
        OrderedPMap<Object, Object> p = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : m.entrySet()) p = p.plus(e.getKey(), e.getValue());
        return p;
    }

    @SuppressWarnings("unchecked")
    static PVector<Object> vector(List<?> l) {
        return l instanceof PVector<?> v ? (PVector<Object>) v : ArrayVector.from(l);
    }

    /** {@code x.attr(...)} on something that is not a str. */
    static PyException noAttribute(Object o, String attr) {
        return PyException.attributeError("'" + PyObjects.typeName(o) + "' object has no attribute '" + attr + "'");
    }

    /** {@code format(x, '.2f')} for a number. */
    static String fixed2(Object x) {
        return PyFormat.fixed(PyObjectOps.toDouble(x), 2);
    }
}
