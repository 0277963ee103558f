package brokkr.kernel;

import brokkr.magics.display.Rendering;
import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;

/**
 * The text a cell's value shows when no renderer draws it: arrays as their elements ({@code [1, 2, 3]},
 * nested and primitive ones too, where {@code toString} gives {@code [I@6f53b8a}), records by their
 * components with the same reading inside, the JDK's collections and maps with readable elements, and
 * any other object as its {@code toString} with JShell's wrapper names taken out
 * ({@code Foo@71b3bc45}, not {@code REPL.$JShell$16$Foo@71b3bc45}). Long arrays and collections show
 * their first {@value #MAX_ELEMENTS} elements and how many more there are.
 */
public final class ReadableValues {
    private ReadableValues() {}

    static final int MAX_ELEMENTS = 100;

    /** Brokkr's renderers ({@link Rendering}) with this text as the fallback {@code text/plain}. */
    public static Renderer renderer() {
        return Rendering.registerAll(new Renderer() {
            @Override
            protected DisplayData finalizeDisplayData(DisplayData data, Object value) {
                if (!data.hasDataForType(MIMEType.TEXT_PLAIN)) data.putText(text(value));
                return data;
            }
        });
    }

    public static String text(Object o) {
        if (o instanceof String s) return s;
        StringBuilder sb = new StringBuilder();
        append(o, sb, Collections.newSetFromMap(new IdentityHashMap<>()));
        return sb.toString();
    }

    private static void append(Object o, StringBuilder sb, Set<Object> open) {
        if (o == null) {
            sb.append("null");
            return;
        }
        Class<?> c = o.getClass();
        boolean container = c.isArray() || c.isRecord() || jdkCollection(o);
        if (container && !open.add(o)) {
            sb.append(c.isArray() ? "[...]" : "(this " + c.getSimpleName() + ")");
            return;
        }
        try {
            if (c.isArray()) array(o, sb, open);
            else if (c.isRecord()) record((Record) o, sb, open);
            else if (o instanceof Map<?, ?> m && container) map(m, sb, open);
            else if (o instanceof Collection<?> col && container) collection(col, sb, open);
            else if (o instanceof Character || o instanceof CharSequence) sb.append(o);
            else sb.append(JShellNames.scrub(String.valueOf(o)));
        } finally {
            if (container) open.remove(o);
        }
    }

    private static void array(Object a, StringBuilder sb, Set<Object> open) {
        int n = Array.getLength(a);
        sb.append('[');
        for (int i = 0; i < Math.min(n, MAX_ELEMENTS); i++) {
            if (i > 0) sb.append(", ");
            append(Array.get(a, i), sb, open);
        }
        more(n, sb);
        sb.append(']');
    }

    private static void more(int n, StringBuilder sb) {
        if (n > MAX_ELEMENTS) sb.append(", ... (").append(n - MAX_ELEMENTS).append(" more)");
    }

    /**
     * A record by its components, unless it overrides {@code toString}: the generated one reads exactly
     * {@code Name[a=..., b=...]} with each component's {@code String.valueOf}, anything else is the author's.
     */
    private static void record(Record r, StringBuilder sb, Set<Object> open) {
        RecordComponent[] comps = r.getClass().getRecordComponents();
        Object[] values = new Object[comps.length];
        StringBuilder generated = new StringBuilder(r.getClass().getSimpleName()).append('[');
        for (int i = 0; i < comps.length; i++) {
            try {
                var accessor = comps[i].getAccessor();
                accessor.setAccessible(true);
                values[i] = accessor.invoke(r);
            } catch (ReflectiveOperationException | RuntimeException e) {
                sb.append(JShellNames.scrub(String.valueOf(r)));
                return;
            }
            if (i > 0) generated.append(", ");
            generated.append(comps[i].getName()).append('=').append(values[i]);
        }
        generated.append(']');
        String own = String.valueOf(r);
        if (!own.equals(generated.toString())) {
            sb.append(JShellNames.scrub(own));
            return;
        }
        sb.append(r.getClass().getSimpleName()).append('[');
        for (int i = 0; i < comps.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(comps[i].getName()).append('=');
            append(values[i], sb, open);
        }
        sb.append(']');
    }

    /** Collections of the JDK (their toString is the standard one); other classes keep their own. */
    private static boolean jdkCollection(Object o) {
        return (o instanceof Collection<?> || o instanceof Map<?, ?>)
                && o.getClass().getName().startsWith("java.util.");
    }

    private static void collection(Collection<?> col, StringBuilder sb, Set<Object> open) {
        sb.append('[');
        int i = 0;
        for (Object e : col) {
            if (i == MAX_ELEMENTS) break;
            if (i++ > 0) sb.append(", ");
            append(e, sb, open);
        }
        more(col.size(), sb);
        sb.append(']');
    }

    private static void map(Map<?, ?> m, StringBuilder sb, Set<Object> open) {
        sb.append('{');
        int i = 0;
        for (var e : m.entrySet()) {
            if (i == MAX_ELEMENTS) break;
            if (i++ > 0) sb.append(", ");
            append(e.getKey(), sb, open);
            sb.append('=');
            append(e.getValue(), sb, open);
        }
        more(m.size(), sb);
        sb.append('}');
    }
}
