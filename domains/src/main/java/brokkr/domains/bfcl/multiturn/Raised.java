package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyException;

/**
 * A Python exception raised by a method after it had already changed its instance or the process
 * globals: upstream mutates in place, so those changes stay (e.g. {@code VehicleControlAPI.lockDoors}
 * locks the first door of {@code ['driver', 'trunk']}, then raises {@code KeyError: 'trunk'}). The
 * executor keeps {@link #self} and {@link #globals} and renders the error like any other
 * {@link PyException}.
 */
public final class Raised extends PyException {
    private final transient PyException cause;
    private final transient Backend self;
    private final transient Globals globals;

    public Raised(PyException cause, Backend self, Globals globals) {
        super(cause.pyType(), cause.str());
        this.cause = cause;
        this.self = self;
        this.globals = globals;
    }

    /** The Python exception raised. */
    public PyException cause() {
        return cause;
    }

    /** The instance as it was when the exception was raised. */
    public Backend self() {
        return self;
    }

    /** The process globals as they were when the exception was raised. */
    public Globals globals() {
        return globals;
    }
}
