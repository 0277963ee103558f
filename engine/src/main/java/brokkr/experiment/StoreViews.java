package brokkr.experiment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SQL views that make an experiment store readable from any SQL tool ({@code sqlite3}, DB Browser,
 * pandas): attempts with their candidate and task, readable UTC timestamps and checks flattened; one
 * row per check; one row per cell with its state; the scorecard's first columns; the candidates' and
 * tasks' definitions. Only the writer creates them (schema version 3), inside its set-up transaction,
 * and only when a definition differs from the stored one, so opening a store for a run does not
 * touch its schema otherwise; readers never do (a version-1 or -2 store read as it is has none until
 * a run opens it). Brokkr itself reads the tables, never these views.
 *
 * <p>Conventions: {@code trial} is {@code repetition + 1} (trials are counted from 1 wherever a person
 * reads them; the tables keep the repetition from 0); timestamps are ISO 8601 UTC text with
 * milliseconds ({@code 2025-06-01T12:00:00.123Z}); booleans are 0/1; a success is a completed attempt
 * with reward within 1e-6 of 1, as upstream tau2's {@code is_successful}.
 */
final class StoreViews {
    private StoreViews() {}

    /** Milliseconds since the epoch as ISO 8601 UTC text, exact to the millisecond. */
    private static String iso(String millis) {
        return "CASE WHEN " + millis + " IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%S', " + millis
                + " / 1000, 'unixepoch') || printf('.%03dZ', " + millis + " % 1000) END";
    }

    private static final String SUCCESS = "(abs(a.reward - 1.0) <= 1e-6)";
    private static final String CELL_OF_ATTEMPT =
            "c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition";

    /** The views in creation order: name → SELECT. */
    static final Map<String, String> VIEWS = views();

