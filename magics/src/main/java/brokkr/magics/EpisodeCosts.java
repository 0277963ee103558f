package brokkr.magics;

import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentStore;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What an episode costs, per candidate of an experiment, beside its scorecard: the candidate's tokens,
 * its model steps, the tool calls the protocol recorded (the domain's own calls, however the candidate
 * expressed them) and the characters its model was sent (each request as an OpenAI-compatible provider
 * would send it: what input tokens grow with; scripted models report no tokens, but they are asked what a
 * real model would be asked). Steps and sizes come from the protocol's own count where it keeps one
 * (tau2: {@code agent_model_steps}, {@code agent_request_chars}), else from the recorded model calls.
 * Completed attempts of the current cells only.
 */
public final class EpisodeCosts {
    private EpisodeCosts() {}

    /** One candidate's means per completed episode. */
    public record Row(String candidate, String harness, int episodes, double reward, double inputTokens, double outputTokens,
                      double modelSteps, double toolCalls, double requestChars) {}

    public static List<Row> rows(Path dir) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            Map<String, String> labels = new LinkedHashMap<>();
            for (ExperimentStore.Cell c : q.cells()) if (c.active()) labels.putIfAbsent(c.key().agentId(), c.candidate());
            Map<String, List<Attempt>> byAgent = new LinkedHashMap<>();
            labels.keySet().forEach(id -> byAgent.put(id, new ArrayList<>()));
            for (Attempt a : q.attempts(true)) if (a.completed() && byAgent.containsKey(a.agentId())) byAgent.get(a.agentId()).add(a);
            List<Row> rows = new ArrayList<>();
            for (var e : byAgent.entrySet()) {
                List<Attempt> as = e.getValue();
                int n = Math.max(1, as.size());
                double reward = 0, in = 0, out = 0, model = 0, tools = 0, chars = 0;
                for (Attempt a : as) {
                    Evidence ev = a.evidence();
                    reward += a.reward();
                    var u = ev.usage().get(Evidence.AGENT);
                    if (u != null) { in += u.inputTokens(); out += u.outputTokens(); }
                    if (ev.output() != null && ev.output().get("agent_model_steps") instanceof brokkr.value.PyInt steps
                            && ev.output().get("agent_request_chars") instanceof brokkr.value.PyInt size) {
                        // The protocol counted its agent's model steps and request sizes (tau2, every harness).
                        model += steps.longValue();
                        chars += size.longValue();
                    } else {
                        for (Evidence.RecordedCall rc : ev.modelCalls()) {
                            if (!rc.role().equals(Evidence.AGENT)) continue;
                            model++;
                            chars += rc.call().requestBody() == null ? 0 : rc.call().requestBody().length();
                        }
                    }
                    tools += agentToolCalls(ev.transcript());
                }
                String harness = q.agent(e.getKey()).map(d -> Harness.fromValue(d.harness()).label()).orElse("?");
                rows.add(new Row(labels.get(e.getKey()), harness, as.size(), reward / n, in / n, out / n, model / n, tools / n, chars / n));
            }
            return rows;
        }
    }

    /** Tool calls of assistant messages in a recorded transcript (tau2's and the generic shape alike). */
    static int agentToolCalls(Value transcript) {
        int n = 0;
        if (!(transcript instanceof PyList l)) return 0;
        for (Value m : l) {
            if (m instanceof PyDict d && d.get("role") instanceof PyStr r && r.value().equals("assistant") && d.get("tool_calls") instanceof PyList calls) n += calls.size();
        }
        return n;
    }

    /** The rows as a table (one per candidate). */
    public static Table table(Path dir) {
        List<Row> rows = rows(dir);
        return Table.create("cost per episode",
                StringColumn.create("candidate", rows.stream().map(Row::candidate).toList()),
                StringColumn.create("harness", rows.stream().map(Row::harness).toList()),
                IntColumn.create("episodes", rows.stream().mapToInt(Row::episodes).toArray()),
                DoubleColumn.create("avg_reward", rows.stream().mapToDouble(Row::reward).toArray()),
                DoubleColumn.create("input_tokens", rows.stream().mapToDouble(Row::inputTokens).toArray()),
                DoubleColumn.create("output_tokens", rows.stream().mapToDouble(Row::outputTokens).toArray()),
                DoubleColumn.create("model_steps", rows.stream().mapToDouble(Row::modelSteps).toArray()),
                DoubleColumn.create("tool_calls", rows.stream().mapToDouble(Row::toolCalls).toArray()),
                DoubleColumn.create("request_chars", rows.stream().mapToDouble(Row::requestChars).toArray()));
    }
}
