package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Fisher's exact test against p-values computed by hand from the hypergeometric law. */
class FisherExactTest {
    /**
     * [[3, 1], [1, 3]]: margins 4, 4 / 4, 4 of 8; P(x) = C(4,x) C(4,4-x) / C(8,4) = 1, 16, 36, 16, 1 over 70
     * for x = 0..4. Tables no likelier than x = 3 (16/70): x = 0, 1, 3, 4, so p = 34/70.
     */
    @Test
    void fishersTeaTasting() {
        assertEquals(34.0 / 70.0, FisherExact.test(3, 1, 1, 3).pValue(), 1e-12);
        assertEquals(0.4857142857142857, FisherExact.test(1, 3, 3, 1).pValue(), 1e-12);
    }

    /**
     * [[10, 0], [5, 5]] (always gold vs half gold, 10 samples each): margins 10, 10 / 15, 5 of 20;
     * P(x) = C(10,x) C(10,15-x) / C(20,15) = 252, 2100, 5400, 5400, 2100, 252 over 15504 for x = 5..10.
     * Tables no likelier than x = 10: x = 5 and x = 10, so p = 504/15504.
     */
    @Test
    void alwaysGoldAgainstHalfGold() {
        assertEquals(504.0 / 15504.0, FisherExact.test(10, 0, 5, 5).pValue(), 1e-12);
        assertEquals(504.0 / 15504.0, FisherExact.test(5, 5, 10, 0).pValue(), 1e-12);
        // x = 8 (5400/15504) is the likeliest: every table counts
        assertEquals(1.0, FisherExact.test(8, 2, 7, 3).pValue(), 1e-12);
    }

    /** [[2, 0], [0, 2]]: P(x) = 1, 4, 1 over 6 for x = 0..2; p = 2/6. */
    @Test
    void smallest() {
        assertEquals(2.0 / 6.0, FisherExact.test(2, 0, 0, 2).pValue(), 1e-12);
        assertEquals(1.0, FisherExact.test(0, 0, 0, 0).pValue(), 1e-12);
        assertEquals(1.0, FisherExact.test(5, 5, 5, 5).pValue(), 1e-12);
    }

    @Test
    void negativeCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> FisherExact.test(-1, 0, 0, 0));
    }
}
