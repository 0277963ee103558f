package brokkr.cost;

import brokkr.conversation.ModelCall;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.Usage;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * What one cell's candidate may spend ({@code budget: {per_cell: {max_cost_usd, max_tokens}}} in the experiment
 * file): its own model calls' tokens (input plus output) and their dollars at the price table. The user
 * simulator's and the judge's calls are the evaluation's and do not count. Operational like the experiment's
 * budget: no part of a cell's identity.
 */
public record CellBudget(Double maxCostUsd, Long maxTokens) {
    public static final CellBudget NONE = new CellBudget(null, null);

    public CellBudget {
        if (maxCostUsd != null && !(maxCostUsd > 0))
            throw new IllegalArgumentException("per_cell.max_cost_usd must be a number > 0, got " + maxCostUsd);
        if (maxTokens != null && maxTokens <= 0)
            throw new IllegalArgumentException("per_cell.max_tokens must be a whole number > 0, got " + maxTokens);
    }

    public boolean limited() {
        return maxCostUsd != null || maxTokens != null;
    }

    /** A fresh meter for one cell, pricing at {@code prices}; {@link SpendLimit#NONE} without a limit. */
    public SpendLimit meter(PriceTable prices) {
        return limited() ? new Meter(this, prices) : SpendLimit.NONE;
    }

    /** One cell's spend against its budget (thread-safe: a harness may call the model from its own threads). */
    static final class Meter implements SpendLimit {
        private final CellBudget budget;
        private final PriceTable prices;
        private long tokens;
        private double usd;
        private boolean unpriced;

        Meter(CellBudget budget, PriceTable prices) {
            this.budget = budget;
            this.prices = prices;
        }

        @Override
        public synchronized void add(List<ModelCall> calls, Usage usage) {
            if (usage == null) return;
            tokens += usage.inputTokens() + usage.outputTokens();
            if (calls.isEmpty() || budget.maxCostUsd() == null) return;
            ModelCall c = calls.getLast(); // a retried call's answer came from the last attempt
            LocalDate on = c.startedAtMillis() > 0
                    ? LocalDate.ofInstant(Instant.ofEpochMilli(c.startedAtMillis()), ZoneOffset.UTC)
                    : null;
            double d = prices.usd(c.provider(), c.model(), usage, on);
            if (Double.isNaN(d)) unpriced |= usage.inputTokens() + usage.outputTokens() > 0;
            else usd += d;
        }

        @Override
        public synchronized boolean reached() {
            return (budget.maxCostUsd() != null && usd >= budget.maxCostUsd())
                    || (budget.maxTokens() != null && tokens >= budget.maxTokens());
        }

        @Override
        public synchronized String describe() {
            StringBuilder b =
                    new StringBuilder(Budget.spentAgainst(usd, budget.maxCostUsd(), tokens, budget.maxTokens()));
            if (unpriced && budget.maxCostUsd() != null) b.append(" (a call had no price and counts no dollars)");
            return b.toString();
        }
    }
}
