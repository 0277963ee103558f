package brokkr.tool;

import brokkr.python.CPython;
import brokkr.python.PyArgumentBinding;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool call's keyword arguments bound to its function's parameters as CPython 3.13 does (the tools'
 * upstream, tau2-bench, runs it): {@link PyArgumentBinding}'s rule and texts, defaults filled in.
 */
public final class PyBinding {
    private PyBinding() {}

    /**
     * @param qualname  the function's {@code __qualname__}, e.g. {@code RetailTools.get_order_details}
     * @param bound     names of parameters already bound positionally (e.g. {@code self}); a keyword
     *                  naming one of them is "multiple values"
     * @param params    the remaining parameters
     */
    public static Args bind(String qualname, List<String> bound, List<Param> params, PyDict kwargs) {
        Map<String, Value> kw = new LinkedHashMap<>();
        for (Map.Entry<String, Value> e : kwargs.entries()) kw.put(e.getKey(), e.getValue());
        List<Value> values = PyArgumentBinding.bind(
                qualname,
                bound,
                params.stream().map(Param::name).toList(),
                i -> params.get(i).isRequired(),
                List.of(),
                kw,
                CPython.V3_13);
        Map<String, Value> ordered = new LinkedHashMap<>();
        for (int i = 0; i < params.size(); i++) {
            Value v = values.get(i);
            ordered.put(params.get(i).name(), v != null ? v : params.get(i).defaultValue());
        }
        return new Args(ordered);
    }
}
