package brokkr.world;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.python.PyJson.DumpOptions;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorldHashTest {
    private static final int[] THRESHOLDS = {1, 8, 40, 200, WorldHash.DEFAULT_MEMO_THRESHOLD, Integer.MAX_VALUE};

    /** The definition: sha256 over json.dumps's text, built whole by PyJson. */
    static String reference(Value v, boolean sortKeys) {
        String text = PyJson.dumps(v, sortKeys ? DumpOptions.SORTED : DumpOptions.DEFAULT);
        return HexFormat.of().formatHex(WorldHash.newSha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void leavesAndEmptyContainers() {
        for (String json : List.of("1", "-0.0", "1e-07", "NaN", "\"caf\\u00e9\"", "true", "null", "[]", "{}", "[{}, []]",
                "{\"b\": {\"d\": [], \"c\": 1}, \"a\": \"\\ud83d\\ude00\"}")) {
            Value v = Json.parse(json);
            for (boolean sort : new boolean[] {false, true}) {
                assertEquals(reference(v, sort), WorldHash.sha256(v, sort), json);
                assertEquals(reference(v, sort), WorldHash.sha256(v, sort), json + " (memoized)");
            }
        }
    }

    @Test
    void randomWorldsMatchJsonDumpsBeforeAndAfterUpdates() {
        for (long seed = 1; seed <= 40; seed++) {
            RandomWorlds gen = new RandomWorlds(seed);
            int threshold = THRESHOLDS[(int) (seed % THRESHOLDS.length)];
            Value world = gen.value(6, 6);
            List<Value> versions = new ArrayList<>();
            for (int step = 0; step < 30; step++) {
                versions.add(world);
                for (boolean sort : new boolean[] {false, true}) {
                    assertEquals(reference(world, sort), WorldHash.sha256(world, sort, threshold),
                            "seed " + seed + " step " + step + " sort " + sort + " threshold " + threshold);
                }
                world = gen.update(world);
            }
            // Older versions share nodes (and so memos) with newer ones; they must still hash as they are.
            for (Value old : versions) {
                for (boolean sort : new boolean[] {false, true}) assertEquals(reference(old, sort), WorldHash.sha256(old, sort, threshold));
            }
        }
    }

    @Test
    void largeRandomWorldsStreamThroughTheBuffer() {
        // Worlds of hundreds of KB: the buffer is flushed into the digest many times, around open containers.
        for (long seed = 1; seed <= 3; seed++) {
            RandomWorlds gen = new RandomWorlds(1000 + seed);
            PyDict.Builder b = PyDict.builder();
            for (int i = 0; i < 400; i++) b.put("k" + i, gen.value(5, 6));
            Value world = b.build();
            int threshold = new int[] {64, 4096, 40_000}[(int) (seed - 1)];
            for (int step = 0; step < 8; step++) {
                for (boolean sort : new boolean[] {false, true}) {
                    assertEquals(reference(world, sort), WorldHash.sha256(world, sort, threshold), "seed " + seed + " step " + step);
                }
                world = gen.update(gen.update(world));
            }
        }
    }

    @Test
    void mixedThresholdsShareMemosSafely() {
        RandomWorlds gen = new RandomWorlds(99);
        Value world = gen.value(6, 7);
        for (int round = 0; round < 60; round++) {
            int threshold = THRESHOLDS[gen.random().nextInt(THRESHOLDS.length)];
            boolean sort = gen.random().nextBoolean();
            assertEquals(reference(world, sort), WorldHash.sha256(world, sort, threshold), "round " + round);
            world = gen.update(world);
        }
    }

    @Test
    void retailDbHashesAsPythonDoes() {
        Value retail = Worlds.load(SharedData.tau2Db("retail"));
        // python3 -c "import json,hashlib; print(hashlib.sha256(json.dumps(json.load(open(p)), sort_keys=S).encode()).hexdigest())"
        String sorted = "8c359340612f66ae5cbcb9373877b92076a0fc4a3283c71fd7da5fae2b6b3052";
        String insertion = "e986e64db2a5172946855393129aba4e9f15440c3279e9beeaeac95dd374eecb";
        assertEquals(sorted, WorldHash.sha256(retail, true));
        assertEquals(insertion, WorldHash.sha256(retail, false));
        assertEquals(sorted, WorldHash.sha256(retail, true), "from memos");
        assertEquals(insertion, WorldHash.sha256(retail, false), "from memos");
        assertEquals(sorted, reference(retail, true));
    }

    @Test
    void airlineDbHashesAsPythonDoes() {
        Value airline = Worlds.load(SharedData.tau2Db("airline"));
        assertEquals("3b4362e6bf013490904a0c0f9127f5ab67b5ad917bb4052654cc3d172be8fbb1", WorldHash.sha256(airline, true));
        assertEquals("63c70e2c063e73cc92a8eb6453b65a552deceab012b59c91ca77513bd962e21b", WorldHash.sha256(airline, false));
    }

    @Test
    void anUpdateReusesTheMemosOfUntouchedSubtrees() {
        Value retail = Worlds.load(SharedData.tau2Db("retail"));
        WorldHash.sha256(retail, true);
        PyDict orders = retail.asDict().get("orders").asDict();
        List<String> ids = orders.keys().stream()
                .filter(id -> PyJson.dumps(orders.get(id), DumpOptions.SORTED).length() < WorldHash.DEFAULT_MEMO_THRESHOLD).toList();
        String changed = ids.get(0), other = ids.get(1);
        Object otherMemo = orders.get(other).asDict().memo(1);
        Object userMemo = firstValue(retail.asDict().get("users").asDict()).memo(1);
        assertInstanceOf(byte[].class, otherMemo, "an order is small and its parent large: it keeps its bytes");
        assertNull(orders.get(other).asDict().get("address").asDict().memo(1), "inside a memoized order nothing else is kept");
        Object[] ordersSkeleton = assertInstanceOf(Object[].class, orders.memo(1), "a large container keeps a skeleton");
        assertSame(orders.get(other), java.util.Arrays.stream(ordersSkeleton).filter(p -> p == orders.get(other)).findFirst().orElseThrow());
        Object usersSkeleton = retail.asDict().get("users").asDict().memo(1);
        assertInstanceOf(Object[].class, usersSkeleton);

        Value next = Paths.assocIn(retail, new PyStr("cancelled"), "orders", changed, "status");
        assertEquals(reference(next, true), WorldHash.sha256(next, true));
        PyDict nextOrders = next.asDict().get("orders").asDict();
        assertSame(otherMemo, nextOrders.get(other).asDict().memo(1), "an untouched order is not serialized again");
        assertSame(userMemo, firstValue(next.asDict().get("users").asDict()).memo(1));
        assertSame(usersSkeleton, next.asDict().get("users").asDict().memo(1), "an untouched large subtree is not walked again");
        assertNotSame(ordersSkeleton, nextOrders.memo(1));
        assertNull(nextOrders.get(changed).asDict().memo(0), "the other key order is untouched");
        assertInstanceOf(byte[].class, nextOrders.get(changed).asDict().memo(1));
    }

    @Test
    void memosRetainAtMostTheSerializedTextPlusHeaders() {
        Value retail = Worlds.load(SharedData.tau2Db("retail"));
        assertEquals(0, WorldHash.retainedMemoBytes(retail, false));
        WorldHash.sha256(retail, false);
        long text = PyJson.dumps(retail).length();
        long retained = WorldHash.retainedMemoBytes(retail, false);
        // Each byte of text is stored once; the rest is array headers and skeleton references (~14% here).
        assertTrue(retained > text && retained < text * 5 / 4, "retained " + retained + " for text " + text);
        assertEquals(0, WorldHash.retainedMemoBytes(retail, true), "the other key order has no memos yet");
    }

    @Test
    void aSmallWorldIsMemoizedWholeAtTheRoot() {
        PyDict w = PyDict.of("a", PyList.of(PyInt.of(1), PyInt.of(2)), "b", PyDict.of("c", "d"));
        WorldHash.sha256(w, false);
        assertArrayEquals(PyJson.dumps(w).getBytes(StandardCharsets.US_ASCII), (byte[]) w.memo(0));
        assertNull(w.get("b").asDict().memo(0));
    }

    @Test
    void keyOrderIsCodePointOrder() {
        String[] alphabet = {"a", "b", "\u00e9", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\uffff",
                "\ud83d\ude00", "\ud83d\ude01", "\ud800\udc00", ""};
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder a = new StringBuilder(), b = new StringBuilder();
            String common = alphabet[rnd.nextInt(alphabet.length)];
            a.append(common).append(alphabet[rnd.nextInt(alphabet.length)]).append(alphabet[rnd.nextInt(alphabet.length)]);
            b.append(common).append(alphabet[rnd.nextInt(alphabet.length)]).append(alphabet[rnd.nextInt(alphabet.length)]);
            int expected = Integer.signum(brokkr.python.PyStrings.compare(a.toString(), b.toString()));
            assertEquals(expected, Integer.signum(DigestWriter.compareKeys(a.toString(), b.toString())), a + " vs " + b);
        }
        assertTrue(DigestWriter.compareKeys("\uffff", "\ud83d\ude00") < 0, "U+FFFF sorts before U+1F600");
    }

    @Test
    void rejectsANonPositiveThreshold() {
        assertThrows(IllegalArgumentException.class, () -> WorldHash.sha256(PyDict.empty(), true, 0));
    }

    private static PyDict firstValue(PyDict d) {
        return d.asMap().values().iterator().next().asDict();
    }
}
