package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * faiss 1.11's selection and tie order ({@code HeapBlockResultHandler} / {@code Top1BlockResultHandler} over {@code
 * CMin<float, int64_t>}), on vectors whose inner products are exact: hand-worked through faiss/utils/Heap.h.
 */
class FlatIpIndexTest {
    /** A 2-d vector whose inner product with (1, 0) is {@code s}. */
    private static float[] v(float s) {
        return new float[] {s, 0f};
    }

    private static final float[] Q = {1f, 0f};

    private static FlatIpIndex index(long[] ids, float... scores) {
        FlatIpIndex idx = FlatIpIndex.EMPTY;
        for (int i = 0; i < scores.length; i++) idx = idx.add(ids[i], v(scores[i]));
        return idx;
    }

    private static List<Long> ids(List<FlatIpIndex.Hit> hits) {
        return hits.stream().map(FlatIpIndex.Hit::id).toList();
    }

    @Test
    void bestFirstAndEqualScoresWithTheHigherInternalIndexFirst() {
        FlatIpIndex idx = index(new long[] {10, 11, 12, 13}, 0.25f, 0.5f, 0.5f, 0.75f);
        assertEquals(List.of(13L, 12L, 11L, 10L), ids(idx.search(Q, 4)));
        assertEquals(List.of(13L, 12L, 11L), ids(idx.search(Q, 3)));
        assertEquals(0.5f, idx.search(Q, 3).get(1).score());
    }

    @Test
    void kOfOneKeepsTheFirstOfEqualScores() {
        FlatIpIndex idx = index(new long[] {7, 3, 5}, 0.5f, 0.5f, 0.5f);
        assertEquals(List.of(7L), ids(idx.search(Q, 1)));
        assertEquals(
                List.of(3L, 7L), ids(idx.search(Q, 2)), "k = 2: the third 0.5 stays out; the two kept, later first");
    }

    @Test
    void aTieAtTheBoundaryIsPathDependent() {
        // k = 2 over 0.5, 0.5, 0.5, 0.7: the third 0.5 is not strictly above the threshold and stays out; 0.7 then
        // evicts the heap's top, the first 0.5 (CMin::cmp2 puts the lower index on top): 0.7, then the second 0.5
        FlatIpIndex idx = index(new long[] {0, 1, 2, 3}, 0.5f, 0.5f, 0.5f, 0.7f);
        assertEquals(List.of(3L, 1L), ids(idx.search(Q, 2)));
    }

    @Test
    void removalKeepsTheInternalOrderAndReAddingGoesLast() {
        FlatIpIndex idx = index(new long[] {0, 1, 2}, 0.5f, 0.5f, 0.5f);
        assertEquals(List.of(2L, 1L, 0L), ids(idx.search(Q, 3)));
        idx = idx.remove(0).add(0, v(0.5f)); // update(0): remove_ids, then add_with_ids at the end
        assertEquals(List.of(0L, 2L, 1L), ids(idx.search(Q, 3)));
        assertEquals(2, idx.remove(2).ntotal());
        assertEquals(3, idx.remove(99).ntotal());
    }

    @Test
    void slotsFaissCannotFillAreMinusOne() {
        FlatIpIndex idx = index(new long[] {4}, 0.5f);
        List<FlatIpIndex.Hit> hits = idx.search(Q, 3);
        assertEquals(List.of(4L, -1L, -1L), ids(hits));
        assertEquals(-Float.MAX_VALUE, hits.get(2).score());
        assertEquals(List.of(-1L), ids(FlatIpIndex.EMPTY.search(Q, 1)));
    }
}
