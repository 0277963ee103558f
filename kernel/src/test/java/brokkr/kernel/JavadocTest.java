package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class JavadocTest {
    static final String RAW = """
             Returns the {@code List<String>} of names, see {@link java.util.List#of(Object...) the factory}
             and {@link #names}; {@literal a < b} &amp; {@value Integer#MAX_VALUE}.
             <p>Second paragraph with <em>emphasis</em>:
             <ul>
               <li>one {@code x}</li>
               <li>two</li>
             </ul>
             <pre>{@code
               var xs = List.of(1, 2);
               if (a < b) { }
             }</pre>
             @param  limit   how many, at most
             @param prefix the start
             @return the names,
                     in order
             @throws IllegalArgumentException if {@code limit < 0}
             @since 17
            """;

    @Test
    void markdown() {
        String md = Javadoc.render(RAW, Javadoc.Style.MARKDOWN);
        assertEquals("""
                Returns the `List<String>` of names, see the factory and `names`; a < b & `Integer.MAX_VALUE`.

                Second paragraph with *emphasis*:

                - one `x`
                - two

                ```java
                var xs = List.of(1, 2);
                if (a < b) { }
                ```

                **Parameters:**
                - `limit` – how many, at most
                - `prefix` – the start

                **Returns:** the names, in order

                **Throws:**
                - `IllegalArgumentException` – if `limit < 0`

                **Since:** 17""", md);
    }

    @Test
    void plainText() {
        String text = Javadoc.render(RAW, Javadoc.Style.PLAIN);
        assertTrue(
                text.startsWith(
                        "Returns the List<String> of names, see the factory and names; a < b & Integer.MAX_VALUE."),
                text);
        assertTrue(text.contains("\n\n- one x\n- two\n"), text);
        assertTrue(text.contains("\n    var xs = List.of(1, 2);\n    if (a < b) { }\n"), text);
        assertTrue(text.contains("Parameters:\n  limit – how many, at most\n  prefix – the start"), text);
        assertTrue(text.contains("Returns: the names, in order"), text);
        assertFalse(text.contains("{@") || text.contains("<p>") || text.contains("`") || text.contains("**"), text);
    }

    @Test
    void blankAndEntityEdgeCases() {
        assertEquals("", Javadoc.render(null, Javadoc.Style.PLAIN));
        assertEquals("", Javadoc.render("  \n ", Javadoc.Style.MARKDOWN));
        assertEquals("x ≤ y &bogus; A", Javadoc.render("x &le; y &bogus; &#65;", Javadoc.Style.PLAIN));
        assertEquals("unterminated {@code x", Javadoc.render("unterminated {@code x", Javadoc.Style.PLAIN));
    }
}
