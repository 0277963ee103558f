package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.value.PyDict;
import org.junit.jupiter.api.Test;

/**
 * The find-user tools lower() their arguments once instead of per user; where Python evaluates them
 * stays the same: the first name's on the first user, the last name's only once a first name matched
 * ({@code and} short-circuits), so a non-str argument raises exactly where upstream's loop would.
 */
class RetailFindUserTest {
    private static final Tau2Environment ENV = RetailDomain.load().environment();

    private static String call(String tool, Object... args) {
        return ENV.getResponse(tool, PyDict.of(args), "assistant").content();
    }

    @Test
    void argumentsAreLoweredWherePythonEvaluatesThem() {
        assertEquals(
                "Error: 'int' object has no attribute 'lower'",
                call("find_user_id_by_name_zip", "first_name", 5, "last_name", "x", "zip", "1"));
        assertEquals(
                "Error: User not found",
                call("find_user_id_by_name_zip", "first_name", "Nobody-At-All", "last_name", 5, "zip", "1"),
                "no first name matches, so last_name.lower() is never evaluated");
        assertEquals(
                "Error: 'int' object has no attribute 'lower'",
                call("find_user_id_by_name_zip", "first_name", "Yusuf", "last_name", 5, "zip", "1"),
                "a first name matches: last_name.lower() raises");
        assertEquals(
                "yusuf_rossi_9620",
                call("find_user_id_by_name_zip", "first_name", "YUSUF", "last_name", "rossi", "zip", "19122"));
        assertEquals(
                "Error: 'list' object has no attribute 'lower'",
                call("find_user_id_by_email", "email", java.util.List.of("a")));
        assertEquals("Error: User not found", call("find_user_id_by_email", "email", "NOBODY@example.com"));
    }
}
