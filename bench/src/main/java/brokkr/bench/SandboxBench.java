package brokkr.bench;

import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxConfig;
import brokkr.sandbox.SandboxImage;
import brokkr.sandbox.SandboxPool;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./brokkr bench sandbox}: what the REPL action space's sandbox costs, measured side by side in
 * one run with and without the sandbox JVM's AOT cache.
 *
 * <ul>
 *   <li>an episode's sandbox, end to end: start, a prelude (a tool class), three evaluations (a method
 *       declaration, an expression making two tool calls, a loop that prints), close; wall time, and CPU:
 *       the harness process's (where the snippets are compiled) plus the sandbox JVM's own;
 *   <li>cold start (launch to ready: bubblewrap when present, the JVM, the imports analysed and a first round trip);
 *   <li>taking a warm JVM from the pool;
 *   <li>per evaluation in a started sandbox: a trivial expression, a method declaration, ten tool calls
 *       (each a round trip over the JVM's pipes).
 * </ul>
 * Episodes run one at a time after {@code --warmup} unmeasured ones (the harness's compiler warms up
 * like any Java code); medians and best of the runs.
 *
 * <p>Arguments: {@code --runs N} (default 20), {@code --warmup N} (default 20).
 */
public final class SandboxBench {
    private SandboxBench() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out));
    }

    private static final String PRELUDE =
            "class Tools { static String lookup(Map<String, Object> args) { return brokkr.sandbox.SandboxBridge.call(\"lookup\", args); }"
                    + " static String update(Map<String, Object> args) { return brokkr.sandbox.SandboxBridge.call(\"update\", args); } }";
    private static final List<String> EPISODE = List.of(
            "String summary(String json) { return brokkr.sandbox.SandboxBridge.shape(json); }",
            "var a = Tools.lookup(Map.of(\"id\", 1)); var b = Tools.update(Map.of(\"id\", 1, \"x\", 2.5)); summary(a) + b.length()",
            "for (int i = 0; i < 20; i++) System.out.println(\"line \" + i);");

    public static int run(List<String> args, PrintStream out) {
        int runs = 20, warmup = 20;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--runs") && i + 1 < args.size()) runs = Integer.parseInt(args.get(++i));
            else if (a.equals("--warmup") && i + 1 < args.size()) warmup = Integer.parseInt(args.get(++i));
            else throw new IllegalArgumentException("unknown argument '" + a + "' (--runs N, --warmup N)");
        }
        if (runs < 1 || warmup < 0)
            throw new IllegalArgumentException("--runs must be at least 1 and --warmup at least 0");
        SandboxConfig config = SandboxConfig.DEFAULT;
        SandboxImage image = SandboxImage.get();
        SandboxImage plain = image.withoutAotCache();
        out.println("isolation: " + config.isolation() + ", heap " + config.heapMb() + " MB; AOT cache: "
                + (image.aotCache() != null ? image.aotCache() : "none (" + image.aotNote() + ")"));
        out.println(runs + " runs each after " + warmup + " warm-up episodes, one at a time");
        Sandbox.CallHandler calls = (name, a) -> "{\"id\": 1, \"name\": \"" + name + "\", \"items\": [1, 2, 3]}";
        for (int i = 0; i < warmup; i++) episode(config, i % 2 == 0 ? image : plain, calls);
        for (SandboxImage img : image.aotCache() != null ? List.of(image, plain) : List.of(plain)) {
            String label = img.aotCache() != null ? "with AOT cache" : "without AOT cache";
            List<Long> wall = new ArrayList<>(),
                    cpu = new ArrayList<>(),
                    childCpu = new ArrayList<>(),
                    cold = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                Episode e = episode(config, img, calls);
                wall.add(e.wallMicros());
                cpu.add(e.cpuMicros());
                childCpu.add(e.childCpuMicros());
                cold.add(e.startMicros());
            }
            out.println("-- " + label);
            report(out, "episode: wall", wall);
            report(out, "episode: CPU, harness + sandbox", cpu);
            report(out, "episode: CPU, sandbox JVM only", childCpu);
            report(out, "cold start (launch to ready)", cold);
        }
        replEpisodes(config, image, runs, warmup, calls, out);
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
        out.println("-- evaluations (with the image above)");
        report(out, "warm acquire from the pool", warm);
        try (Sandbox s = Sandbox.start(config, image)) {
            for (int i = 0; i < 3; i++) s.evaluate("int warm" + i + " = " + i + ";", calls);
            report(out, "evaluation: 1 + 1", time(runs, i -> s.evaluate("1 + 1", calls)));
            report(
                    out,
                    "evaluation: declare a method",
                    time(runs, i -> s.evaluate("int twice" + i + "(int x) { return 2 * x; }", calls)));
            report(
                    out,
                    "evaluation: 10 tool calls",
                    time(
                            runs,
                            i -> s.evaluate(
                                    "for (int k = 0; k < 10; k++) brokkr.sandbox.SandboxBridge.call(\"t\", Map.of(\"k\", k));",
                                    calls)));
        }
        return 0;
    }

    /**
     * REPL episodes shaped like the proofs' (from the launch of the sandbox to its close), with the prelude
     * compiled as one class ({@code brokkr.sandbox.PreludeClass}) and as JShell snippets, alternating episode by
     * episode: BFCL multi-turn's (the helpers and 30 recorder methods, the same source every episode, then 8
     * snippets of one call each) and BFCL single-turn's (helpers and 3 recorder methods named anew every
     * episode, so never compiled before, then one snippet of two calls).
     */
    private static void replEpisodes(
            SandboxConfig config,
            SandboxImage image,
            int runs,
            int warmup,
            Sandbox.CallHandler calls,
            PrintStream out) {
        String before = System.getProperty("brokkr.sandbox.precompile");
        try {
            int[] fresh = {0};
            List<String> modes = List.of("true", "false");
            for (String shape : List.of("multi-turn", "single-turn")) {
                java.util.Map<String, List<Long>> wall = new java.util.HashMap<>(), cpu = new java.util.HashMap<>();
                for (int i = 0; i < warmup + runs; i++) {
                    for (String mode : modes) {
                        System.setProperty("brokkr.sandbox.precompile", mode);
                        int n = fresh[0]++;
                        Episode e = shape.equals("multi-turn")
                                ? episode(config, image, calls, multiTurnApi(), multiTurnSnippets())
                                : episode(config, image, calls, singleTurnApi(n), List.of(singleTurnSnippet(n)));
                        if (i < warmup) continue;
                        wall.computeIfAbsent(mode, k -> new ArrayList<>()).add(e.wallMicros());
                        cpu.computeIfAbsent(mode, k -> new ArrayList<>()).add(e.cpuMicros());
                    }
                }
                out.println(
                        "-- REPL episode, " + shape + " shape (prelude precompiled vs JShell snippets, alternating)");
                report(out, "precompiled: wall", wall.get("true"));
                report(out, "precompiled: CPU, harness + sandbox", cpu.get("true"));
                report(out, "JShell snippets: wall", wall.get("false"));
                report(out, "JShell snippets: CPU, harness + sandbox", cpu.get("false"));
            }
        } finally {
            if (before == null) System.clearProperty("brokkr.sandbox.precompile");
            else System.setProperty("brokkr.sandbox.precompile", before);
        }
    }

    private static brokkr.conversation.ToolSpec tool(String name) {
        brokkr.value.PyDict str = brokkr.value.PyDict.of("type", "string", "description", "a name");
        brokkr.value.PyDict num = brokkr.value.PyDict.of("type", "integer", "description", "a count");
        return new brokkr.conversation.ToolSpec(
                name,
                "Does " + name + ".",
                brokkr.value.PyDict.of(
                        "type",
                        "object",
                        "properties",
                        brokkr.value.PyDict.of("a", num, "b", str, "c", str),
                        "required",
                        brokkr.value.PyList.of(List.of(new brokkr.value.PyStr("a")))));
    }

    private static String multiTurnApi() {
        List<brokkr.conversation.ToolSpec> tools = new ArrayList<>();
        for (int i = 0; i < 30; i++) tools.add(tool("tool_" + i));
        return brokkr.repl.JavaApi.CALL_HELPER
                + brokkr.repl.JavaApi.recorders(tools).source();
    }

    private static List<String> multiTurnSnippets() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 8; i++) out.add("tool_" + (i * 3) + "(map(\"a\", " + i + ", \"b\", \"x\"));");
        return out;
    }

    private static String singleTurnApi(int n) {
        return brokkr.repl.JavaApi.recorders(List.of(tool("find_" + n), tool("book_" + n), tool("cancel_" + n)))
                .source();
    }

    private static String singleTurnSnippet(int n) {
        return "find_" + n + "(map(\"a\", 1, \"b\", \"x\")); book_" + n + "(map(\"a\", 2, \"c\", list(\"y\")));";
    }

    private record Episode(long wallMicros, long cpuMicros, long childCpuMicros, long startMicros) {}

    private static Episode episode(SandboxConfig config, SandboxImage image, Sandbox.CallHandler calls) {
        return episode(config, image, calls, PRELUDE, EPISODE);
    }

    private static Episode episode(
            SandboxConfig config,
            SandboxImage image,
            Sandbox.CallHandler calls,
            String prelude,
            List<String> snippets) {
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        long child;
        long start;
        try (Sandbox s = Sandbox.start(config, image)) {
            start = micros(t0);
            s.prelude(prelude, calls);
            for (String code : snippets) {
                Sandbox.EvalResult r = s.evaluate(code, calls);
                if (!r.ok()) throw new IllegalStateException("benchmark snippet failed: " + r.error());
            }
            child = s.cpuMillis() * 1000;
        }
        long wall = micros(t0);
        return new Episode(wall, (processCpuNanos() - cpu0) / 1000 + child, child, start);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private interface Eval {
        Sandbox.EvalResult run(int i);
    }

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
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long micros(long t0) {
        return (System.nanoTime() - t0) / 1000;
    }

    private static void report(PrintStream out, String what, List<Long> micros) {
        List<Long> s = micros.stream().sorted().toList();
        out.printf(
                Locale.ROOT,
                "%-34s median %9.1f ms   best %9.1f ms%n",
                what,
                s.get(s.size() / 2) / 1000.0,
                s.getFirst() / 1000.0);
    }
}
