package brokkr.domains.bfcl;

import java.util.List;

/**
 * The single-turn categories in scope, in upstream's order: the eleven Python ones and simple_java /
 * simple_javascript, whose parameters are Java / JavaScript source text ({@code language}: how the
 * checker converts them and what the model's docs say). {@code relevance} marks the categories graded
 * by "is there a call" (no possible-answer file); {@code live} the user-contributed ones.
 */
public enum BfclCategory {
    SIMPLE_PYTHON("simple_python", false, false),
    SIMPLE_JAVA("simple_java", false, false, AstChecker.Language.JAVA),
    SIMPLE_JAVASCRIPT("simple_javascript", false, false, AstChecker.Language.JAVASCRIPT),
    MULTIPLE("multiple", false, false),
    PARALLEL("parallel", false, false),
    PARALLEL_MULTIPLE("parallel_multiple", false, false),
    IRRELEVANCE("irrelevance", true, false),
    LIVE_SIMPLE("live_simple", false, true),
    LIVE_MULTIPLE("live_multiple", false, true),
    LIVE_PARALLEL("live_parallel", false, true),
    LIVE_PARALLEL_MULTIPLE("live_parallel_multiple", false, true),
    LIVE_IRRELEVANCE("live_irrelevance", true, true),
    LIVE_RELEVANCE("live_relevance", true, true);

    private final String id;
    private final boolean relevance;
    private final boolean live;
    private final AstChecker.Language language;

    BfclCategory(String id, boolean relevance, boolean live) {
        this(id, relevance, live, AstChecker.Language.PYTHON);
    }

    BfclCategory(String id, boolean relevance, boolean live, AstChecker.Language language) {
        this.id = id;
        this.relevance = relevance;
        this.live = live;
        this.language = language;
    }

    /** The language the checker reads the parameters in (ast_file_runner picks it by category). */
    public AstChecker.Language language() {
        return language;
    }

    public String id() {
        return id;
    }

    public boolean relevance() {
        return relevance;
    }

    public boolean live() {
        return live;
    }
    /** Whether a call is expected (relevance and every AST category) rather than none (irrelevance). */
    public boolean expectsCall() {
        return !id.contains("irrelevance");
    }

    /** Upstream's question file, relative to the data directory. */
    public String questionFile() {
        return "BFCL_v4_" + id + ".json";
    }

    /** Upstream's possible-answer file (AST categories only). */
    public String answerFile() {
        return "possible_answer/BFCL_v4_" + id + ".json";
    }

    public static BfclCategory of(String id) {
        for (BfclCategory c : values()) if (c.id.equals(id)) return c;
        throw new IllegalArgumentException("unknown BFCL category '" + id + "' (known: " + ids() + ")");
    }

    public static List<String> ids() {
        return java.util.Arrays.stream(values()).map(BfclCategory::id).toList();
    }
}
