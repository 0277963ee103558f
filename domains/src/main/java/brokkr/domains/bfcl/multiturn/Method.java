package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyException;
import java.util.Arrays;
import java.util.List;

/**
 * A public method of a backend class: its Python signature (after {@code self}; positional-or-keyword
 * parameters, the only kind the eight classes use) and its body. The executor binds a call's positional
 * and keyword arguments to the parameters with CPython's checks and errors (unexpected keyword,
 * missing or too many arguments, multiple values) and hands the body one argument per parameter,
 * defaults filled in.
 */
public record Method(String name, List<Param> params, Body body) {
    public Method {
        params = List.copyOf(params);
    }

    /** {@code Method.of("cd", (self, args, g) -> ..., Param.required("folder"))}. */
    public static Method of(String name, Body body, Param... params) {
        return new Method(name, Arrays.asList(params), body);
    }

    /** A parameter; {@code dflt} is the Python default value, or {@link #REQUIRED}. */
    public record Param(String name, Object dflt) {
        /** Marks a parameter without a default. */
        public static final Object REQUIRED = new Object() {
            @Override
            public String toString() {
                return "<required>";
            }
        };

        public static Param required(String name) {
            return new Param(name, REQUIRED);
        }

        public static Param optional(String name, Object dflt) {
            return new Param(name, dflt);
        }

        public boolean isRequired() {
            return dflt == REQUIRED;
        }
    }

    /** The method body. Raise a Python exception as {@link PyException} (its {@code str()} becomes the error). */
    @FunctionalInterface
    public interface Body {
        Outcome call(Backend self, Object[] args, Globals globals) throws PyException;
    }
}
