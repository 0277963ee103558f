package brokkr.cost;

import java.util.Locale;

/**
 * What an experiment may spend ({@code budget:} in its file): US dollars over every role's priced calls
 * ({@code max_cost_usd}) and tokens over every role's calls ({@code max_tokens}), either or both; and what
 * happens to the cells in flight when it is reached ({@code on_budget}: {@code finish} lets them end and keeps
 * their attempts, {@code cancel} abandons them). An operational setting like parallelism: no part of a cell's
 * identity, so running the experiment again with a larger budget goes on where it stopped.
 */
public record Budget(Double maxCostUsd, Long maxTokens, OnBudget onBudget) {
    public static final Budget NONE = new Budget(null, null, OnBudget.FINISH);

    /** What a reached budget does to the cells already running. */
    public enum OnBudget {
        FINISH,
        CANCEL;

        public static OnBudget parse(String s) {
            return switch (s) {
                case "finish" -> FINISH;
                case "cancel" -> CANCEL;
                default -> throw new IllegalArgumentException("on_budget must be finish or cancel, got '" + s + "'");
            };
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Budget {
        if (maxCostUsd != null && !(maxCostUsd > 0))
            throw new IllegalArgumentException("max_cost_usd must be a number > 0, got " + maxCostUsd);
        if (maxTokens != null && maxTokens <= 0)
            throw new IllegalArgumentException("max_tokens must be a whole number > 0, got " + maxTokens);
        onBudget = onBudget == null ? OnBudget.FINISH : onBudget;
    }

    public boolean limited() {
        return maxCostUsd != null || maxTokens != null;
    }

    /**
     * What was spent against which limit, in one line ({@code $0.0123 of $0.0100, 1234 of 5000 tokens}): the
     * words of both budgets, the experiment's ({@link Spending}) and a cell's ({@link CellBudget}).
     */
    static String spentAgainst(double usd, Double maxCostUsd, long tokens, Long maxTokens) {
        StringBuilder b = new StringBuilder();
        if (maxCostUsd != null) b.append(String.format(Locale.ROOT, "$%.4g of $%.4g", usd, maxCostUsd));
        if (maxTokens != null)
            b.append(b.isEmpty() ? "" : ", ")
                    .append(tokens)
                    .append(" of ")
                    .append(maxTokens)
                    .append(" tokens");
        return b.toString();
    }
}
