package brokkr.world;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random JSON-like worlds, with the strings and numbers json.dumps treats specially. */
final class RandomWorlds {
    private static final String[] ATOMS = {
        "a",
        "b",
        "id",
        "status",
        "é",
        "\u00ff",
        "\u0100",
        "\u7f16",
        "\ud83d\ude00",
        "\ud800",
        "\"",
        "\\",
        "\n",
        "\r",
        "\t",
        "\b",
        "\f",
        "\u0000",
        "\u001f",
        "\u007f",
        " ",
        "~",
        "/",
        "<",
        "#W"
    };
    private static final double[] FLOATS = {
        0.0,
        -0.0,
        1.0,
        -1.5,
        0.1,
        1e-7,
        1e-5,
        1e16,
        1e17,
        1e22,
        123456.789,
        5e-324,
        Double.MAX_VALUE,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        47.84,
        488.81
    };

    private final Random rnd;

    RandomWorlds(long seed) {
        this.rnd = new Random(seed);
    }

    Random random() {
        return rnd;
    }

    String string() {
        int n = rnd.nextInt(8);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(3) == 0) sb.append(ATOMS[rnd.nextInt(ATOMS.length)]);
            else sb.append((char) ('a' + rnd.nextInt(26)));
        }
        return sb.toString();
    }

    Value leaf() {
        return switch (rnd.nextInt(8)) {
            case 0 -> PyInt.of(rnd.nextInt(2000) - 500);
            case 1 -> new PyInt(new BigInteger(80, rnd).negate());
            case 2 -> PyInt.of(rnd.nextLong());
            case 3 -> new PyFloat(rnd.nextBoolean() ? FLOATS[rnd.nextInt(FLOATS.length)] : rnd.nextGaussian() * 1e3);
            case 4 -> PyBool.of(rnd.nextBoolean());
            case 5 -> PyNone.NONE;
            default -> new PyStr(string());
        };
    }

    /** A value of nesting up to {@code depth}; containers get up to {@code width} children. */
    Value value(int depth, int width) {
        if (depth == 0 || rnd.nextInt(4) == 0) return leaf();
        int n = rnd.nextInt(width + 1);
        if (rnd.nextBoolean()) {
            List<Value> items = new ArrayList<>();
            for (int i = 0; i < n; i++) items.add(value(depth - 1, width));
            return PyList.of(items);
        }
        PyDict.Builder b = PyDict.builder();
        for (int i = 0; i < n; i++) b.put(string(), value(depth - 1, width));
        return b.build();
    }

    /** A random path to an existing node of {@code v} (possibly the empty path). */
    Object[] pathInto(Value v) {
        List<Object> path = new ArrayList<>();
        Value cur = v;
        while (rnd.nextInt(5) != 0) {
            if (cur instanceof PyDict d && !d.isEmpty()) {
                String k = new ArrayList<>(d.keys()).get(rnd.nextInt(d.size()));
                path.add(k);
                cur = d.get(k);
            } else if (cur instanceof PyList l && !l.isEmpty()) {
                int i = rnd.nextInt(l.size());
                path.add(i);
                cur = l.get(i);
            } else {
                break;
            }
        }
        return path.toArray();
    }

    /** One random update: replace a node, add a key, or delete an entry. */
    Value update(Value world) {
        Object[] path = pathInto(world);
        Value target = ValuePaths.getIn(world, path);
        int op = rnd.nextInt(3);
        if (op == 1 && target instanceof PyDict) {
            Object[] p = java.util.Arrays.copyOf(path, path.length + 1);
            p[path.length] = string();
            return ValuePaths.assocIn(world, value(2, 3), p);
        }
        if (op == 2 && path.length > 0) return ValuePaths.dissocIn(world, path);
        if (path.length == 0) return world instanceof PyDict d ? d.with(string(), leaf()) : world;
        return ValuePaths.assocIn(world, rnd.nextBoolean() ? leaf() : value(3, 4), path);
    }
}
