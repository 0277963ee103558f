package brokkr.magics;

/**
 * Where a long-running magic shows live output: the kernel publishes {@code display_data} and later
 * {@code update_display_data} for the same id; the REPL prints. {@link #NONE} drops everything.
 */
public interface Display {
    /** Shows a value; returns an id that {@link #update} can replace it under. */
    String show(Object value);

    void update(String id, Object value);

    Display NONE = new Display() {
        @Override
        public String show(Object value) {
            return "";
        }

        @Override
        public void update(String id, Object value) {}
    };
}
