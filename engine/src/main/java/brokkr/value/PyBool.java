package brokkr.value;

/** Python {@code bool}: a distinct type from int for type checks, though {@code True == 1} in Python. */
public enum PyBool implements Value {
    FALSE,
    TRUE;

    public static PyBool of(boolean b) {
        return b ? TRUE : FALSE;
    }

    public boolean value() {
        return this == TRUE;
    }

    @Override
    public String typeName() {
        return "bool";
    }
}
