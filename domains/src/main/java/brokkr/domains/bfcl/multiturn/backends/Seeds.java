package brokkr.domains.bfcl.multiturn.backends;

import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
import java.math.BigInteger;

/** {@code random.Random(scenario.get("random_seed", DEFAULT))} for the backends that draw random numbers. */
final class Seeds {
    private Seeds() {}

    static PyRandom random(Object seed) {
        return switch (seed) {
            case BigInteger i -> PyRandom.seeded(i);
            case String s -> PyRandom.seeded(s);
            default ->
                throw new IllegalArgumentException(
                        "random_seed of type " + PyObjects.typeName(seed) + " is not supported");
        };
    }
}
