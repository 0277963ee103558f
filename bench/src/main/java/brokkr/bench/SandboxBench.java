package brokkr.bench;

import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxConfig;
import brokkr.sandbox.SandboxPool;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./brokkr bench sandbox}: what the REPL action space's sandbox costs. Cold start (launch to
 * ready: bubblewrap when present, the JVM, JShell's first compile), taking a warm JVM from the pool, and
 * per evaluation: a trivial expression, a statement declaring a method, and a snippet making ten tool
 * calls to the harness (each a round trip over the JVM's pipes). Median and best of N runs each.
 *
 * <p>Arguments: {@code --runs N} (default 5).
 */
public final class SandboxBench {
    private SandboxBench() {}

    public static void main(String[] args) { System.exit(run(Arrays.asList(args), System.out)); }

    public static int run(List<String> args, PrintStream out) {
        int runs = 5;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--runs") && i + 1 < args.size()) runs = Integer.parseInt(args.get(++i));
            else throw new IllegalArgumentException("unknown argument '" + args.get(i) + "' (--runs N)");
        }
        if (runs < 1) throw new IllegalArgumentException("--runs must be at least 1");
        SandboxConfig config = SandboxConfig.DEFAULT;
        out.println("isolation: " + config.isolation() + ", heap " + config.heapMb() + " MB, " + runs + " runs each");
        List<Long> cold = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            try (Sandbox s = Sandbox.start(config)) { cold.add(micros(t0)); }
        }
        report(out, "cold start (launch to ready)", cold);
        List<Long> warm = new ArrayList<>();
        try (SandboxPool pool = new SandboxPool(config, 1)) {
            for (int i = 0; i < runs; i++) {
                pool.refill();
                waitReady(pool);
                long t0 = System.nanoTime();
                Sandbox s = pool.acquire();
                warm.add(micros(t0));
                s.close();
            }
        }
        report(out, "warm acquire from the pool", warm);
        try (Sandbox s = Sandbox.start(config)) {
            Sandbox.CallHandler echo = (name, a) -> "{\"ok\": true}";
            for (int i = 0; i < 3; i++) s.evaluate("int warm" + i + " = " + i + ";", echo);
            report(out, "evaluation: 1 + 1", time(runs, i -> s.evaluate("1 + 1", echo)));
            report(out, "evaluation: declare a method", time(runs, i -> s.evaluate("int twice" + i + "(int x) { return 2 * x; }", echo)));
            report(out, "evaluation: 10 tool calls", time(runs, i -> s.evaluate(
                    "for (int k = 0; k < 10; k++) brokkr.sandbox.SandboxBridge.call(\"t\", Map.of(\"k\", k));", echo)));
        }
        return 0;
    }

    private interface Eval { Sandbox.EvalResult run(int i); }

    private static List<Long> time(int runs, Eval e) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Sandbox.EvalResult r = e.run(i);
            if (!r.ok()) throw new IllegalStateException("benchmark snippet failed: " + r.error());
            out.add(micros(t0));
        }
        return out;
    }

    private static void waitReady(SandboxPool pool) {
        long deadline = System.currentTimeMillis() + 120_000;
        while (pool.readyCount() == 0 && System.currentTimeMillis() < deadline) {
            try { Thread.sleep(20); } catch (InterruptedException ex) { Thread.currentThread().interrupt(); return; }
        }
    }

    private static long micros(long t0) { return (System.nanoTime() - t0) / 1000; }

    private static void report(PrintStream out, String what, List<Long> micros) {
        List<Long> s = micros.stream().sorted().toList();
        out.printf(Locale.ROOT, "%-32s median %9.1f ms   best %9.1f ms%n", what, s.get(s.size() / 2) / 1000.0, s.getFirst() / 1000.0);
    }
}
