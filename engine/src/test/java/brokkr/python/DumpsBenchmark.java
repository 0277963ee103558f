package brokkr.python;

import brokkr.value.Json;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Throughput of {@link PyJson#dumps} and {@link PyJsonLoads#loads} on the largest upstream world
 * (tau2 airline db.json, 7 MB), not a unit test. Run from the repository root after
 * {@code mvn -pl engine test-compile}:
 * <pre>java -cp engine/target/classes:engine/target/test-classes:$(deps) brokkr.python.DumpsBenchmark [db.json]</pre>
 * The default path is the shared data directory beside the project root.
 */
public final class DumpsBenchmark {
    public static void main(String[] args) throws Exception {
        Path db = args.length > 0
                ? Path.of(args[0])
                : Path.of("..", "shared", "upstream", "tau2-bench", "data", "tau2", "domains", "airline", "db.json");
        Value world = Json.read(db);
        String text = Files.readString(db);
        PyJson.DumpOptions[] options = {
            PyJson.DumpOptions.DEFAULT, PyJson.DumpOptions.SORTED, PyJson.DumpOptions.DEFAULT.withIndent(2)
        };
        String[] names = {"dumps(world)", "dumps(world, sort_keys=True)", "dumps(world, indent=2)"};
        double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double bestLoads = Double.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            for (int k = 0; k < options.length; k++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 5; i++)
                    sink += PyJson.dumps(world, options[k]).length();
                best[k] = Math.min(best[k], (System.nanoTime() - t0) / 1e6 / 5);
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < 3; i++) sink += PyJsonLoads.loads(text).hashCode() & 1;
            bestLoads = Math.min(bestLoads, (System.nanoTime() - t0) / 1e6 / 3);
        }
        for (int k = 0; k < options.length; k++) System.out.printf("%-32s %7.1f ms%n", names[k], best[k]);
        System.out.printf(
                "%-32s %7.1f ms   (%d chars in, sink %d)%n", "loads(db.json)", bestLoads, text.length(), sink);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(1);
        double[] xs = new double[1_000_000];
        for (int i = 0; i < xs.length; i++)
            xs[i] = i % 2 == 0 ? Double.longBitsToDouble(rng.nextLong()) : Math.round(rng.nextDouble() * 1e6) / 100.0;
        double bestRepr = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (double x : xs) sink += PyFloats.repr(x).length();
            bestRepr = Math.min(bestRepr, (System.nanoTime() - t0) / (double) xs.length);
        }
        System.out.printf(
                "%-32s %7.1f ns/op (half random bits, half cents; sink %d)%n", "PyFloats.repr", bestRepr, sink);
    }
}
