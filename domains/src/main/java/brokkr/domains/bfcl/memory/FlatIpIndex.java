package brokkr.domains.bfcl.memory;

import java.util.ArrayList;
import java.util.List;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/**
 * {@code faiss.IndexIDMap(faiss.IndexFlatIP(d))} (faiss-cpu 1.11.0, upstream's pin) as a persistent value: the stored
 * vectors in their internal order (the order they were added in, a removal closing the gap: {@code
 * IndexFlatCodes::remove_ids}) with the external id of each ({@code IndexIDMap::id_map}), and the exhaustive
 * inner-product search with faiss's own selection and tie order.
 *
 * @param rows internal order: row {@code i} is internal index {@code i}
 */
public record FlatIpIndex(PVector<Row> rows) {
    /** A stored vector (float32) and its external id. */
    public record Row(long id, float[] vector) {}

    public static final FlatIpIndex EMPTY = new FlatIpIndex(TreePVector.empty());

    public int ntotal() {
        return rows.size();
    }

    /** {@code add_with_ids}: appended at the end of the internal order. */
    public FlatIpIndex add(long id, float[] vector) {
        return new FlatIpIndex(rows.plus(new Row(id, vector)));
    }

    /** {@code remove_ids(np.array([id]))}: every row with that id, the others keeping their order. */
    public FlatIpIndex remove(long id) {
        PVector<Row> kept = rows;
        for (int i = rows.size() - 1; i >= 0; i--) if (rows.get(i).id() == id) kept = kept.minus(i);
        return kept == rows ? this : new FlatIpIndex(kept);
    }

    /** One search hit: the float32 inner product and the external id ({@code -1} for a slot faiss could not fill). */
    public record Hit(float score, long id) {}

    /**
     * {@code index.search(q, k)} for one query, {@code k > 0}: {@code IndexFlat::search} with METRIC_INNER_PRODUCT →
     * {@code knn_inner_product} → (one query is under {@code distance_compute_blas_threshold}) {@code
     * exhaustive_inner_product_seq}, each row's inner product handed in internal order to the result handler {@code
     * dispatch_knn_ResultHandler} picks for {@code CMin<float, int64_t>}: {@code Top1BlockResultHandler} for
     * {@code k == 1} (a later row replaces the best only if strictly greater: the first of equal scores wins), {@code
     * HeapBlockResultHandler} for {@code k < 100} (a min-heap of k, a row entering only if strictly greater than the
     * heap's top; ties inside the heap ordered by internal index through {@code CMin::cmp2}; {@code heap_reorder}
     * then gives best first, equal scores the higher internal index first), and {@code IndexIDMap} maps internal
     * indices to ids ({@code -1} stays {@code -1}). k of 100 or more (faiss's reservoir handler) never occurs here:
     * upstream's stores hold at most 50 entries and it asks for at most that many.
     */
    public List<Hit> search(float[] query, int k) {
        if (k <= 0) throw new IllegalArgumentException("k must be > 0");
        if (k >= 100)
            throw new IllegalArgumentException("faiss's reservoir result handler (k >= 100) is not transcribed");
        float[] dis = new float[k];
        long[] ids = new long[k];
        if (k == 1) {
            float best = -Float.MAX_VALUE; // CMin::neutral(): numeric_limits<float>::lowest()
            long bestIdx = -1;
            for (int j = 0; j < rows.size(); j++) {
                float ip = innerProduct(query, rows.get(j).vector());
                if (best < ip) {
                    best = ip;
                    bestIdx = j;
                }
            }
            dis[0] = best;
            ids[0] = bestIdx;
        } else {
            heapify(k, dis, ids);
            for (int j = 0; j < rows.size(); j++) {
                float ip = innerProduct(query, rows.get(j).vector());
                if (dis[0] < ip) replaceTop(k, dis, ids, ip, j); // add_result: C::cmp(threshold, dis)
            }
            reorder(k, dis, ids);
        }
        List<Hit> hits = new ArrayList<>(k);
        for (int i = 0; i < k; i++)
            hits.add(new Hit(dis[i], ids[i] < 0 ? -1 : rows.get((int) ids[i]).id()));
        return hits;
    }

