package brokkr.domains.bfcl;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A function doc as the checker reads it, indexed once per task: the name, the required parameters
 * and each parameter's {@code type} and {@code items.type}. Where upstream would raise on the raw doc
 * (a missing key), the problem is kept and raised when the checker reaches it, as upstream's is.
 */
record FunctionDoc(String name, List<String> required, Map<String, Param> params, String broken) {

    /** A parameter's declared type and item type (null when absent; {@code problem} says what upstream would raise). */
    record Param(String type, String itemsType, String problem) {}

    /** A task's docs in order, plus the first doc of each name (find_description's answer). */
    record Docs(List<FunctionDoc> list, Map<String, FunctionDoc> byName) {
        FunctionDoc get(int i) {
            return list.get(i);
        }
    }

    static Docs of(PyList functions) {
        List<FunctionDoc> out = new ArrayList<>(functions.size());
        Map<String, FunctionDoc> byName = new HashMap<>();
        for (Value f : functions) {
            FunctionDoc d = of(f);
            out.add(d);
            if (d.name() != null) byName.putIfAbsent(d.name(), d);
        }
        return new Docs(List.copyOf(out), byName);
    }

    static FunctionDoc of(Value v) {
        if (!(v instanceof PyDict d) || !(d.get("name") instanceof PyStr name))
            return new FunctionDoc(null, List.of(), Map.of(), "doc without a name");
        if (!(d.get("parameters") instanceof PyDict parameters))
            return new FunctionDoc(name.value(), List.of(), Map.of(), "KeyError: 'parameters'");
        if (!(parameters.get("properties") instanceof PyDict properties))
            return new FunctionDoc(name.value(), List.of(), Map.of(), "KeyError: 'properties'");
        if (!(parameters.get("required") instanceof PyList req))
            return new FunctionDoc(name.value(), List.of(), Map.of(), "KeyError: 'required'");
        List<String> required = new ArrayList<>();
        for (Value r : req) {
            if (!(r instanceof PyStr s))
                return new FunctionDoc(name.value(), List.of(), Map.of(), "required holds a " + r.typeName());
            required.add(s.value());
        }
        Map<String, Param> params = new HashMap<>();
        for (Map.Entry<String, Value> e : properties.entries()) {
            String type = null, items = null, problem = null;
            if (e.getValue() instanceof PyDict p) {
                if (p.get("type") instanceof PyStr t) type = t.value();
                else problem = "KeyError: 'type'";
                if (p.get("items") instanceof PyDict it && it.get("type") instanceof PyStr t) items = t.value();
            } else {
                problem = "parameter details are a " + e.getValue().typeName();
            }
            params.put(e.getKey(), new Param(type, items, problem));
        }
        return new FunctionDoc(name.value(), List.copyOf(required), params, null);
    }
}
