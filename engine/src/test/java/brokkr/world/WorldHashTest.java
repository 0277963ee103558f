package brokkr.world;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.python.PyJson.DumpOptions;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
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
        for (String json : List.of(
                "1",
                "-0.0",
                "1e-07",
                "NaN",
                "\"caf\\u00e9\"",
                "true",
                "null",
                "[]",
                "{}",
                "[{}, []]",
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
                    assertEquals(
                            reference(world, sort),
                            WorldHash.sha256(world, sort, threshold),
                            "seed " + seed + " step " + step + " sort " + sort + " threshold " + threshold);
                }
                world = gen.update(world);
            }
            // Older versions share nodes (and so memos) with newer ones; they must still hash as they are.
            for (Value old : versions) {
                for (boolean sort : new boolean[] {false, true})
                    assertEquals(reference(old, sort), WorldHash.sha256(old, sort, threshold));
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
                    assertEquals(
                            reference(world, sort),
                            WorldHash.sha256(world, sort, threshold),
                            "seed " + seed + " step " + step);
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
        Value retail = Json.read(SharedData.tau2Db("retail"));
        // python3 -c "import json,hashlib; print(hashlib.sha256(json.dumps(json.load(open(p)),
        // sort_keys=S).encode()).hexdigest())"
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
        Value airline = Json.read(SharedData.tau2Db("airline"));
        assertEquals(
                "3b4362e6bf013490904a0c0f9127f5ab67b5ad917bb4052654cc3d172be8fbb1", WorldHash.sha256(airline, true));
        assertEquals(
                "63c70e2c063e73cc92a8eb6453b65a552deceab012b59c91ca77513bd962e21b", WorldHash.sha256(airline, false));
    }

    @Test
    void anUpdateReusesTheMemosOfUntouchedSubtrees() {
        Value retail = Json.read(SharedData.tau2Db("retail"));
        WorldHash.sha256(retail, true);
        PyDict orders = retail.asDict().get("orders").asDict();
        List<String> ids = orders.keys().stream()
                .filter(id ->
                        PyJson.dumps(orders.get(id), DumpOptions.SORTED).length() < WorldHash.DEFAULT_MEMO_THRESHOLD)
                .toList();
        String changed = ids.get(0), other = ids.get(1);
        Object otherMemo = orders.get(other).asDict().memo(1);
        Object userMemo = firstValue(retail.asDict().get("users").asDict()).memo(1);
        assertInstanceOf(byte[].class, otherMemo, "an order is small and its parent large: it keeps its bytes");
        assertNull(
                orders.get(other).asDict().get("address").asDict().memo(1),
                "inside a memoized order nothing else is kept");
        Object[] ordersSkeleton =
                assertInstanceOf(Object[].class, orders.memo(1), "a large container keeps a skeleton");
        assertSame(
                orders.get(other),
                java.util.Arrays.stream(ordersSkeleton)
                        .filter(p -> p == orders.get(other))
                        .findFirst()
                        .orElseThrow());
        Object usersSkeleton = retail.asDict().get("users").asDict().memo(1);
        assertInstanceOf(Object[].class, usersSkeleton);

        Value next = ValuePaths.assocIn(retail, new PyStr("cancelled"), "orders", changed, "status");
        assertEquals(reference(next, true), WorldHash.sha256(next, true));
        PyDict nextOrders = next.asDict().get("orders").asDict();
        assertSame(otherMemo, nextOrders.get(other).asDict().memo(1), "an untouched order is not serialized again");
        assertSame(userMemo, firstValue(next.asDict().get("users").asDict()).memo(1));
        assertSame(
                usersSkeleton,
                next.asDict().get("users").asDict().memo(1),
                "an untouched large subtree is not walked again");
        assertNotSame(ordersSkeleton, nextOrders.memo(1));
        assertNull(nextOrders.get(changed).asDict().memo(0), "the other key order is untouched");
        assertInstanceOf(byte[].class, nextOrders.get(changed).asDict().memo(1));
    }

    @Test
    void memosRetainAtMostTheSerializedTextPlusHeaders() {
        Value retail = Json.read(SharedData.tau2Db("retail"));
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
        assertArrayEquals(PyJson.dumps(w).getBytes(StandardCharsets.US_ASCII), (byte[]) WorldHash.text(w.memo(0)));
        assertNull(w.get("b").asDict().memo(0));
    }

    @Test
    void keyOrderIsCodePointOrder() {
        String[] alphabet = {
            "a",
            "b",
            "\u00e9",
            "\ud7ff",
            "\ud800",
            "\udbff",
            "\udc00",
            "\udfff",
            "\ue000",
            "\uffff",
            "\ud83d\ude00",
            "\ud83d\ude01",
            "\ud800\udc00",
            ""
        };
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder a = new StringBuilder(), b = new StringBuilder();
            String common = alphabet[rnd.nextInt(alphabet.length)];
            a.append(common)
                    .append(alphabet[rnd.nextInt(alphabet.length)])
                    .append(alphabet[rnd.nextInt(alphabet.length)]);
            b.append(common)
                    .append(alphabet[rnd.nextInt(alphabet.length)])
                    .append(alphabet[rnd.nextInt(alphabet.length)]);
            int expected = Integer.signum(brokkr.python.PyStrings.compare(a.toString(), b.toString()));
            assertEquals(
                    expected, Integer.signum(DigestWriter.compareKeys(a.toString(), b.toString())), a + " vs " + b);
        }
        assertTrue(DigestWriter.compareKeys("\uffff", "\ud83d\ude00") < 0, "U+FFFF sorts before U+1F600");
    }

    @Test
    void rejectsANonPositiveThreshold() {
        assertThrows(IllegalArgumentException.class, () -> WorldHash.sha256(PyDict.empty(), true, 0));
    }

    /** A retail-like world of three 400-entry tables (sorted order differs from insertion order). */
    private static PyDict tables(java.util.Random r) {
        PyDict.Builder root = PyDict.builder();
        for (String table : List.of("zeta", "alpha", "mid")) {
            PyDict.Builder t = PyDict.builder();
            for (int i = 0; i < 400; i++) {
                String k = "#" + table.charAt(0) + (r.nextInt(1_000_000) + 1000);
                t.put(
                        k,
                        PyDict.of(
                                "id",
                                k,
                                "price",
                                new PyFloat(r.nextInt(100000) / 100.0),
                                "tags",
                                PyList.of(new PyStr("x" + r.nextInt(9)), new PyStr("\u00e9\u2028\"q")),
                                "big",
                                "y".repeat(r.nextInt(200))));
            }
            root.put(table, t.build());
        }
        root.put("small", PyDict.of("a", 1, "b", List.of(1, 2.5, "z")));
        return root.build();
    }

    @Test
    void checkpointedHashesMatchJsonDumpsAcrossBranches() {
        // Branches of one world hashed in turn: each resumes from the first or the last trace of this
        // thread, whichever shares its prefix (moved from the former Tau2HashTest, now in both orders).
        for (boolean sort : new boolean[] {true, false}) {
            DigestCheckpoints.forget();
            java.util.Random r = new java.util.Random(7);
            PyDict base = tables(r);
            assertEquals(reference(base, sort), WorldHash.sha256(base, sort));
            List<PyDict> branches = new ArrayList<>(List.of(base, base, base));
            for (int step = 0; step < 150; step++) {
                int b = r.nextInt(branches.size());
                PyDict w = branches.get(b);
                String table = List.of("zeta", "alpha", "mid").get(r.nextInt(3));
                PyDict t = w.get(table).asDict();
                List<String> keys = new ArrayList<>(t.keys());
                String k = keys.get(r.nextInt(keys.size()));
                int threshold = r.nextInt(3) == 0 ? 200 : WorldHash.DEFAULT_MEMO_THRESHOLD;
                PyDict next = switch (r.nextInt(4)) {
                    case 0 -> w.with(table, t.with(k, t.get(k).asDict().with("price", new PyFloat(r.nextDouble()))));
                    case 1 -> w.with(table, t.without(k));
                    case 2 -> w.with(table, t.with("#new" + step, PyDict.of("id", "n")));
                    default -> w.with("small", PyDict.of("a", step));
                };
                branches.set(b, next);
                assertEquals(
                        reference(next, sort),
                        WorldHash.sha256(next, sort, threshold),
                        "step " + step + " sort " + sort);
                if (r.nextInt(5) == 0) assertEquals(reference(base, sort), WorldHash.sha256(base, sort));
            }
        }
    }

    @Test
    void anUpdateResumesFromTheCheckpointBeforeItsFirstChange() {
        DigestCheckpoints.forget();
        PyDict base = tables(new java.util.Random(3));
        WorldHash.sha256(base, true);
        DigestCheckpoints.Trace first = DigestCheckpoints.traces(1)[0];
        // Sorted order is alpha, mid, small, zeta: change the last entry of "mid".
        PyDict mid = base.get("mid").asDict();
        String last = mid.keys().stream().max(DigestWriter::compareKeys).orElseThrow();
        PyDict next = base.with("mid", mid.with(last, PyDict.of("id", "changed")));
        assertEquals(reference(next, true), WorldHash.sha256(next, true));
        DigestCheckpoints.Trace second = DigestCheckpoints.traces(1)[1];
        assertEquals(first.n, second.n);
        // alpha's entries and mid's but the last are digested once: their states are the first trace's.
        int shared = base.get("alpha").asDict().size() + mid.size() - 1;
        assertTrue(shared > 700);
        for (int i = 0; i < shared; i++) assertSame(first.states[i], second.states[i], "entry " + i);
        int checkpoints = 0;
        for (int i = shared; i < second.n; i++) {
            if (second.states[i] == null) continue;
            checkpoints++;
            assertNotSame(first.states[i], second.states[i], "entry " + i);
        }
        // zeta's ~400 entries of ~200 bytes after the change: one checkpoint per CHECKPOINT_EVERY bytes.
        assertTrue(checkpoints >= 2 && checkpoints <= 10, "checkpoints " + checkpoints);
        assertTrue(DigestCheckpoints.retainedBytes() > 0);
    }

    @Test
    void anUntouchedLargeTableKeepsItsSpanAcrossUpdates() {
        DigestCheckpoints.forget();
        PyDict base = tables(new java.util.Random(5));
        WorldHash.sha256(base, true);
        // Sorted order is alpha, mid, small, zeta: a change in zeta leaves alpha's and mid's skeletons shared.
        PyDict zeta = base.get("zeta").asDict();
        String k = zeta.keys().iterator().next();
        PyDict next = base.with("zeta", zeta.with(k, PyDict.of("id", "changed")));
        assertEquals(reference(next, true), WorldHash.sha256(next, true));
        DigestCheckpoints.Trace first = DigestCheckpoints.traces(1)[0], second = DigestCheckpoints.traces(1)[1];
        Object alpha = WorldHash.text(WorldHash.memo(base.get("alpha"), 1));
        assertInstanceOf(Object[].class, alpha);
        int s = 0;
        while (s < second.spans && second.spanSkeletons[s] != alpha) s++;
        assertTrue(s < second.spans, "alpha's span is recorded in the updated world's trace");
        assertEquals(0, second.spanStart[s]);
        assertEquals(base.get("alpha").asDict().size(), second.spanEnd[s] - second.spanStart[s]);
        for (int i = 0; i < second.spanEnd[s]; i++) assertSame(first.nodes[i], second.nodes[i], "entry " + i);
        // A third world changing zeta again copies alpha's and mid's spans from the second trace.
        PyDict third = next.with("zeta", next.get("zeta").asDict().with(k, PyDict.of("id", "again")));
        assertEquals(reference(third, true), WorldHash.sha256(third, true));
        assertEquals(reference(base, true), WorldHash.sha256(base, true));
    }

    /**
     * An updated large table's skeleton is the previous one with the changed children replaced; every
     * other change (a leaf, a child that becomes a leaf, empty or large, another key set, a dict that
     * becomes small) walks the table again. Each version hashes as json.dumps says.
     */
    @Test
    void anUpdatedTableIsPatchedAndEveryOtherChangeWalked() {
        java.util.Random r = new java.util.Random(8);
        PyDict.Builder b = PyDict.builder();
        for (int i = 0; i < 300; i++) {
            String k = "#o" + (r.nextInt(900_000) + 100_000);
            b.put(
                    k,
                    i % 10 == 0
                            ? Value.of(i)
                            : PyDict.of(
                                    "id", k, "items", PyList.of(new PyStr("x" + i)), "total", new PyFloat(i / 4.0)));
        }
        PyDict table = b.build();
        PyDict world = PyDict.of("orders", table, "users", PyDict.of("u", 1));
        assertEquals(reference(world, true), WorldHash.sha256(world, true));
        List<String> keys = new ArrayList<>(table.keys());
        String dictKey = keys.get(1), otherDictKey = keys.get(250), leafKey = keys.get(0);
        List<java.util.function.UnaryOperator<PyDict>> changes = List.of(
                t -> t.with(dictKey, PyDict.of("id", "changed")),
                t -> t.with(dictKey, PyDict.of("id", "again")).with(otherDictKey, PyList.of(Value.of(1), Value.of(2))),
                t -> t.with(leafKey, Value.of("a leaf changed")),
                t -> t.with(dictKey, Value.of(7)),
                t -> t.with(otherDictKey, PyDict.empty()),
                t -> t.with(dictKey, PyDict.of("big", "z".repeat(WorldHash.DEFAULT_MEMO_THRESHOLD))),
                t -> t.with(dictKey, PyDict.of("id", "small again")),
                t -> t.without(otherDictKey),
                t -> t.with("#new", PyDict.of("id", "new")));
        PyDict current = table;
        for (var change : changes) {
            PyDict next = change.apply(current);
            Value w = world.with("orders", next);
            assertEquals(reference(w, true), WorldHash.sha256(w, true));
            assertEquals(reference(w, false), WorldHash.sha256(w, false));
            current = next;
        }
        // A one-child update after a walked version: patched, so the runs are the previous skeleton's own arrays.
        PyDict base = current;
        PyDict next = base.with(dictKey, PyDict.of("id", "patched"));
        WorldHash.sha256(world.with("orders", next), true);
        Object[] before = (Object[]) WorldHash.text(base.memo(1)), after = (Object[]) WorldHash.text(next.memo(1));
        assertEquals(before.length, after.length);
        assertSame(before[0], after[0], "the run before the first child is shared, not rebuilt");
        assertSame(before[before.length - 1], after[after.length - 1]);
        // Shrunk below the threshold: the table's memo is its bytes, as a walk makes it.
        PyDict.Builder few = PyDict.builder();
        for (int i = 0; i < 64; i++) few.put("k" + i, PyDict.of("v", "w".repeat(i == 0 ? 4000 : 200)));
        PyDict large = few.build();
        String pad = "p".repeat(WorldHash.DEFAULT_MEMO_THRESHOLD); // the root is large, so the table's memo is its own
        assertEquals(
                reference(PyDict.of("t", large, "pad", pad), true),
                WorldHash.sha256(PyDict.of("t", large, "pad", pad), true));
        assertInstanceOf(Object[].class, WorldHash.text(large.memo(1)));
        PyDict shrunk = large.with("k0", PyDict.of("v", "w"));
        assertEquals(
                reference(PyDict.of("t", shrunk, "pad", pad), true),
                WorldHash.sha256(PyDict.of("t", shrunk, "pad", pad), true));
        assertInstanceOf(byte[].class, WorldHash.text(shrunk.memo(1)));
    }

    /**
     * A table changed through a chain of replaced keys is patched from the changed keys alone (the
     * origins are dropped once used); a chain that does not lead back to the skeleton last patched
     * (a sibling branch, a chain longer than the bound) is walked. Every version hashes as json.dumps says.
     */
    @Test
    void aTableChangedAlongItsOriginsIsPatchedFromTheChangedKeys() {
        PyDict.Builder b = PyDict.builder();
        for (int i = 0; i < 400; i++)
            b.put("#o" + (1000 + i), PyDict.of("id", i, "items", PyList.of(new PyStr("x" + i))));
        PyDict table = b.build();
        PyDict world = PyDict.of("orders", table, "users", PyDict.of("u", 1));
        assertEquals(reference(world, true), WorldHash.sha256(world, true));
        PyDict three = table.with("#o1001", PyDict.of("id", "a"))
                .with("#o1300", PyDict.of("id", "b"))
                .with("#o1001", PyDict.of("id", "c"));
        PyDict w3 = world.with("orders", three);
        assertEquals(reference(w3, true), WorldHash.sha256(w3, true));
        assertNull(three.origin(), "the hasher drops the origins it used");
        Object[] before = (Object[]) WorldHash.text(table.memo(1)), after = (Object[]) WorldHash.text(three.memo(1));
        assertEquals(before.length, after.length);
        assertSame(before[0], after[0], "patched: the runs are the previous skeleton's own arrays");
        // A sibling of `three`, made from `table`: its origin's skeleton is not the one last patched.
        PyDict sibling = table.with("#o1002", PyDict.of("id", "s"));
        PyDict ws = world.with("orders", sibling);
        assertEquals(reference(ws, true), WorldHash.sha256(ws, true));
        // Longer than the bound of origins: walked, still right.
        PyDict longChain = sibling;
        for (int i = 0; i < 30; i++) longChain = longChain.with("#o" + (1000 + i * 7), PyDict.of("id", "l" + i));
        PyDict wl = world.with("orders", longChain);
        assertEquals(reference(wl, true), WorldHash.sha256(wl, true));
        assertEquals(reference(wl, false), WorldHash.sha256(wl, false));
        // A change to a leaf through the chain: walked.
        PyDict leaf = longChain.with("#o1003", Value.of(3));
        assertEquals(reference(world.with("orders", leaf), true), WorldHash.sha256(world.with("orders", leaf), true));
    }

    /** bench replay's SHA-256 floor rests on this count: every byte handed to the digest, once. */
    @Test
    void digestedBytesCountEveryByteFedToSha256() {
        DigestCheckpoints.forget();
        Value small = Json.parse("{\"b\": [1, 2.5, \"x\u00e9\"], \"a\": {\"c\": null}}");
        long before = WorldHash.digestedBytes();
        WorldHash.sha256(small, true);
        assertEquals(
                PyJson.dumps(small, DumpOptions.SORTED).length(),
                WorldHash.digestedBytes() - before,
                "a small world: its text");
        before = WorldHash.digestedBytes();
        WorldHash.sha256(small, true);
        WorldHash.sha256(new PyStr("leaf"), true);
        assertEquals(
                "\"leaf\"".length(),
                WorldHash.digestedBytes() - before,
                "hashed again: the hex memo, nothing digested");

        PyDict base = tables(new java.util.Random(3));
        int length = PyJson.dumps(base, DumpOptions.SORTED).length();
        before = WorldHash.digestedBytes();
        WorldHash.sha256(base, true);
        assertEquals(length, WorldHash.digestedBytes() - before, "a large world new to this thread: its whole text");

        // The last entry of "mid" changes: digesting resumes at the last checkpoint before it.
        DigestCheckpoints.Trace first = DigestCheckpoints.traces(1)[0];
        PyDict mid = base.get("mid").asDict();
        String last = mid.keys().stream().max(DigestWriter::compareKeys).orElseThrow();
        PyDict next = base.with("mid", mid.with(last, PyDict.of("id", "changed")));
        int changed = base.get("alpha").asDict().size() + mid.size() - 1;
        int checkpoint = changed - 1;
        while (first.states[checkpoint] == null) checkpoint--;
        long prefix = 0;
        for (int i = 0; i <= checkpoint; i++) prefix += first.gaps[i].length + first.texts[i].length;
        before = WorldHash.digestedBytes();
        WorldHash.sha256(next, true);
        assertEquals(PyJson.dumps(next, DumpOptions.SORTED).length() - prefix, WorldHash.digestedBytes() - before);
        assertTrue(prefix > length / 3, "most of the text is not digested again: " + prefix + " of " + length);
    }

    /**
     * bench replay's full-hash floor rests on this count: the whole text of every world hash computed,
     * shared prefixes, copied spans of untouched tables and resumed entries included; a hex memo hit is
     * no hash computed.
     */
    @Test
    void hashedTextBytesCountTheWholeTextOfEveryHashComputed() {
        DigestCheckpoints.forget();
        Value small = Json.parse("{\"b\": [1, 2.5, \"x\u00e9\"], \"a\": {\"c\": null}}");
        long before = WorldHash.hashedTextBytes();
        WorldHash.sha256(small, true);
        WorldHash.sha256(small, true); // the hex memo
        WorldHash.sha256(new PyStr("leaf"), true);
        assertEquals(
                PyJson.dumps(small, DumpOptions.SORTED).length() + "\"leaf\"".length(),
                WorldHash.hashedTextBytes() - before);

        PyDict base = tables(new java.util.Random(5));
        before = WorldHash.hashedTextBytes();
        WorldHash.sha256(base, true);
        assertEquals(PyJson.dumps(base, DumpOptions.SORTED).length(), WorldHash.hashedTextBytes() - before);
        PyDict world = base;
        java.util.Random r = new java.util.Random(9);
        for (int step = 0; step < 12; step++) {
            // A change in one table (first, middle or last entry; alpha's, mid's and zeta's spans copied or
            // walked), a key added to one, or a table removed and put back: each world's whole text.
            String table = List.of("alpha", "mid", "zeta").get(r.nextInt(3));
            PyDict t = world.get(table).asDict();
            List<String> keys =
                    t.keys().stream().sorted(DigestWriter::compareKeys).toList();
            String key = step % 4 == 3
                    ? "#new" + step
                    : keys.get(List.of(0, keys.size() / 2, keys.size() - 1).get(step % 3));
            world = world.with(table, t.with(key, PyDict.of("id", "changed " + step)));
            long digested = WorldHash.digestedBytes();
            before = WorldHash.hashedTextBytes();
            WorldHash.sha256(world, true);
            int length = PyJson.dumps(world, DumpOptions.SORTED).length();
            assertEquals(length, WorldHash.hashedTextBytes() - before, "step " + step);
            assertTrue(WorldHash.digestedBytes() - digested <= length);
        }
        before = WorldHash.hashedTextBytes();
        WorldHash.sha256(base, true); // the anchor again: its hex memo
        assertEquals(0, WorldHash.hashedTextBytes() - before);
    }

    @Test
    void anUnrelatedWorldBecomesTheAnchor() {
        DigestCheckpoints.forget();
        WorldHash.sha256(tables(new java.util.Random(21)), true);
        PyDict other = tables(new java.util.Random(22));
        WorldHash.sha256(other, true);
        DigestCheckpoints.Trace anchor = DigestCheckpoints.traces(1)[0];
        // A step changing alpha's first entry, then one changing zeta's last: the second resumes from
        // the anchor (all but its last entry shared), not from the step before (nothing shared).
        PyDict alpha = other.get("alpha").asDict(), zeta = other.get("zeta").asDict();
        String a = alpha.keys().stream().min(DigestWriter::compareKeys).orElseThrow();
        String z = zeta.keys().stream().max(DigestWriter::compareKeys).orElseThrow();
        assertSame(alpha.get(a), anchor.nodes[0], "another world: the anchor now is its trace");
        PyDict step1 = other.with("alpha", alpha.with(a, PyDict.of("id", "1")));
        assertEquals(reference(step1, true), WorldHash.sha256(step1, true));
        PyDict step2 = other.with("zeta", zeta.with(z, PyDict.of("id", "2")));
        assertEquals(reference(step2, true), WorldHash.sha256(step2, true));
        DigestCheckpoints.Trace[] traces = DigestCheckpoints.traces(1);
        assertSame(anchor, traces[0], "related worlds keep the anchor");
        int lastCheckpoint = anchor.n - 2;
        while (anchor.states[lastCheckpoint] == null) lastCheckpoint--;
        assertSame(anchor.states[lastCheckpoint], traces[1].states[lastCheckpoint]);
    }

    @Test
    void aHashedRootKeepsItsHexAndEachOrderItsOwnSlot() {
        PyDict base = tables(new java.util.Random(5));
        String sorted = WorldHash.sha256(base, true), insertion = WorldHash.sha256(base, false);
        WorldHash.Hashed s = assertInstanceOf(WorldHash.Hashed.class, base.memo(1));
        WorldHash.Hashed i = assertInstanceOf(WorldHash.Hashed.class, base.memo(0));
        assertEquals(sorted, s.hex());
        assertEquals(insertion, i.hex());
        assertInstanceOf(Object[].class, s.text(), "a large root keeps its skeleton under the hex");
        assertSame(s, base.memo(1), "hashing the other order leaves this one's memo alone");
        assertSame(sorted, WorldHash.sha256(base, true), "hashing again reads the hex memo");
        // A hashed root that becomes a child of a bigger world is still fed from its text memo.
        PyDict outer = PyDict.of("inner", base, "z", 1);
        assertEquals(reference(outer, true), WorldHash.sha256(outer, true));
        assertEquals(reference(outer, false), WorldHash.sha256(outer, false));
    }

    @Test
    void threadsHashSharedWorldsConcurrently() throws Exception {
        PyDict base = tables(new java.util.Random(11));
        List<PyDict> worlds = new ArrayList<>();
        java.util.Random r = new java.util.Random(12);
        for (int i = 0; i < 40; i++) {
            PyDict t = base.get("zeta").asDict();
            String k = new ArrayList<>(t.keys()).get(r.nextInt(t.size()));
            worlds.add(base.with("zeta", t.with(k, PyDict.of("i", i))));
        }
        List<String> expected = worlds.stream().map(w -> reference(w, true)).toList();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            List<java.util.concurrent.Future<List<String>>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++)
                runs.add(pool.submit(() ->
                        worlds.stream().map(w -> WorldHash.sha256(w, true)).toList()));
            for (var run : runs) assertEquals(expected, run.get());
        }
    }

    private static PyDict firstValue(PyDict d) {
        return d.asMap().values().iterator().next().asDict();
    }
}