    /**
     * {@code fvec_inner_product(x, y, d)} in float32. faiss's loop is vectorised by the compiler in an order this does
     * not reproduce; here the products (exact in double) are summed in double and rounded to float32 once, which
     * differs from faiss's float32 partial sums by a few units in the last place at most.
     */
    static float innerProduct(float[] x, float[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) s += (double) x[i] * y[i];
        return (float) s;
    }

    // ---- faiss/utils/Heap.h for C = CMin<float, int64_t> (1-based indexing as there) ----

    /** {@code CMin::cmp2(a1, b1, a2, b2)}: {@code a1 < b1 || (a1 == b1 && a2 < b2)}. */
    private static boolean cmp2(float a1, float b1, long a2, long b2) {
        return a1 < b1 || (a1 == b1 && a2 < b2);
    }

    /** {@code heap_heapify(k, ...)} without initial values: every slot neutral, id -1. */
    private static void heapify(int k, float[] val, long[] ids) {
        for (int i = 0; i < k; i++) {
            val[i] = -Float.MAX_VALUE;
            ids[i] = -1;
        }
    }

    /** {@code heap_replace_top}. */
    private static void replaceTop(int k, float[] val, long[] ids, float v, long id) {
        int i = 1;
        while (true) {
            int i1 = i << 1, i2 = i1 + 1;
            if (i1 > k) break;
            if (i2 == k + 1 || cmp2(val[i1 - 1], val[i2 - 1], ids[i1 - 1], ids[i2 - 1])) {
                if (cmp2(v, val[i1 - 1], id, ids[i1 - 1])) break;
                val[i - 1] = val[i1 - 1];
                ids[i - 1] = ids[i1 - 1];
                i = i1;
            } else {
                if (cmp2(v, val[i2 - 1], id, ids[i2 - 1])) break;
                val[i - 1] = val[i2 - 1];
                ids[i - 1] = ids[i2 - 1];
                i = i2;
            }
        }
        val[i - 1] = v;
        ids[i - 1] = id;
    }

    /** {@code heap_pop(k, ...)}: the top removed, the heap of size {@code k - 1} in slots {@code 0..k-2}. */
    private static void pop(int k, float[] val, long[] ids) {
        float v = val[k - 1];
        long id = ids[k - 1];
        int i = 1;
        while (true) {
            int i1 = i << 1, i2 = i1 + 1;
            if (i1 > k) break;
            if (i2 == k + 1 || cmp2(val[i1 - 1], val[i2 - 1], ids[i1 - 1], ids[i2 - 1])) {
                if (cmp2(v, val[i1 - 1], id, ids[i1 - 1])) break;
                val[i - 1] = val[i1 - 1];
                ids[i - 1] = ids[i1 - 1];
                i = i1;
            } else {
                if (cmp2(v, val[i2 - 1], id, ids[i2 - 1])) break;
                val[i - 1] = val[i2 - 1];
                ids[i - 1] = ids[i2 - 1];
                i = i2;
            }
        }
        val[i - 1] = val[k - 1];
        ids[i - 1] = ids[k - 1];
    }

    /** {@code heap_reorder}: best first; unfilled slots (id -1) moved to the end as neutral / -1. */
    private static void reorder(int k, float[] val, long[] ids) {
        int ii = 0;
        for (int i = 0; i < k; i++) {
            float v = val[0];
            long id = ids[0];
            pop(k - i, val, ids);
            val[k - ii - 1] = v;
            ids[k - ii - 1] = id;
            if (id != -1) ii++;
        }
        System.arraycopy(val, k - ii, val, 0, ii);
        System.arraycopy(ids, k - ii, ids, 0, ii);
        for (; ii < k; ii++) {
            val[ii] = -Float.MAX_VALUE;
            ids[ii] = -1;
        }
    }
}
