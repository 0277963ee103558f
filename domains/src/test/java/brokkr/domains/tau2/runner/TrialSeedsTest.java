package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class TrialSeedsTest {
    @Test
    void matchesCPythonsRandint() {
        // CPython 3.11: random.seed(300); [random.randint(0, 1000000) for _ in range(8)]
        assertArrayEquals(
                new long[] {626729, 373753, 361454, 1567, 514337, 363271, 554706, 863145}, TrialSeeds.of(300, 8));
        // random.seed(0) / seed(2**40 + 7): multi-word and zero seeds
        assertArrayEquals(new long[] {885440, 403958, 794772}, TrialSeeds.of(0, 3));
        assertArrayEquals(new long[] {643515, 783626, 854501}, TrialSeeds.of((1L << 40) + 7, 3));
    }
}
