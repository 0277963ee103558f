package brokkr.cost;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.eval.Evidence;
import brokkr.provider.claudecode.ClaudeCodeProvider;
import brokkr.provider.claudecode.StreamJson;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one role of an attempt ({@code agent}, {@code user}, {@code judge}) spent, read from its recorded tokens
 * and calls: the provider and model its calls named (null when they named several, or when no call was
 * recorded), its tokens, the UTC date of its first call (the date its price is looked up for) and the cost the
 * backend reported itself (Claude Code's {@code modelUsage.costUSD}, summed over the role's calls; null when
 * no backend reported one). Money is derived here, at read time, from a {@link PriceTable}: prices are no part
 * of an attempt's record or a candidate's identity, so a new table never starts new cells.
 *
 * <p>The judge's spend is the evaluation's, not the candidate's; the user simulator's is the benchmark's. Both
 * are kept apart from the agent's so that neither is charged to the candidate.
 */
public record RoleSpend(String role, String provider, String model, Usage usage, LocalDate date, Double reportedUsd) {

    /** The roles of {@code e} that used a model or recorded a call, in role order. */
    public static List<RoleSpend> of(Evidence e) {
        Map<String, List<ModelCall>> calls = new LinkedHashMap<>();
        for (Evidence.RecordedCall rc : e.modelCalls())
            calls.computeIfAbsent(rc.role(), r -> new ArrayList<>()).add(rc.call());
        List<String> roles = new ArrayList<>(e.usage().keySet());
        for (String r : calls.keySet()) if (!roles.contains(r)) roles.add(r);
        List<RoleSpend> out = new ArrayList<>();
        for (String role : roles) {
            List<ModelCall> cs = calls.getOrDefault(role, List.of());
            String provider = null, model = null;
            boolean one = !cs.isEmpty();
            long first = Long.MAX_VALUE;
            Double reported = null;
            for (ModelCall c : cs) {
                if (provider == null) {
                    provider = c.provider();
                    model = c.model();
                }
                one &= c.provider().equals(provider) && c.model().equals(model);
                if (c.startedAtMillis() > 0) first = Math.min(first, c.startedAtMillis());
                Double r = reportedUsd(c);
                if (r != null) reported = reported == null ? r : reported + r;
            }
            out.add(new RoleSpend(
                    role,
                    one ? provider : null,
                    one ? model : null,
                    e.usage().getOrDefault(role, Usage.ZERO),
                    first == Long.MAX_VALUE ? null : LocalDate.ofInstant(Instant.ofEpochMilli(first), ZoneOffset.UTC),
                    reported));
        }
        return out;
    }

    /**
     * US dollars at {@code prices}: NaN (a dash) when the role's calls name no single model or that model has no
     * price (a scripted model has none: like its tokens, its cost is not measured).
     */
    public double usd(PriceTable prices) {
        if (provider == null) return Double.NaN;
        return prices.usd(provider, model, usage, date);
    }

    /** The cost a backend reported for one call: Claude Code's {@code result} line, from its recorded stdout. */
    static Double reportedUsd(ModelCall c) {
        if (!ClaudeCodeProvider.NAME.equals(c.provider()) || c.responseBody() == null || c.cacheHit()) return null;
        StreamJson.Reader r = new StreamJson.Reader();
        for (String line : c.responseBody().split("\n")) {
            try {
                r.accept(line);
            } catch (RuntimeException ignored) {
                // a line that is not stream-json (a stderr tail) reports nothing
            }
        }
        return r.result().isPresent() ? r.usage().costUsd() : null;
    }
}
