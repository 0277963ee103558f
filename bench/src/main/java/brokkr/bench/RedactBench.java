package brokkr.bench;

import brokkr.provider.Secret;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * {@code ./brokkr bench redact}: the API-key redactor ({@link Secret#redact}) on adversarial bodies as
 * large as a provider's reply may be (8 MiB by default, just under the response cap): a run of
 * backslashes (each one could begin an escaped form of the key, and a run may stand for any depth of
 * JSON nesting), a run of backslashes that ends in the key JSON-escaped, backslash runs alternating
 * with {@code \}{@code u} escapes of the key's first character, and text made of the key's first
 * character. Each body is redacted for a key without backslashes and for one with a run of them (whose
 * every split of a run is a possible match); the table shows the best of a few runs and the time per
 * MiB, which is flat when the redactor is linear.
 *
 * <p>Arguments: {@code --mib 1,8} (body sizes in MiB, default 1,8), {@code --rounds N} (default 3).
 */
public final class RedactBench {
    private RedactBench() {}

    static final String KEY = "sk-proj-Ab9cD3eF7gH1jK5lM";
    static final String BACKSLASH_KEY = "sk-back\\slash\\\\double";

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out));
    }

    record Body(String name, IntFunction<String> make) {}

    static final List<Body> BODIES = List.of(
            new Body("backslashes", n -> "\\".repeat(n)),
            new Body("backslashes, then the key as \\uXXXX", n -> "\\".repeat(n - 6 * KEY.length()) + uEscaped(KEY)),
            new Body("runs of 64 backslashes + \\u0073", n -> repeatTo(n, "\\".repeat(64) + "u0073")),
            new Body("the key's first character", n -> "s".repeat(n)),
            new Body("key prefixes", n -> repeatTo(n, KEY.substring(0, KEY.length() - 1) + "\\")));

    public static int run(List<String> args, PrintStream out) {
        List<Integer> mib = List.of(1, 8);
        int rounds = 3;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            switch (a) {
                case "--mib" -> {
                    List<Integer> sizes = new ArrayList<>();
                    for (String s : v.split(",")) sizes.add(positive(a, s.strip()));
                    mib = sizes;
                }
                case "--rounds" -> rounds = positive(a, v);
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + a + " (expected --mib N,N,... or --rounds N)");
            }
            i++;
        }
        warmUp();
        out.printf(Locale.ROOT, "%-40s %-26s %5s %10s %10s%n", "body", "key", "MiB", "best ms", "ms/MiB");
        for (Body body : BODIES) {
            for (String key : List.of(KEY, BACKSLASH_KEY)) {
                Secret secret = Secret.of(key);
                for (int size : mib) {
                    String text = body.make().apply(size << 20);
                    long best = Long.MAX_VALUE;
                    for (int r = 0; r < rounds; r++) {
                        long t0 = System.nanoTime();
                        String redacted = secret.redact(text);
                        best = Math.min(best, (System.nanoTime() - t0) / 1_000_000);
                        if (redacted == null) throw new IllegalStateException("no result");
                    }
                    out.printf(
                            Locale.ROOT,
                            "%-40s %-26s %5d %10d %10.1f%n",
                            body.name(),
                            key.replace("\\", "\\\\"),
                            size,
                            best,
                            (double) best / size);
                    out.flush();
                }
            }
        }
        return 0;
    }

    private static String uEscaped(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        return sb.toString();
    }

    private static String repeatTo(int n, String unit) {
        StringBuilder sb = new StringBuilder(n + unit.length());
        while (sb.length() < n) sb.append(unit);
        sb.setLength(n);
        return sb.toString();
    }

    private static void warmUp() {
        for (Body body : BODIES)
            for (int i = 0; i < 20; i++) Secret.of(KEY).redact(body.make().apply(4096));
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " needs a positive number, got " + v);
    }
}
