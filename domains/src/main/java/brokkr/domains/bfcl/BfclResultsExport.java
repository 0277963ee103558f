package brokkr.domains.bfcl;

import brokkr.cost.PriceTable;
import brokkr.cost.RoleSpend;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.Registry;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.python.PyJson;
import brokkr.python.PyRepr;
import brokkr.python.PyRound;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An experiment's BFCL attempts in gorilla's own layout (commit 6ea5797, {@code bfcl_eval}), so a Brokkr run and
 * upstream's can be diffed file by file:
 * <ul>
 *   <li>{@code result/MODEL/GROUP/BFCL_v4_CATEGORY_result.json} per candidate, as
 *       {@code BaseHandler.write} writes them ({@code model_handler/base_handler.py}): one {@code json.dumps(entry)}
 *       line per task, sorted by upstream's {@code sort_key}, GROUP {@code non_live} or {@code live}
 *       ({@code utils.get_directory_structure_by_id}); an entry is {@code {"id", "result", "input_token_count",
 *       "output_token_count", "latency"}} with {@code result} as upstream's function-calling handlers give it
 *       ({@code [{name: arguments_json}]} per tool call, the text when the model called none) and
 *       {@code "Error during inference: ..."} for an attempt without a verdict
 *       ({@code _llm_response_generation.multi_threaded_inference});</li>
 *   <li>{@code score/data_overall.csv}, {@code data_non_live.csv}, {@code data_live.csv} with upstream's columns
 *       and aggregation ({@code eval_checker/eval_runner_helper.generate_leaderboard_csv}): per category correct /
 *       entries of the result file, categories not run "N/A", percentages
 *       {@code "{:.2f}%"}, rows ranked by the sort column. Total Cost ($) is the candidate's tokens at the price
 *       table ({@link brokkr.cost.PriceTable}), "N/A" without a price; latency
 *       statistics are over the candidate's model-call time per task. One deliberate difference: upstream scores a
 *       category not run as 0 in every aggregate ({@code get_category_score}, "it will still be considered 0 in the
 *       overall score calculation"), which assumes a complete run: a gold run of a few categories would read
 *       "Overall Acc 28.33%" and "Multi Turn Acc 0.00%" for categories never run. Here an aggregate is over the
 *       categories that were run, and "N/A" when none of its categories was (issue 31 item 15); an aggregate that
 *       upstream marks "N/A" when one of its categories is missing stays "N/A". Overall Acc is upstream's only when
 *       every segment of it was run in full ({@link BfclOverall}), else "N/A", and the export's warning gives the
 *       same weights over the segments run, naming them. For a run of every category the numbers are upstream's.</li>
 * </ul>
 * One repetition per task is exported (the first with a verdict), as upstream runs each entry once.
 */
public final class BfclResultsExport {
    private BfclResultsExport() {}

    /** upstream's {@code constants/column_headers.py}. */
    public static final List<String> COLUMNS_OVERALL = List.of(
            "Rank",
            "Overall Acc",
            "Model",
            "Model Link",
            "Total Cost ($)",
            "Latency Mean (s)",
            "Latency Standard Deviation (s)",
            "Latency 95th Percentile (s)",
            "Non-Live AST Acc",
            "Non-Live Simple AST",
            "Non-Live Multiple AST",
            "Non-Live Parallel AST",
            "Non-Live Parallel Multiple AST",
            "Live Acc",
            "Live Simple AST",
            "Live Multiple AST",
            "Live Parallel AST",
            "Live Parallel Multiple AST",
            "Multi Turn Acc",
            "Multi Turn Base",
            "Multi Turn Miss Func",
            "Multi Turn Miss Param",
            "Multi Turn Long Context",
            "Web Search Acc",
            "Web Search Base",
            "Web Search No Snippet",
            "Memory Acc",
            "Memory KV",
            "Memory Vector",
            "Memory Recursive Summarization",
            "Relevance Detection",
            "Irrelevance Detection",
            "Format Sensitivity Max Delta",
            "Format Sensitivity Standard Deviation",
            "Organization",
            "License");

    public static final List<String> COLUMNS_NON_LIVE = List.of(
            "Rank",
            "Model",
            "Non-Live Overall Acc",
            "AST Summary",
            "Simple AST",
            "Python Simple AST",
            "Java Simple AST",
            "JavaScript Simple AST",
            "Multiple AST",
            "Parallel AST",
            "Parallel Multiple AST",
            "Irrelevance Detection");
    public static final List<String> COLUMNS_LIVE = List.of(
            "Rank",
            "Model",
            "Live Overall Acc",
            "AST Summary",
            "Python Simple AST",
            "Python Multiple AST",
            "Python Parallel AST",
            "Python Parallel Multiple AST",
            "Irrelevance Detection",
            "Relevance Detection");

    private static final String NA = "N/A";

    /**
     * The files to write, by path relative to the export directory, in writing order; what to say of some of them
     * (by path: a {@code harness: claude-code} candidate's files are a custom submission).
     */
    public record Export(Map<String, String> files, List<String> candidates, Map<String, List<String>> warnings) {}

    /**
     * What the score row ({@code Model} column) of a {@code harness: claude-code} candidate says after its name, as
     * upstream's leaderboard names a model's mode after it ({@code "(FC)"}, {@code "(Prompt)"}): the Claude Code CLI
     * ran its own agent loop, so the row is not one of upstream's handlers.
     */
    public static final String CUSTOM_MODEL_SUFFIX = " (custom: Claude Code harness)";

    /** What an export of a {@code harness: claude-code} candidate says of its files. */
    public static final String CUSTOM_SUBMISSION = "harness claude-code: the Claude Code CLI ran its own agent loop "
            + "(the task's functions over MCP), so these results are a custom submission, not those of one of "
            + "upstream's model handlers; the score row's Model says" + CUSTOM_MODEL_SUFFIX;

    /**
     * The {@code bfcl} cells of an experiment's active cells (each with the attempt standing for it:
     * {@link brokkr.family.StoredResults#read}) as upstream's result and score files.
     */
    public static Export export(List<ResultCell> cells, Registry registry) {
        return export(cells, registry, PriceTable.standard());
    }

    /** As {@link #export(List, Registry)}, the Total Cost ($) at {@code prices}. */
    public static Export export(List<ResultCell> cells, Registry registry, PriceTable prices) {
        BfclBenchmark bench = (BfclBenchmark) registry.benchmark("bfcl");
        Map<String, String> files = new LinkedHashMap<>();
        Map<String, Map<BfclCategory, List<Entry>>> byCandidate = new LinkedHashMap<>();
        Map<String, Set<String>> seen = new LinkedHashMap<>();
        Set<String> custom = new HashSet<>();
        List<ResultCell> ours = new ArrayList<>(
                cells.stream().filter(c -> c.benchmark().equals("bfcl")).toList());
        ours.sort(Comparator.comparingInt(ResultCell::repetition));
        for (ResultCell c : ours) {
            Attempt a = c.attempt();
            if (a == null) continue;
            Set<String> tasks = seen.computeIfAbsent(c.candidate(), k -> new HashSet<>());
            if (!tasks.add(c.taskId())) continue; // one entry per task: the first repetition with an attempt
            // format_sensitivity's result file (upstream ids "format_sensitivity_i:config:entry") is not written yet.
            if (c.environment().options().get("category").asStr().equals(FormatSensitivity.CATEGORY)) continue;
            if (brokkr.repl.Harness.fromValue(c.agent().harness()).claudeCode()) custom.add(c.candidate());
            BfclCategory category =
                    BfclCategory.of(c.environment().options().get("category").asStr());
            byCandidate
                    .computeIfAbsent(c.candidate(), k -> new EnumMap<>(BfclCategory.class))
                    .computeIfAbsent(category, k -> new ArrayList<>())
                    .add(entry(c.taskId(), a, prices));
        }
        List<Row> rows = new ArrayList<>();
        List<String> overallNotes = new ArrayList<>();
        // A result directory per candidate (result/MODEL/) that no other candidate's takes.
        Map<String, String> models = ResultFormat.fileNames(byCandidate.keySet());
        Map<String, List<String>> warnings = new LinkedHashMap<>();
        for (var e : byCandidate.entrySet()) {
            String model = models.get(e.getKey());
            boolean isCustom = custom.contains(e.getKey());
            for (var ce : e.getValue().entrySet()) {
                List<Entry> entries = new ArrayList<>(ce.getValue());
                entries.sort(Comparator.comparingLong(x -> sortKey(x.id())));
                StringBuilder sb = new StringBuilder();
                for (Entry x : entries) sb.append(PyJson.dumps(x.json())).append('\n');
                String group = ce.getKey().live() ? "live" : "non_live";
                String path = "result/" + model + "/" + group + "/BFCL_v4_"
                        + ce.getKey().id() + "_result.json";
                files.put(path, sb.toString());
                if (isCustom) warnings.put(path, List.of(CUSTOM_SUBMISSION));
            }
            Row row = row(isCustom ? e.getKey() + CUSTOM_MODEL_SUFFIX : e.getKey(), e.getValue(), bench);
            rows.add(row);
            if (row.overallNote() != null) overallNotes.add(row.overallNote());
        }
        files.put(
                "score/data_overall.csv",
                csv(COLUMNS_OVERALL, rows.stream().map(Row::overall).toList(), 1, List.of(4, 5, 6, 7, 32, 33)));
        files.put(
                "score/data_non_live.csv",
                csv(COLUMNS_NON_LIVE, rows.stream().map(Row::nonLive).toList(), 2, List.of()));
        files.put(
                "score/data_live.csv",
                csv(COLUMNS_LIVE, rows.stream().map(Row::live).toList(), 2, List.of()));
        if (!custom.isEmpty())
            for (String score : List.of("score/data_overall.csv", "score/data_non_live.csv", "score/data_live.csv"))
                warnings.put(score, List.of(CUSTOM_SUBMISSION));
        if (!overallNotes.isEmpty()) {
            List<String> w = new ArrayList<>(warnings.getOrDefault("score/data_overall.csv", List.of()));
            w.addAll(overallNotes);
            warnings.put("score/data_overall.csv", w);
        }
        return new Export(files, List.copyOf(byCandidate.keySet()), warnings);
    }

    /**
     * One result-file entry, whether the checker passed it, its model-call latency in seconds (0: none), and what its
     * agent's tokens cost at the price table (0 without tokens, NaN when they have no price).
     */
    record Entry(String id, PyDict json, boolean correct, double latency, double usd) {}

    static Entry entry(String id, Attempt a, PriceTable prices) {
        Evidence e = a.evidence();
        long millis = 0;
        for (Evidence.RecordedCall rc : e.modelCalls())
            if (rc.role().equals(Evidence.AGENT)) millis += rc.call().durationMillis();
        double latency = millis / 1000.0;
        PyDict.Builder b = PyDict.builder().put("id", id);
        if (!a.completed()) {
            b.put("result", "Error during inference: " + (a.error() == null ? "no verdict" : a.error()));
        } else {
            b.put("result", result(e.transcript()));
            b.put("input_token_count", e.agentUsage().inputTokens())
                    .put("output_token_count", e.agentUsage().outputTokens());
            b.put("latency", new PyFloat(latency));
        }
        double usd = 0;
        if (a.completed())
            for (RoleSpend r : RoleSpend.of(e))
                if (r.role().equals(Evidence.AGENT)
                        && r.usage().inputTokens() + r.usage().outputTokens() > 0) usd = r.usd(prices);
        return new Entry(id, b.build(), a.completed() && a.reward() == 1.0, latency, usd);
    }

    /** Upstream's FC handlers' {@code model_responses}: {@code [{name: arguments}]} of the last assistant message's calls, else its text. */
    static Value result(Value transcript) {
        PyDict last = null;
        if (transcript instanceof PyList l)
            for (Value m : l)
                if (m instanceof PyDict d
                        && d.get("role") instanceof PyStr r
                        && r.value().equals("assistant")) last = d;
        if (last == null) return new PyStr("");
        if (last.get("tool_calls") instanceof PyList calls && !calls.isEmpty()) {
            List<Value> out = new ArrayList<>();
            for (Value cv : calls) {
                PyDict c = cv.asDict();
                String args = c.get("raw_arguments") instanceof PyStr raw
                        ? raw.value()
                        : PyJson.dumps(c.get("arguments") == null ? PyDict.empty() : c.get("arguments"));
                out.add(PyDict.of(c.get("name").asStr(), args));
            }
            return PyList.of(out);
        }
        return last.get("content") instanceof PyStr s ? s : new PyStr("");
    }

    /** Upstream's {@code sort_key}: the universal index after the category ({@code live_simple_19-3-15} → 19). */
    public static long sortKey(String id) {
        String base = id.split(":")[0];
        String idx = base.substring(base.lastIndexOf('_') + 1);
        int dash = idx.indexOf('-');
        try {
            return Long.parseLong(dash < 0 ? idx : idx.substring(0, dash));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * {@code {"accuracy", "total_count", "display_accuracy"}} of upstream; {@code display} null for "N/A";
     * {@code ran}: some category under it was run (only those enter an aggregate's accuracy).
     */
    record Score(double accuracy, int total, Double display, boolean ran) {
        Score(double accuracy, int total, Double display) {
            this(accuracy, total, display, display != null);
        }
    }

    /** A candidate's rows of the three files, and what its export says of its Overall Acc (null: nothing). */
    record Row(List<Object> overall, List<Object> nonLive, List<Object> live, String overallNote) {}

    private static Row row(String model, Map<BfclCategory, List<Entry>> cats, BfclBenchmark bench) {
        Map<String, Score> s = new LinkedHashMap<>();
        for (BfclCategory c : BfclCategory.values()) {
            List<Entry> es = cats.get(c);
            if (es == null) {
                s.put(c.id(), new Score(0, bench.tasks(c.id()).size(), null));
            } else {
                double acc = (double) es.stream().filter(Entry::correct).count() / es.size();
                s.put(c.id(), new Score(acc, es.size(), acc));
            }
        }
        // Categories Brokkr does not run: always "N/A"; their sizes enter only unweighted means, where they do not
        // count.
        Score absent = new Score(0, 0, null);
        Score simple = unweighted(List.of(s.get("simple_python"), absent, absent), true);
        Score multiple = s.get("multiple"), parallel = s.get("parallel"), parallelMultiple = s.get("parallel_multiple");
        Score summaryNonLive = unweighted(List.of(simple, multiple, parallel, parallelMultiple), true);
        Score overallNonLive = unweighted(List.of(simple, multiple, parallel, parallelMultiple), false);
        List<Score> liveAst = List.of(
                s.get("live_simple"), s.get("live_multiple"), s.get("live_parallel"), s.get("live_parallel_multiple"));
        Score summaryLive = weighted(liveAst, true), overallLive = weighted(liveAst, false);
        Score multiTurn = unweighted(List.of(absent, absent, absent, absent), false);
        Score webSearch = unweighted(List.of(absent, absent), true),
                memory = unweighted(List.of(absent, absent, absent), true);
        Score agentic = unweighted(List.of(webSearch, memory), false);
        Score irrelevance = unweighted(List.of(s.get("irrelevance"), s.get("live_irrelevance")), true);
        Score relevance = s.get("live_relevance");
        // Upstream's overall only when every segment was run in full (BfclOverall): over a partial run upstream counts
        // the categories not run as 0, and the segments run are a different score, said in the export's warning.
        Map<String, BfclOverall.Category> ran = new LinkedHashMap<>();
        cats.forEach((c, es) -> ran.put(
                c.id(),
                new BfclOverall.Category(
                        (double) es.stream().filter(Entry::correct).count() / es.size(), es.size())));
        BfclOverall o = BfclOverall.of(ran);
        Object total = o.upstream() == null ? NA : o.upstream();
        String note = o.upstream() != null
                ? null
                : model + ": Overall Acc is N/A: upstream's overall weighs non-live 10%, live 10%, irrelevance 10%, "
                        + "multi-turn 30%, agentic 40%, and " + String.join(", ", o.notRun())
                        + " were not run in full (upstream would count their categories as 0)"
                        + (o.ofSegmentsRun() == null
                                ? ""
                                : "; over the segments run (" + o.covers() + ") it is "
                                        + new BigDecimal(o.ofSegmentsRun() * 100)
                                                .setScale(2, RoundingMode.HALF_EVEN)
                                                .toPlainString()
                                        + "%");
        Object[] latency = latency(cats);
        List<Object> overall = new ArrayList<>(Arrays.asList(
                "N/A",
                total,
                model,
                NA,
                cost(cats),
                latency[0],
                latency[1],
                latency[2],
                d(summaryNonLive),
                d(simple),
                d(multiple),
                d(parallel),
                d(parallelMultiple),
                d(overallLive),
                d(s.get("live_simple")),
                d(s.get("live_multiple")),
                d(s.get("live_parallel")),
                d(s.get("live_parallel_multiple")),
                d(multiTurn),
                NA,
                NA,
                NA,
                NA,
                d(webSearch),
                NA,
                NA,
                d(memory),
                NA,
                NA,
                NA,
                d(relevance),
                d(irrelevance),
                NA,
                NA,
                NA,
                NA));
        List<Object> nonLive = new ArrayList<>(Arrays.asList(
                "N/A",
                model,
                d(overallNonLive),
                d(summaryNonLive),
                d(simple),
                d(s.get("simple_python")),
                NA,
                NA,
                d(multiple),
                d(parallel),
                d(parallelMultiple),
                d(s.get("irrelevance"))));
        List<Object> live = new ArrayList<>(Arrays.asList(
                "N/A",
                model,
                d(overallLive),
                d(summaryLive),
                d(s.get("live_simple")),
                d(s.get("live_multiple")),
                d(s.get("live_parallel")),
                d(s.get("live_parallel_multiple")),
                d(s.get("live_irrelevance")),
                d(relevance)));
        return new Row(overall, nonLive, live, note);
    }

    /**
     * {@code get_cost_latency_info}'s Total Cost ($): the candidate's tokens at its model's price, rounded to 2, over
     * the entries with tokens (cache reads and writes at the cache's prices: {@link brokkr.cost.Price#usd}); "N/A"
     * when no entry has tokens or one has no price, never 0 for an unpriced model.
     */
    private static Object cost(Map<BfclCategory, List<Entry>> cats) {
        double usd = 0;
        boolean any = false;
        for (List<Entry> es : cats.values())
            for (Entry e : es) {
                if (Double.isNaN(e.usd())) return NA;
                if (e.usd() == 0) continue;
                usd += e.usd();
                any = true;
            }
        return any ? (Object) PyRound.round(usd, 2) : NA;
    }

    private static Object d(Score s) {
        return s.display() == null ? NA : s.display();
    }

    /** {@code calculate_weighted_accuracy}, over the categories that were run (upstream: every one, missing ones as 0). */
    private static Score weighted(List<Score> xs, boolean naIfMissing) {
        int total = 0;
        double acc = 0;
        boolean na = false;
        for (Score x : xs) {
            na |= x.display() == null;
            if (!x.ran()) continue;
            total += x.total();
            acc += x.accuracy() * x.total();
        }
        return aggregate(total == 0 ? 0 : acc / total, total, na && naIfMissing);
    }

    /** {@code calculate_unweighted_accuracy}, over the categories that were run (upstream: every one, missing ones as 0). */
    private static Score unweighted(List<Score> xs, boolean naIfMissing) {
        int total = 0, ran = 0;
        double acc = 0;
        boolean na = false;
        for (Score x : xs) {
            na |= x.display() == null;
            if (!x.ran()) continue;
            ran++;
            total += x.total();
            acc += x.accuracy();
        }
        return aggregate(ran == 0 ? 0 : acc / ran, total, na && naIfMissing);
    }

    /** An aggregate of {@code total} entries: "N/A" when asked to be, or when none of its categories was run. */
    private static Score aggregate(double accuracy, int total, boolean na) {
        boolean ran = total > 0;
        return new Score(accuracy, total, na || !ran ? null : accuracy, ran);
    }

    /** {@code get_cost_latency_info}'s latency mean, stdev and 95th percentile (non-zero latencies), rounded to 2; "N/A" without. */
    private static Object[] latency(Map<BfclCategory, List<Entry>> cats) {
        List<Double> xs = new ArrayList<>();
        for (List<Entry> es : cats.values()) for (Entry e : es) if (e.latency() != 0) xs.add(e.latency());
        if (xs.isEmpty()) return new Object[] {NA, NA, NA};
        // statistics.stdev needs two values; upstream raises with one.
        Object sd = xs.size() < 2 ? NA : (Object) PyRound.round(stdev(xs), 2);
        return new Object[] {PyRound.round(mean(xs), 2), sd, PyRound.round(percentile95(xs), 2)};
    }

    /** {@code statistics.mean}: the exact mean, rounded once. */
    static double mean(List<Double> xs) {
        BigDecimal sum = BigDecimal.ZERO;
        for (double x : xs) sum = sum.add(new BigDecimal(x));
        return sum.divide(BigDecimal.valueOf(xs.size()), new MathContext(60)).doubleValue();
    }

    /** {@code statistics.stdev}: the sample standard deviation from exact sums, rounded once. */
    static double stdev(List<Double> xs) {
        MathContext mc = new MathContext(60);
        BigDecimal n = BigDecimal.valueOf(xs.size()), sum = BigDecimal.ZERO;
        for (double x : xs) sum = sum.add(new BigDecimal(x));
        BigDecimal m = sum.divide(n, mc), ss = BigDecimal.ZERO;
        for (double x : xs) {
            BigDecimal dx = new BigDecimal(x).subtract(m);
            ss = ss.add(dx.multiply(dx));
        }
        return ss.divide(n.subtract(BigDecimal.ONE), mc).sqrt(mc).doubleValue();
    }

    /** {@code np.percentile(xs, 95)}, method linear, with numpy's {@code _lerp}. */
    static double percentile95(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double virtual = 0.95 * (a.length - 1);
        int lo = (int) Math.floor(virtual);
        int hi = Math.min(lo + 1, a.length - 1);
        double t = virtual - lo, x = a[lo], y = a[hi], diff = y - x;
        return t >= 0.5 ? y - diff * (1 - t) : x + diff * t;
    }

    /** {@code write_score_csv_file}: rows sorted descending by a column ("N/A" last), ranked from 1, numbers as percentages. */
    static String csv(List<String> header, List<List<Object>> rows, int sortColumn, List<Integer> plainNumbers) {
        List<List<Object>> data = new ArrayList<>();
        for (List<Object> r : rows) data.add(new ArrayList<>(r));
        data.sort(Comparator.comparingDouble((List<Object> r) -> r.get(sortColumn) instanceof Double v ? v : -1)
                .reversed());
        List<String> lines = new ArrayList<>();
        lines.add(String.join(",", header));
        for (int i = 0; i < data.size(); i++) {
            List<Object> r = data.get(i);
            List<String> cells = new ArrayList<>();
            cells.add(Integer.toString(i + 1));
            for (int j = 1; j < r.size(); j++) {
                Object v = r.get(j);
                if (v instanceof String str) cells.add(str);
                else if (plainNumbers.contains(j)) cells.add(PyRepr.str(new PyFloat((Double) v)));
                else
                    cells.add(new BigDecimal((Double) v * 100)
                                    .setScale(2, RoundingMode.HALF_EVEN)
                                    .toPlainString() + "%");
            }
            lines.add(String.join(",", cells));
        }
        return String.join("\n", lines);
    }
}
