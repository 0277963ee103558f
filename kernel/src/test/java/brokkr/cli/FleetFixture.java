package brokkr.cli;

import brokkr.conversation.Candidate;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the fleet tests share: worker processes (separate JVMs running {@code brokkr worker} from this
 * class path), a loopback OpenAI-compatible model server with latency that records its peak of requests
 * in flight, and experiment files over the synthetic loop benchmark.
 */
final class FleetFixture {
    private FleetFixture() {}

    /** A command's exit code and output. */
    record Run(int code, String out, String err) {}

    static Run cli(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * An OpenAI-compatible model on loopback played by the loop benchmark's ideal follower: each request
     * waits {@code latencyMs} before its answer; {@link #peak} is the most requests it had in flight at once.
     */
    static final class ModelServer implements AutoCloseable {
        final AtomicInteger inFlight = new AtomicInteger(), peak = new AtomicInteger(), served = new AtomicInteger();
        final ScriptedModelServer server;

        ModelServer(int latencyMs) {
            Candidate ideal = LoopFollower.ideal();
            server = ScriptedModelServer.start(r -> {
                int now = inFlight.incrementAndGet();
                peak.accumulateAndGet(now, Math::max);
                try {
                    Thread.sleep(latencyMs);
                    DecodedRequest req = r.chat();
                    Turn t = ideal.next(req.history(), req.tools());
                    served.incrementAndGet();
                    return ScriptedModelServer.Reply.json(OpenAiChat.encodeResponse(
                            t.message(), req.model() == null ? "m" : req.model(), "chatcmpl-" + r.index()));
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        }

        String baseUrl() {
            return server.baseUrl();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** An experiment over loop tasks 1..{@code tasks} with the given candidates (YAML flow mappings). */
    static Path spec(Path dir, String name, int tasks, int repetitions, int parallelism, String... candidates)
            throws IOException {
        StringBuilder t = new StringBuilder();
        for (int i = 1; i <= tasks; i++)
            t.append(i == 1 ? "" : ", ").append('"').append(i).append('"');
        StringBuilder y = new StringBuilder("name: " + name + "\ndomain: loop\ntasks: [" + t + "]\ncandidates:\n");
        for (String c : candidates) y.append("  - ").append(c).append('\n');
        y.append("repetitions: ")
                .append(repetitions)
                .append("\nparallelism: ")
                .append(parallelism)
                .append("\nmax_infra_retries: 0\nprogress: false\n");
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, y);
        return f;
    }

    /** A worker process: {@code brokkr worker --store URL ARGS...}, its stderr in {@code log}. */
    static Process worker(String store, Path log, Map<String, String> env, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "worker",
                "--store",
                store));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Waits for {@code p} to exit (at most {@code seconds}), killing it when it does not. */
    static int await(Process p, int seconds) throws InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("worker " + p.pid() + " did not finish within " + seconds + " s");
        }
        return p.exitValue();
    }
}
