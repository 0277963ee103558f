package brokkr.python;

import brokkr.value.PyStr;
import brokkr.value.Value;

/**
 * A Python exception raised by transcribed code: its type name (e.g. {@code ValueError}) and
 * {@code str(e)}, which is what hosts like tau2 put in a tool message ({@code "Error: " + str(e)}).
 */
public class PyException extends RuntimeException {
    private final String pyType;
    private final String str;

    public PyException(String pyType, String str) {
        super(pyType + ": " + str, null, false, false);
        this.pyType = pyType;
        this.str = str;
    }

    public String pyType() {
        return pyType;
    }
    /** {@code str(e)}. */
    public String str() {
        return str;
    }

    public static PyException typeError(String msg) {
        return new PyException("TypeError", msg);
    }

    public static PyException valueError(String msg) {
        return new PyException("ValueError", msg);
    }

    public static PyException attributeError(String msg) {
        return new PyException("AttributeError", msg);
    }
    /** {@code str(KeyError(k))} is {@code repr(k)}. */
    public static PyException keyError(Value key) {
        return new PyException("KeyError", PyRepr.repr(key));
    }

    public static PyException keyError(String key) {
        return keyError(new PyStr(key));
    }
}