    private static Map<String, String> views() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("attempts_v", """
                SELECT a.id AS attempt_id, c.benchmark, c.candidate, a.task_id, a.repetition, a.repetition + 1 AS trial,
                  a.status, a.reward, CASE WHEN a.status = 'completed' THEN %s END AS success, lower(a.trust) AS trust,
                  (SELECT group_concat(json_extract(j.value, '$[0]') || '=' || CASE WHEN json_extract(j.value, '$[1]') THEN 'pass' ELSE 'fail' END, ', ')
                     FROM json_each(a.checks_json) j) AS checks,
                  CASE WHEN a.status = 'completed' THEN coalesce((SELECT group_concat(json_extract(j.value, '$[0]'), ',')
                     FROM json_each(a.checks_json) j WHERE NOT json_extract(j.value, '$[1]')), '') END AS failed_checks,
                  a.error, %s AS started_at, %s AS finished_at, a.duration_ms, a.input_tokens, a.output_tokens,
                  c.active, json_extract(g.json, '$.provider') AS provider, json_extract(g.json, '$.model') AS model,
                  a.env_id, a.agent_id
                FROM attempt a JOIN cell c ON %s LEFT JOIN agent_def g ON g.id = a.agent_id""".formatted(
                        SUCCESS, iso("a.started_at"), iso("(a.started_at + a.duration_ms)"), CELL_OF_ATTEMPT));
        v.put("checks_v", """
                SELECT a.id AS attempt_id, c.benchmark, c.candidate, a.task_id, a.repetition + 1 AS trial, c.active,
                  CAST(j.key AS INTEGER) + 1 AS position, json_extract(j.value, '$[0]') AS check_name, json_extract(j.value, '$[1]') AS passed
                FROM attempt a JOIN cell c ON %s JOIN json_each(a.checks_json) j""".formatted(CELL_OF_ATTEMPT));
        v.put("cells_v", """
                SELECT c.benchmark, c.candidate, c.task_id, c.repetition, c.repetition + 1 AS trial, c.active, c.ordinal,
                  CASE WHEN coalesce(sum(a.status = 'completed'), 0) > 0 THEN 'completed'
                       WHEN count(a.id) > 0 THEN 'infrastructure_failure' ELSE 'not_run' END AS status,
                  count(a.id) AS attempts, coalesce(sum(a.status = 'infrastructure_failure'), 0) AS infra_failures,
                  max(CASE WHEN a.status = 'completed' THEN a.reward END) AS reward,
                  max(CASE WHEN a.status = 'completed' THEN %s END) AS success,
                  %s AS last_attempt_at, c.env_id, c.agent_id
                FROM cell c LEFT JOIN attempt a ON %s
                GROUP BY c.env_id, c.agent_id, c.repetition""".formatted(SUCCESS, iso("max(a.started_at + a.duration_ms)"), CELL_OF_ATTEMPT));
        v.put("scores_v", """
                WITH g AS (SELECT benchmark, candidate, min(ordinal) AS ordinal FROM cell WHERE active = 1 GROUP BY benchmark, candidate),
                  x AS (SELECT c.benchmark, c.candidate, c.task_id, a.status, a.reward, %s AS success, a.input_tokens, a.output_tokens, a.duration_ms
                        FROM cell c JOIN attempt a ON %s WHERE c.active = 1),
                  t AS (SELECT benchmark, candidate, task_id, count(*) AS trials, sum(success) AS successes
                        FROM x WHERE status = 'completed' GROUP BY benchmark, candidate, task_id)
                SELECT g.benchmark, g.candidate,
                  (SELECT count(*) FROM t WHERE t.benchmark = g.benchmark AND t.candidate = g.candidate) AS tasks,
                  (SELECT count(*) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'completed') AS attempts,
                  (SELECT count(*) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'infrastructure_failure') AS infra_failures,
                  (SELECT avg(reward) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'completed') AS avg_reward,
                  (SELECT avg(1.0 * successes / trials) FROM t WHERE t.benchmark = g.benchmark AND t.candidate = g.candidate) AS pass_1,
                  (SELECT coalesce(sum(input_tokens), 0) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'completed') AS input_tokens,
                  (SELECT coalesce(sum(output_tokens), 0) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'completed') AS output_tokens,
                  (SELECT avg(duration_ms) FROM x WHERE x.benchmark = g.benchmark AND x.candidate = g.candidate AND x.status = 'completed') AS mean_duration_ms
                FROM g ORDER BY g.ordinal""".formatted(SUCCESS, CELL_OF_ATTEMPT));
        v.put("agents_v", """
                SELECT d.id AS agent_id, (SELECT group_concat(DISTINCT c.candidate) FROM cell c WHERE c.agent_id = d.id) AS candidates,
                  json_extract(d.json, '$.provider') AS provider, json_extract(d.json, '$.model') AS model,
                  json_extract(d.json, '$.action_space') AS action_space, json_extract(d.json, '$.options') AS options_json,
                  json_extract(d.json, '$.system_prompt_sha256') AS system_prompt_sha256
                FROM agent_def d""");
        v.put("environments_v", """
                SELECT e.id AS env_id, e.benchmark, e.task_id, json_extract(e.json, '$.upstream_revision') AS upstream_revision,
                  json_extract(e.json, '$.options') AS options_json, json_extract(e.json, '$.models') AS models_json,
                  json_extract(e.json, '$.data_digests') AS data_digests_json
                FROM environment_def e""");
        return v;
    }

    /** Creates each view, or replaces one whose stored definition differs (on the writer's connection, in its set-up transaction). */
    static void create(Statement s) throws SQLException {
        for (var e : VIEWS.entrySet()) {
            String sql = "CREATE VIEW " + e.getKey() + " AS\n" + e.getValue();
            String stored = null;
            try (ResultSet r = s.executeQuery(
                    "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = '" + e.getKey() + "'")) {
                if (r.next()) stored = r.getString(1);
            }
            if (sql.equals(stored)) continue;
            if (stored != null) s.execute("DROP VIEW " + e.getKey());
            s.execute(sql);
        }
    }
}
