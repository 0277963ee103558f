package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CPython's argument binding: 3.13's keyword suggestion (Python/suggestions.c) on cases recorded by a
 * tau2 oracle corpus, and the texts of ceval.c initialize_locals that BFCL's fuzz corpora (3.11) recorded.
 */
class PyArgumentBindingTest {
    @Test
    void suggestions() {
        List<String> cancel = List.of("self", "order_id", "reason");
        List<String> userAddr = List.of("self", "user_id", "address1", "address2", "city", "state", "country", "zip");
        assertEquals("order_id", PyArgumentBinding.suggest(cancel, "user_id"));
        assertEquals("user_id", PyArgumentBinding.suggest(userAddr, "order_id"));
        for (String k :
                List.of("foo", "amount", "confirm", "dry_run", "customer_id", "reservation_id", "id", "kwargs")) {
            assertNull(PyArgumentBinding.suggest(cancel, k), k);
            assertNull(PyArgumentBinding.suggest(userAddr, k), k);
        }
        assertEquals("user_id", PyArgumentBinding.suggest(List.of("self", "user_id"), "User_Id"));
        assertEquals("reason", PyArgumentBinding.suggest(cancel, "reasons"));
    }

    /** gh-107944: only 3.13 suggests a close parameter name for an unexpected keyword. */
    @Test
    void theKeywordSuggestionIsThirteensOnly() {
        Map<String, Object> kw = Map.of("reasons", "x");
        assertEquals(
                "Tools.cancel() got an unexpected keyword argument 'reasons'", error(List.of(), kw, CPython.V3_11));
        assertEquals(
                "Tools.cancel() got an unexpected keyword argument 'reasons'. Did you mean 'reason'?",
                error(List.of(), kw, CPython.V3_13));
    }

    @Test
    void errorsInCPythonsOrder() {
        for (CPython python : CPython.values()) {
            Map<String, Object> kw = new LinkedHashMap<>();
            kw.put("order_id", "a");
            assertEquals("Tools.cancel() got multiple values for argument 'order_id'", error(List.of("a"), kw, python));
            assertEquals(
                    "Tools.cancel() got multiple values for argument 'self'",
                    error(List.of(), Map.of("self", 1), python));
            // keywords are checked before the positional count, the count before what is missing
            assertEquals(
                    "Tools.cancel() takes from 2 to 4 positional arguments but 5 were given",
                    error(List.of(1, 2, 3, 4), Map.of(), python));
            assertEquals(
                    "Tools.cancel() missing 1 required positional argument: 'order_id'",
                    error(List.of(), Map.of(), python));
        }
        assertEquals(
                "f() missing 3 required positional arguments: 'a', 'b', and 'c'",
                assertThrows(
                                PyException.class,
                                () -> PyArgumentBinding.bind(
                                        "f",
                                        List.of(),
                                        List.of("a", "b", "c"),
                                        i -> true,
                                        List.of(),
                                        Map.of(),
                                        CPython.V3_11))
                        .str());
        assertEquals(
                "f() takes 1 positional argument but 2 were given",
                assertThrows(
                                PyException.class,
                                () -> PyArgumentBinding.bind(
                                        "f",
                                        List.of(),
                                        List.of("a"),
                                        i -> true,
                                        List.of(1, 2),
                                        Map.of(),
                                        CPython.V3_11))
                        .str());
    }

    @Test
    void bindsPositionalThenKeyword() {
        List<Object> v = PyArgumentBinding.bind(
                "Tools.cancel",
                List.of("self"),
                List.of("order_id", "reason", "note"),
                i -> i == 0,
                List.<Object>of("o1"),
                Map.<String, Object>of("note", BigInteger.ONE),
                CPython.V3_11);
        assertEquals(java.util.Arrays.asList("o1", null, BigInteger.ONE), v);
    }

    private static String error(List<Object> args, Map<String, Object> kwargs, CPython python) {
        return assertThrows(
                        PyException.class,
                        () -> PyArgumentBinding.bind(
                                "Tools.cancel",
                                List.of("self"),
                                List.of("order_id", "reason", "note"),
                                i -> i == 0,
                                args,
                                kwargs,
                                python))
                .str();
    }
}
