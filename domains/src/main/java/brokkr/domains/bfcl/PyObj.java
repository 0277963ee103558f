package brokkr.domains.bfcl;

import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Python object as the AST checker sees it: the JSON-like {@link Value}s plus {@code tuple}, which a
 * decoded model answer can hold (a Python call {@code f(x=(1, 2))} decodes to a tuple) and which
 * the checker treats differently from a list ({@code type(v) == list} is false, {@code (1,) != [1]}).
 * The engine's {@link Value} has no tuple, so the checker works on this small sum type; atoms keep
 * their {@link Value} and get {@link PyOps#eq} and {@link PyRepr#repr} from {@code brokkr.python}
 * (under BFCL's release, {@link BfclData#PYTHON}).
 *
 * <p>On the wire (verdict corpora) a tuple is {@code {"$tuple": [...]}}. Containers take ownership of
 * the list or map they are built with (not copied, for the checker's speed); nothing mutates them.
 */
public sealed interface PyObj permits PyObj.Atom, PyObj.Seq, PyObj.Dict {

    /** A str, int, float, bool or None. */
    record Atom(Value value) implements PyObj {
        @Override
        public String typeName() {
            return value.typeName();
        }
    }

    /** A list ({@code tuple == false}) or a tuple. */
    record Seq(List<PyObj> items, boolean tuple) implements PyObj {
        @Override
        public String typeName() {
            return tuple ? "tuple" : "list";
        }

        int size() {
            return items.size();
        }

        PyObj get(int i) {
            return items.get(i);
        }
    }

    /**
     * A dict with str keys, in insertion order, stored as parallel arrays: the checker's dicts are
     * small (a call, its parameters), so a scan beats hashing and the layout keeps grading cache-friendly.
     */
    final class Dict implements PyObj {
        private static final int INDEX_FROM = 9;
        private final String[] keys;
        private final PyObj[] values;
        private final Map<String, Integer> index;

        public Dict(Map<String, PyObj> entries) {
            this(entries.keySet().toArray(new String[0]), entries.values().toArray(new PyObj[0]));
        }

        Dict(String[] keys, PyObj[] values) {
            this.keys = keys;
            this.values = values;
            if (keys.length >= INDEX_FROM) {
                Map<String, Integer> m = new java.util.HashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], i);
                index = m;
            } else {
                index = null;
            }
        }

        @Override
        public String typeName() {
            return "dict";
        }

        public int size() {
            return keys.length;
        }

        public String keyAt(int i) {
            return keys[i];
        }

        public PyObj valueAt(int i) {
            return values[i];
        }

        int find(String k) {
            if (index != null) {
                Integer i = index.get(k);
                return i == null ? -1 : i;
            }
            for (int i = 0; i < keys.length; i++) if (keys[i].equals(k)) return i;
            return -1;
        }

        public boolean has(String k) {
            return find(k) >= 0;
        }

        /** The value under {@code k}, or Java null. */
        public PyObj get(String k) {
            int i = find(k);
            return i < 0 ? null : values[i];
        }

        /** The entries as an ordered map (a copy; for the paths that are not hot). */
        public Map<String, PyObj> entries() {
            Map<String, PyObj> m = new LinkedHashMap<>();
            for (int i = 0; i < keys.length; i++) m.put(keys[i], values[i]);
            return m;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Dict d && same(this, d);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(keys);
        }

        @Override
        public String toString() {
            return repr(this);
        }
    }

    /** {@code type(x).__name__}. */
    String typeName();

    PyObj EMPTY_STR = new Atom(new PyStr(""));

    static PyObj str(String s) {
        return new Atom(new PyStr(s));
    }

    static Seq list(List<PyObj> items) {
        return new Seq(items, false);
    }

    /** Decodes the corpus encoding: {@code {"$tuple": [...]}} is a tuple, everything else as is. */
    static PyObj fromJson(Value v) {
        return switch (v) {
            case PyList l -> {
                List<PyObj> items = new ArrayList<>(l.size());
                for (Value x : l) items.add(fromJson(x));
                yield new Seq(items, false);
            }
            case PyDict d -> {
                if (d.size() == 1 && d.get("$tuple") instanceof PyList l) {
                    List<PyObj> items = new ArrayList<>(l.size());
                    for (Value x : l) items.add(fromJson(x));
                    yield new Seq(items, true);
                }
                String[] ks = new String[d.size()];
                PyObj[] vs = new PyObj[d.size()];
                int i = 0;
                for (Map.Entry<String, Value> e : d.entries()) {
                    ks[i] = e.getKey();
                    vs[i++] = fromJson(e.getValue());
                }
                yield new Dict(ks, vs);
            }
            default -> new Atom(v);
        };
    }

    /** A plain JSON value (a model's arguments): no tuple decoding, a {@code "$tuple"} key is just a key. */
    static PyObj ofValue(Value v) {
        return switch (v) {
            case PyList l -> {
                List<PyObj> items = new ArrayList<>(l.size());
                for (Value x : l) items.add(ofValue(x));
                yield new Seq(items, false);
            }
            case PyDict d -> {
                String[] ks = new String[d.size()];
                PyObj[] vs = new PyObj[d.size()];
                int i = 0;
                for (Map.Entry<String, Value> e : d.entries()) {
                    ks[i] = e.getKey();
                    vs[i++] = ofValue(e.getValue());
                }
                yield new Dict(ks, vs);
            }
            default -> new Atom(v);
        };
    }

    /** The corpus encoding of {@code o} (inverse of {@link #fromJson}). */
    static Value toJson(PyObj o) {
        return switch (o) {
            case Atom a -> a.value();
            case Seq s -> {
                List<Value> items = new ArrayList<>(s.size());
                for (PyObj x : s.items()) items.add(toJson(x));
                PyList l = PyList.of(items);
                yield s.tuple() ? PyDict.builder().put("$tuple", l).build() : l;
            }
            case Dict d -> {
                PyDict.Builder b = PyDict.builder();
                for (int i = 0; i < d.size(); i++) b.put(d.keyAt(i), toJson(d.valueAt(i)));
                yield b.build();
            }
        };
    }

    /** Python's {@code a == b}: numbers across int/float/bool, a tuple never equals a list, dicts unordered. */
    static boolean eq(PyObj a, PyObj b) {
        if (a instanceof Atom x) return b instanceof Atom y && PyOps.eq(x.value(), y.value());
        if (a instanceof Seq x) {
            if (!(b instanceof Seq y) || x.tuple() != y.tuple() || x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!eq(x.get(i), y.get(i))) return false;
            return true;
        }
        Dict x = (Dict) a;
        if (!(b instanceof Dict y) || x.size() != y.size()) return false;
        for (int i = 0; i < x.size(); i++) {
            PyObj other = y.get(x.keyAt(i));
            if (other == null || !eq(x.valueAt(i), other)) return false;
        }
        return true;
    }

    /** Exact sameness for conformance: types, float bits, dict key order. */
    static boolean same(PyObj a, PyObj b) {
        if (a instanceof Atom x) return b instanceof Atom y && x.value().equals(y.value());
        if (a instanceof Seq x) {
            if (!(b instanceof Seq y) || x.tuple() != y.tuple() || x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i))) return false;
            return true;
        }
        Dict x = (Dict) a;
        if (!(b instanceof Dict y) || x.size() != y.size()) return false;
        for (int i = 0; i < x.size(); i++) {
            if (!x.keyAt(i).equals(y.keyAt(i)) || !same(x.valueAt(i), y.valueAt(i))) return false;
        }
        return true;
    }

    static boolean isStr(PyObj o) {
        return o instanceof Atom a && a.value() instanceof PyStr;
    }

    static String strValue(PyObj o) {
        return ((PyStr) ((Atom) o).value()).value();
    }

    static boolean isList(PyObj o) {
        return o instanceof Seq s && !s.tuple();
    }

    /** {@code repr(o)}. */
    static String repr(PyObj o) {
        StringBuilder sb = new StringBuilder();
        repr(o, sb);
        return sb.toString();
    }

    /** {@code str(o)} (what an f-string interpolates): a str is itself, anything else its repr. */
    static String str(PyObj o) {
        return isStr(o) ? strValue(o) : repr(o);
    }

    static void repr(PyObj o, StringBuilder sb) {
        switch (o) {
            case Atom a -> PyRepr.repr(a.value(), sb, BfclData.PYTHON);
            case Seq s -> {
                sb.append(s.tuple() ? '(' : '[');
                for (int i = 0; i < s.size(); i++) {
                    if (i > 0) sb.append(", ");
                    repr(s.get(i), sb);
                }
                if (s.tuple() && s.size() == 1) sb.append(',');
                sb.append(s.tuple() ? ')' : ']');
            }
            case Dict d -> {
                sb.append('{');
                for (int i = 0; i < d.size(); i++) {
                    if (i > 0) sb.append(", ");
                    PyRepr.reprStr(d.keyAt(i), sb, BfclData.PYTHON);
                    sb.append(": ");
                    repr(d.valueAt(i), sb);
                }
                sb.append('}');
            }
        }
    }
}
