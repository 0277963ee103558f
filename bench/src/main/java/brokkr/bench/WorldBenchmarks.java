package brokkr.bench;

import brokkr.python.PyJson;
import brokkr.tool.WorldCell;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH benchmarks of world values: load, fork, updates, hashing (cold and warm). Run through {@link WorldBench}. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WorldBenchmarks {
    static final int UPDATES = 1000;

    @State(Scope.Benchmark)
    public static class Db {
        @Param({"retail", "airline"})
        public String db;

        BenchWorlds.Db file;
        Value world;
        BenchWorlds.Update[] updates;

        @Setup(Level.Trial)
        public void setUp() {
            file = BenchWorlds.db(db);
            world = file.load();
            Random rnd = new Random(42);
            updates = new BenchWorlds.Update[UPDATES];
            for (int i = 0; i < UPDATES; i++) updates[i] = BenchWorlds.randomUpdate(world, rnd);
        }
    }

    /** A world with no memos, built anew before every call: the first hash of a freshly loaded world. */
    @State(Scope.Thread)
    public static class Cold {
        Value fresh;

        @Setup(Level.Invocation)
        public void setUp(Db db) {
            fresh = BenchWorlds.deepCopy(db.world);
        }
    }

    /** A world hashed once (both key orders), then changed by one random update before every call. */
    @State(Scope.Thread)
    public static class Warm {
        Value base;
        Value next;
        Random rnd = new Random(7);

        @Setup(Level.Trial)
        public void hashBase(Db db) {
            base = BenchWorlds.deepCopy(db.world);
            WorldHash.sha256(base, true);
            WorldHash.sha256(base, false);
        }

        @Setup(Level.Invocation)
        public void update(Db db) {
            next = db.updates[rnd.nextInt(UPDATES)].applyTo(base);
        }
    }

    /** Loading as the domain does: read, check the pinned sha256, parse. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Value load(Db db) {
        return db.file.load();
    }

    /** Forking is handing over the reference: a new cell for the fork. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public WorldCell fork(Db db) {
        return new WorldCell(db.world);
    }

    /** Fork and write one field: the path is copied, the rest shared. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Value forkAndUpdate(Db db) {
        return db.updates[0].applyTo(new WorldCell(db.world).get());
    }

    /** What forking costs without structural sharing (Python's copy.deepcopy of the db). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Value deepCopy(Db db) {
        return BenchWorlds.deepCopy(db.world);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Value updates1000(Db db) {
        Value w = db.world;
        for (BenchWorlds.Update u : db.updates) w = u.applyTo(w);
        return w;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String hashColdSorted(Cold c) {
        return WorldHash.sha256(c.fresh, true);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String hashColdInsertion(Cold c) {
        return WorldHash.sha256(c.fresh, false);
    }

    /** The naive way, for comparison (on the same fresh world as a cold hash): the whole json.dumps text, its bytes, sha256. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public byte[] hashNaiveSorted(Cold c) {
        String text = PyJson.dumps(c.fresh, PyJson.DumpOptions.SORTED);
        return WorldHash.newSha256().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String hashWarmSorted(Warm w) {
        return WorldHash.sha256(w.next, true);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String hashWarmInsertion(Warm w) {
        return WorldHash.sha256(w.next, false);
    }
}
