package brokkr.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CPython 3.13's keyword suggestion (Python/suggestions.c) on cases recorded by a tau2 oracle corpus. */
class PyBindingTest {
    @Test
    void suggestions() {
        List<String> cancel = List.of("self", "order_id", "reason");
        List<String> userAddr = List.of("self", "user_id", "address1", "address2", "city", "state", "country", "zip");
        assertEquals("order_id", PyBinding.suggest(cancel, "user_id"));
        assertEquals("user_id", PyBinding.suggest(userAddr, "order_id"));
        for (String k : List.of("foo", "amount", "confirm", "dry_run", "customer_id", "reservation_id", "id", "kwargs")) {
            assertNull(PyBinding.suggest(cancel, k), k);
            assertNull(PyBinding.suggest(userAddr, k), k);
        }
        assertEquals("user_id", PyBinding.suggest(List.of("self", "user_id"), "User_Id"));
        assertEquals("reason", PyBinding.suggest(cancel, "reasons"));
    }
}
