package brokkr.domains.bfcl.multiturn.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.TaskSetup;
import brokkr.domains.bfcl.multiturn.World;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MathAPI's mpmath and decimal results, as CPython 3.11.7 with mpmath 1.3.0 prints them. */
class MathAPITest {
    private static final TaskSetup TASK = new TaskSetup("multi_turn_base_9", List.of("MathAPI"), Map.of(), false);

    private static String run(String call) {
        return Executor.execute(World.EMPTY, TASK, "m", true, List.of(call))
                .results()
                .getFirst();
    }

    @Test
    void logarithmAtTheRequestedPrecision() {
        assertEquals("{'result': mpf('2.7993393')}", run("logarithm(value=630.0, base=10, precision=5)"));
        assertEquals("{'result': mpf('0.30102999566398119521336')}", run("logarithm(value=2, base=10, precision=20)"));
        assertEquals(
                "{'result': mpf('-6.9478531433870164916774')}",
                run("logarithm(value=123.456, base=0.5, precision=20)"));
        assertEquals(
                "{'result': mpf('6.9175960815621674316321')}",
                run("logarithm(value=1000000000.0, base=20, precision=20)"));
        assertEquals(
                "{'result': mpc(real='0.48999454620922962606526', imag='-0.27439527243228837550276')}",
                run("logarithm(value=37.0, base=-273.15, precision=20)"));
        assertEquals("{'result': mpc(real='-inf', imag='+inf')}", run("logarithm(value=0, base=-2, precision=15)"));
        assertEquals("{\"error\": \"\"}", run("logarithm(value=2.5, base=1, precision=20)"));
        assertEquals(
                "{\"error\": \"cannot create mpf from None\"}", run("logarithm(value=None, base=1, precision=20)"));
    }

    @Test
    void squareRootWithDecimalContextPrecision() {
        assertEquals("{'result': Decimal('10.954451150103322269')}", run("square_root(number=120.0, precision=20)"));
        assertEquals(
                "{'result': Decimal('0.000031622776601683794305')}", run("square_root(number=1e-09, precision=20)"));
        assertEquals("{'result': Decimal('1000')}", run("square_root(number=1000000.0, precision=20)"));
        assertEquals("{'result': Decimal('1.581138830')}", run("square_root(number=2.5, precision=10)"));
        assertEquals("{'result': Decimal('-0')}", run("square_root(number=-0.0, precision=1)"));
        assertEquals("{'result': Decimal('1.0000E+10')}", run("square_root(number=1e20, precision=5)"));
        assertEquals(
                "Error during execution: valid range for prec is [1, MAX_PREC]",
                run("square_root(number=2.25, precision=0)"));
        assertEquals(
                "{\"error\": \"Input must be a number or computation resulted in an invalid operation\"}",
                run("square_root(number=0, precision='x')"));
    }

    @Test
    void typeErrorsBecomeErrorDicts() {
        assertEquals("{\"error\": \"Both inputs must be numbers\"}", run("add(a='1', b=2)"));
        assertEquals("{\"result\": \"12\"}", run("add(a='1', b='2')"));
        assertEquals("{\"error\": \"All elements in the list must be numbers\"}", run("mean(numbers=[1, 'a'])"));
        assertEquals(
                "{'result': (-9.999199243478975e-17+0.5443310539518174j)}", run("power(base=-1.5, exponent=-1.5)"));
        assertEquals(
                "{\"result\": 1000000000.0}", run("round_number(number=1000000000.0, decimal_places=1000000000000)"));
    }
}
