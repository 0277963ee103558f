package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class PassHatKTest {
    private static final double EPS = 1e-15;

    @Test
    void perTaskValuesMatchHandComputedCombinations() {
        assertEquals(0.5, PassHatK.of(4, 2, 1), EPS); // 2/4
        assertEquals(1.0 / 6, PassHatK.of(4, 2, 2), EPS); // C(2,2)/C(4,2) = 1/6
        assertEquals(0.25, PassHatK.of(4, 3, 3), EPS); // C(3,3)/C(4,3) = 1/4
        assertEquals(0.5, PassHatK.of(4, 3, 2), EPS); // C(3,2)/C(4,2) = 3/6
        assertEquals(0.6, PassHatK.of(5, 4, 2), EPS); // C(4,2)/C(5,2) = 6/10
    }

    @Test
    void kAboveSuccessesIsZero() {
        assertEquals(0.0, PassHatK.of(4, 2, 3));
        assertEquals(0.0, PassHatK.of(4, 3, 4));
        assertEquals(BigInteger.ZERO, PassHatK.comb(2, 3));
    }

    @Test
    void allPassIsOneAndAllFailIsZeroForEveryK() {
        for (int k = 1; k <= 5; k++) {
            assertEquals(1.0, PassHatK.of(5, 5, k));
            assertEquals(0.0, PassHatK.of(5, 0, k));
        }
    }

    @Test
    void fewerTrialsThanKIsAnErrorAsUpstream() {
        assertThrows(IllegalArgumentException.class, () -> PassHatK.of(3, 1, 4));
        assertThrows(IllegalArgumentException.class, () -> PassHatK.of(3, 1, 0));
    }

    @Test
    void curveAveragesOverTasksUpToTheSmallestTrialCount() {
        var tasks =
                List.of(new PassHatK.TaskTrials(4, 4), new PassHatK.TaskTrials(4, 2), new PassHatK.TaskTrials(4, 0));
        List<Double> c = PassHatK.curve(tasks);
        assertEquals(4, c.size());
        assertEquals((1 + 0.5 + 0) / 3, c.get(0), EPS);
        assertEquals((1 + 1.0 / 6 + 0) / 3, c.get(1), EPS);
        assertEquals(1.0 / 3, c.get(2), EPS);
        assertEquals(1.0 / 3, c.get(3), EPS);
        // Upstream lowers max k to the least-tried task's trial count.
        assertEquals(3, PassHatK.maxK(List.of(new PassHatK.TaskTrials(4, 4), new PassHatK.TaskTrials(3, 1))));
        assertEquals(List.of(), PassHatK.curve(List.of()));
    }

    @Test
    void combMatchesPython() {
        assertEquals(BigInteger.valueOf(252), PassHatK.comb(10, 5));
        assertEquals(new BigInteger("100891344545564193334812497256"), PassHatK.comb(100, 50));
        assertEquals(BigInteger.ONE, PassHatK.comb(7, 0));
    }
}
