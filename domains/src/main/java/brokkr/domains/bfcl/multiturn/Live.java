package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyObjects;
import java.util.function.Function;

/**
 * A method result that is a reference into the instance's state: upstream returns the stored object
 * itself ({@code return self.orders[order_id]}), so a later call of the same call string that changes it
 * in place shows in the rendered result ({@code get_ticket(1), close_ticket(1)} renders the closed ticket).
 * A body returns {@code new Live(value, self -> <the value as it is in self, or null if it is gone>)}; the
 * executor evaluates the view against the instance as it is when the value is used or rendered (the
 * snapshot {@code value} where the view finds nothing: the object left the state, it no longer changes).
 */
public record Live(Object value, Function<Backend, Object> view) implements PyObjects.Custom {
    /** The value as the instance {@code self} holds it now. */
    public Object in(Backend self) {
        Object v = view.apply(self);
        return v != null ? v : value;
    }

    @Override
    public String pyTypeName() {
        return "live view";
    }

    @Override
    public String pyRepr() {
        return "<live view>";
    }
}
