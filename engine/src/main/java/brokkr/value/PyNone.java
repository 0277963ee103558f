package brokkr.value;

/** Python {@code None} (JSON null). */
public enum PyNone implements Value {
    NONE;

    @Override
    public String typeName() {
        return "NoneType";
    }
}
