package brokkr.domains.bfcl;

import brokkr.eval.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's accuracy per category and a summary that is the unweighted mean of the categories' accuracies (as
 * {@code eval_runner_helper}'s {@code summary_*} columns are), null until every category was run: the one report
 * of the BFCL parts whose tasks carry the option {@code category} (multi-turn, memory, web search). Infrastructure
 * failures are left out (no verdict).
 */
public final class CategoryAccuracy {
    private CategoryAccuracy() {}

    /** The report over {@code categories}, in their order; {@code figure} names the summary. */
    public static Report report(
            String title, List<String> categories, List<Report.Outcome> outcomes, String figure, String note) {
        Map<String, int[]> byCategory = new LinkedHashMap<>();
        for (String c : categories) byCategory.put(c, new int[2]);
        for (Report.Outcome o : outcomes) {
            if (!o.attempt().completed()) continue;
            int[] n = byCategory.get(o.environment().options().get("category").asStr());
            n[0]++;
            if (o.attempt().success()) n[1]++;
        }
        List<List<Object>> rows = new ArrayList<>();
        double sum = 0;
        boolean all = true;
        for (Map.Entry<String, int[]> e : byCategory.entrySet()) {
            int[] n = e.getValue();
            Double acc = n[0] == 0 ? null : (double) n[1] / n[0];
            if (acc == null) all = false;
            else sum += acc;
            rows.add(new ArrayList<>(Arrays.asList(e.getKey(), n[0], n[1], acc)));
        }
        return new Report(
                title,
                List.of("category", "tasks", "valid", "accuracy"),
                rows,
                List.of(new Report.Figure(figure, all ? sum / byCategory.size() : null)),
                List.of(note));
    }
}
