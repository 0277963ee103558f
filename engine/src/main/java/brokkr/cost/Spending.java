package brokkr.cost;

import brokkr.eval.Evidence;

/**
 * What a run has spent against its {@link Budget}, attempt by attempt (thread-safe: the runner's units finish
 * on their own threads): every role's tokens and priced dollars (an unpriced role adds tokens, no dollars).
 * Starts from what the experiment's store already holds, so a resumed run counts what it spent before.
 */
public final class Spending {
    private final Budget budget;
    private final PriceTable prices;
    private double usd;
    private long tokens;
    private int attempts;
    private int unpriced;

    public Spending(Budget budget, PriceTable prices) {
        this.budget = budget;
        this.prices = prices;
    }

    /** Adds one attempt's spend; true when the budget is reached (now or before). */
    public synchronized boolean add(Evidence e) {
        for (RoleSpend s : RoleSpend.of(e)) {
            tokens += s.usage().inputTokens() + s.usage().outputTokens();
            double d = s.usd(prices);
            if (Double.isNaN(d)) {
                if (s.usage().inputTokens() + s.usage().outputTokens() > 0) unpriced++;
            } else usd += d;
        }
        attempts++;
        return reached();
    }

    /** Whether the budget's dollars or tokens are spent (never, without a limit). */
    public synchronized boolean reached() {
        return (budget.maxCostUsd() != null && usd >= budget.maxCostUsd())
                || (budget.maxTokens() != null && tokens >= budget.maxTokens());
    }

    public synchronized double usd() {
        return usd;
    }

    public synchronized long tokens() {
        return tokens;
    }

    /** What was spent against which limit, in one line: {@code $0.0123 of $0.0100, 1234 of 5000 tokens}. */
    public synchronized String describe() {
        StringBuilder b = new StringBuilder(Budget.spentAgainst(usd, budget.maxCostUsd(), tokens, budget.maxTokens()));
        if (unpriced > 0 && budget.maxCostUsd() != null)
            b.append(" (").append(unpriced).append(" role calls had no price and count no dollars)");
        return b.toString();
    }
}
