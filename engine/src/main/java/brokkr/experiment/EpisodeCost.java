package brokkr.experiment;

import brokkr.conversation.Usage;
import brokkr.cost.PriceTable;
import brokkr.cost.RoleSpend;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evidence;
import brokkr.eval.Interaction;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What one episode cost its candidate, read from the attempt's evidence alone: the agent's tokens, its
 * model steps and the characters of the requests its model was sent (what input tokens grow with), and
 * the tool calls the protocol recorded (the domain's own calls, however the candidate expressed them:
 * JSON tools, or Java in a REPL snippet).
 *
 * <p>The protocol's own counts come first where it kept them ({@link Evidence#counts()}, typed on its
 * {@link Interaction}): tau2 counts its agent's steps and request characters under every harness
 * ({@link Interaction.Counter}, even for a scripted model that records no call), and the domain's tool
 * calls however the candidate expressed them. A figure the protocol did not count comes from the
 * recorded calls (each recorded agent call one step, its exact request body's length) or, for tool
 * calls, from the transcript's assistant messages.
 *
 * @param tokens     the agent's tokens; null when its model reports none (a scripted model: it records
 *                   no call, or only calls of provider {@value BenchmarkProvider#SCRIPTED}), so that no
 *                   one reads a 0 that was never measured; a provider that reported 0 gives 0
 * @param requests   the agent's model steps and request characters; null when the protocol counted
 *                   none and no agent call was recorded (a gold replay that asks no model)
 * @param toolCalls  tool calls of the transcript's assistant messages
 * @param spend      what each role's model calls spent (tokens, model, date), priced when shown ({@link RoleSpend})
 */
public record EpisodeCost(Usage tokens, Requests requests, long toolCalls, List<RoleSpend> spend) {

    /** The roles whose cost per episode the scorecard shows, each apart: the judge's is the evaluation's. */
    public static final List<String> COST_ROLES = List.of(Evidence.AGENT, "user", "judge");

    public EpisodeCost {
        spend = spend == null ? List.of() : List.copyOf(spend);
    }

    /** A cost that recorded no role's spend. */
    public EpisodeCost(Usage tokens, Requests requests, long toolCalls) {
        this(tokens, requests, toolCalls, List.of());
    }

    /** US dollars {@code role} spent at {@code prices}; NaN when it spent nothing recorded or has no price. */
    public double usd(String role, PriceTable prices) {
        for (RoleSpend s : spend) if (s.role().equals(role)) return s.usd(prices);
        return Double.NaN;
    }

    /**
     * Where tau2 put its agent's model steps in the protocol's output before the counts were typed
     * ({@link Interaction.Counts}): read only so that stores written then still show their costs.
     */
    static final String LEGACY_MODEL_STEPS = "agent_model_steps";
    /** Where tau2 put its agent's request characters before the counts were typed; read only, as {@link #LEGACY_MODEL_STEPS}. */
    static final String LEGACY_REQUEST_CHARS = "agent_request_chars";

    /** The agent's model steps and the characters of the requests they sent. */
    public record Requests(long modelSteps, long chars) {}

    public static EpisodeCost of(Evidence e) {
        long steps = 0, chars = 0;
        boolean realCall = false;
        for (Evidence.RecordedCall rc : e.modelCalls()) {
            if (!rc.role().equals(Evidence.AGENT)) continue;
            steps++;
            chars += rc.call().requestBody() == null
                    ? 0
                    : rc.call().requestBody().length();
            realCall |= !rc.call().provider().equals(BenchmarkProvider.SCRIPTED);
        }
        Requests requests = steps > 0 ? new Requests(steps, chars) : null;
        Interaction.Counts counts = e.counts() != null ? e.counts() : legacyCounts(e.output());
        if (counts != null && counts.modelSteps() != null)
            requests = new Requests(counts.modelSteps(), counts.requestChars());
        Usage u = e.agentUsage();
        boolean reported = realCall || u.inputTokens() != 0 || u.outputTokens() != 0;
        return new EpisodeCost(
                reported ? u : null,
                requests,
                counts != null && counts.toolCalls() != null ? counts.toolCalls() : toolCalls(e.transcript()),
                RoleSpend.of(e));
    }

    /** The counts an old store's tau2 evidence kept as string keys of the protocol's output (steps and characters only), or null. */
    private static Interaction.Counts legacyCounts(PyDict output) {
        if (output.get(LEGACY_MODEL_STEPS) instanceof PyInt s && output.get(LEGACY_REQUEST_CHARS) instanceof PyInt c) {
            return new Interaction.Counts(s.longValue(), c.longValue(), null);
        }
        return null;
    }

    /** Tool calls of assistant messages in a recorded transcript (tau2's and the generic shape alike). */
    static long toolCalls(Value transcript) {
        long n = 0;
        if (!(transcript instanceof PyList l)) return 0;
        for (Value m : l) {
            if (m instanceof PyDict d
                    && d.get("role") instanceof PyStr r
                    && r.value().equals("assistant")
                    && d.get("tool_calls") instanceof PyList calls) n += calls.size();
        }
        return n;
    }

    /**
     * A candidate's means per completed episode. Each figure is the mean over the episodes that know it
     * and NaN when none does (no tokens from a scripted model, no step counted or recorded, no episode):
     * shown as missing, never as 0.
     */
    public record Means(
            int episodes,
            double inputTokens,
            double outputTokens,
            double modelSteps,
            double toolCalls,
            double requestChars,
            Map<String, Double> usdPerRole) {
        public static final Means NONE = new Means(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        public Means {
            usdPerRole = usdPerRole == null ? Map.of() : Map.copyOf(usdPerRole);
        }

        /** Means without money. */
        public Means(
                int episodes,
                double inputTokens,
                double outputTokens,
                double modelSteps,
                double toolCalls,
                double requestChars) {
            this(episodes, inputTokens, outputTokens, modelSteps, toolCalls, requestChars, Map.of());
        }

        /** US dollars per episode {@code role} spent (NaN when no episode's spend of it is priced). */
        public double usd(String role) {
            return usdPerRole.getOrDefault(role, Double.NaN);
        }

        /** The means, money at the standard price table ({@link PriceTable#standard}). */
        public static Means of(Collection<EpisodeCost> costs) {
            return of(costs, PriceTable.standard());
        }

        public static Means of(Collection<EpisodeCost> costs, PriceTable prices) {
            if (costs.isEmpty()) return NONE;
            Map<String, Double> usd = new java.util.LinkedHashMap<>();
            for (String role : COST_ROLES) {
                double m = mean(costs, c -> c.usd(role, prices));
                if (!Double.isNaN(m)) usd.put(role, m); // unpriced: absent, read as NaN (a dash)
            }
            return new Means(
                    costs.size(),
                    mean(
                            costs,
                            c -> c.tokens() == null ? Double.NaN : c.tokens().inputTokens()),
                    mean(
                            costs,
                            c -> c.tokens() == null ? Double.NaN : c.tokens().outputTokens()),
                    mean(
                            costs,
                            c -> c.requests() == null
                                    ? Double.NaN
                                    : c.requests().modelSteps()),
                    mean(costs, EpisodeCost::toolCalls),
                    mean(
                            costs,
                            c -> c.requests() == null
                                    ? Double.NaN
                                    : c.requests().chars()),
                    usd);
        }

        /** The mean of the figure over the costs that have it (NaN for none). */
        private static double mean(Collection<EpisodeCost> costs, ToDoubleFunction<EpisodeCost> figure) {
            double sum = 0;
            int n = 0;
            for (EpisodeCost c : costs) {
                double v = figure.applyAsDouble(c);
                if (Double.isNaN(v)) continue;
                sum += v;
                n++;
            }
            return n == 0 ? Double.NaN : sum / n;
        }
    }
}
