package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** upstream agentic_checker's normalisation and word-boundary search, quirks included. */
class AgenticCheckerTest {
    private static boolean valid(String response, String... answers) {
        return AgenticChecker.check(response, List.of(answers)).valid();
    }

    @Test
    void standardizationDropsPunctuationLowersAndTurnsSingleQuotesDouble() {
        assertEquals("april 1 2024", AgenticChecker.standardize("April 1, 2024"));
        assertEquals("{\"answer\": \"michael\"}", AgenticChecker.standardize("{'answer': 'Michael'}"));
        assertEquals("q1budget", AgenticChecker.standardize("Q1-budget"));
        assertEquals("35yearold", AgenticChecker.standardize("35-year-old"));
    }

    @Test
    void anAnswerMustStandBetweenWordBoundaries() {
        assertTrue(valid("{'answer': 'Michael', 'context': 'you told me'}", "Michael"));
        // the comma goes but the space stays: "April 1,2024" is not "April 1, 2024" (whatever the docstring says)
        assertFalse(valid("It is April 1,2024.", "April 1, 2024"));
        assertTrue(valid("It is April 1 2024.", "April 1, 2024"));
        assertFalse(valid("Michaelson", "Michael"));
        // the hyphen goes, so "35-year-old" is one word: upstream does not find "35" in it
        assertFalse(valid("You are a 35-year-old.", "35", "thirty five"));
        assertTrue(valid("You are 35.", "35", "thirty five"));
        // an answer starting with a non-word character needs a word character before it (\b before '$')
        assertFalse(valid("It costs $100.", "$100"));
        assertTrue(valid("It costs x$100.", "$100"));
        assertTrue(valid("Strawberry MATCHA latte", "strawberry matcha"));
    }

    @Test
    void theVerdictNamesUpstreamsErrorType() {
        AgenticChecker.Verdict v = AgenticChecker.check("I do not know", List.of("Seattle"));
        assertFalse(v.valid());
        assertEquals("agentic:answer_not_found", v.errorType());
        assertEquals("None of the expected answers were found in the model response.", v.errorMessage());
    }

    @Test
    void wordCharactersAreIsalnumOrUnderscore() {
        assertTrue(AgenticChecker.isWord('é'));
        assertTrue(AgenticChecker.isWord('²'));
        assertTrue(AgenticChecker.isWord('½'));
        assertFalse(AgenticChecker.isWord('$'));
        assertFalse(AgenticChecker.isWord('\u0301')); // a combining mark is not alnum in CPython
    }
}
