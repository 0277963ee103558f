package brokkr.kernel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hand-over of a magic's result to a Java variable: {@code var d = %domain load loop} runs the magic
 * in the kernel, parks the result here, and evaluates {@code var d = (DomainSummary) MagicResults.take(7);}
 * in JShell, which runs in the same heap and class loader and so receives the very object.
 */
public final class MagicResults {
    private MagicResults() {}

    private static final AtomicLong NEXT = new AtomicLong();
    private static final Map<Long, Object> PARKED = new ConcurrentHashMap<>();
    private static final Object NULL = new Object();

    static long park(Object o) {
        long id = NEXT.incrementAndGet();
        PARKED.put(id, o == null ? NULL : o);
        return id;
    }

    @SuppressWarnings("unchecked")
    public static <T> T take(long id) {
        Object o = PARKED.remove(id);
        if (o == null) throw new IllegalStateException("no parked magic result " + id);
        return o == NULL ? null : (T) o;
    }
}
