package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/** ArrayVector does what pcollections' TreePVector does (the list Python values were made of before), op by op. */
class ArrayVectorTest {
    @Test
    void everyUpdateAgreesWithTreePVectorAndLeavesTheOldVectorAsItWas() {
        Random rnd = new Random(27);
        PVector<Integer> tree = TreePVector.empty();
        PVector<Integer> array = ArrayVector.empty();
        List<PVector<Integer>> oldArrays = new ArrayList<>();
        List<List<Integer>> oldContents = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            int n = tree.size(), op = rnd.nextInt(9);
            Integer x = rnd.nextInt(20);
            switch (op) {
                case 0, 1 -> {
                    tree = tree.plus(x);
                    array = array.plus(x);
                }
                case 2 -> {
                    int i = rnd.nextInt(n + 1);
                    tree = tree.plus(i, x);
                    array = array.plus(i, x);
                }
                case 3 -> {
                    if (n == 0) continue;
                    int i = rnd.nextInt(n);
                    tree = tree.with(i, x);
                    array = array.with(i, x);
                }
                case 4 -> {
                    if (n == 0) continue;
                    int i = rnd.nextInt(n);
                    tree = tree.minus(i);
                    array = array.minus(i);
                }
                case 5 -> {
                    tree = tree.minus(x);
                    array = array.minus(x);
                }
                case 6 -> {
                    List<Integer> more = List.of(x, x + 1, x);
                    int i = rnd.nextInt(n + 1);
                    tree = tree.plusAll(i, more);
                    array = array.plusAll(i, more);
                }
                case 7 -> {
                    List<Integer> less = List.of(x, rnd.nextInt(20));
                    tree = tree.minusAll(less);
                    array = array.minusAll(less);
                }
                default -> {
                    int from = rnd.nextInt(n + 1), to = from + rnd.nextInt(n - from + 1);
                    assertEquals(tree.subList(from, to), array.subList(from, to));
                    tree = tree.plusAll(List.of(x));
                    array = array.plusAll(List.of(x));
                }
            }
            assertEquals(tree, array, "after step " + step);
            assertEquals(array, tree);
            assertEquals(tree.hashCode(), array.hashCode());
            assertEquals(tree.toString(), array.toString());
            if (step % 100 == 0) {
                oldArrays.add(array);
                oldContents.add(new ArrayList<>(array));
            }
        }
        for (int i = 0; i < oldArrays.size(); i++) assertEquals(oldContents.get(i), oldArrays.get(i));
    }

    @Test
    void outOfRangeIndicesThrowAndNoMutatorWorks() {
        PVector<String> v = ArrayVector.from(List.of("a", "b"));
        assertThrows(IndexOutOfBoundsException.class, () -> v.get(2));
        assertThrows(IndexOutOfBoundsException.class, () -> v.with(2, "c"));
        assertThrows(IndexOutOfBoundsException.class, () -> v.plus(3, "c"));
        assertThrows(IndexOutOfBoundsException.class, () -> v.minus(-1));
        assertThrows(UnsupportedOperationException.class, () -> v.add("c"));
        assertThrows(UnsupportedOperationException.class, () -> v.set(0, "c"));
        assertThrows(UnsupportedOperationException.class, () -> v.remove(0));
        assertSame(v, ArrayVector.from(v));
        assertEquals(List.of("a", "b"), v);
    }
}
