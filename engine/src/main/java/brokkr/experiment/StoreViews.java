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
    private static String iso(StoreDialect d, String millis) {
        if (d == StoreDialect.POSTGRESQL)
            return "CASE WHEN " + millis + " IS NOT NULL THEN to_char(TIMESTAMP '1970-01-01' + (" + millis
                    + ") * INTERVAL '1 millisecond', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') END";
        return "CASE WHEN " + millis + " IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%S', " + millis
                + " / 1000, 'unixepoch') || printf('.%03dZ', " + millis + " % 1000) END";
    }

    /** A condition as 0/1 (SQLite's comparisons are already integers; PostgreSQL's are booleans). */
    private static String bit(StoreDialect d, String condition) {
        return d == StoreDialect.SQLITE ? condition : "(CASE WHEN " + condition + " THEN 1 ELSE 0 END)";
    }

    /** Concatenation of a group's values. */
    private static String concat(StoreDialect d, String expr, String separator) {
        return d == StoreDialect.SQLITE
                ? "group_concat(" + expr + (separator == null ? "" : ", '" + separator + "'") + ")"
                : "string_agg(" + expr + ", '" + (separator == null ? "," : separator) + "')";
    }

    /** The elements of the JSON list in {@code column} as rows {@code j(value, key)}, key counted from 0. */
    private static String elements(StoreDialect d, String column) {
        return d == StoreDialect.SQLITE
                ? "json_each(" + column + ") j"
                : "LATERAL (SELECT e.value, e.ordinality - 1 AS key FROM jsonb_array_elements(" + column
                        + "::jsonb) WITH ORDINALITY e(value, ordinality)) j";
    }

    /** A check's name ({@code [name, passed]}'s first element). */
    private static String checkName(StoreDialect d) {
        return d == StoreDialect.SQLITE ? "json_extract(j.value, '$[0]')" : "(j.value ->> 0)";
    }

    /** Whether a check passed, as a condition. */
    private static String checkPassed(StoreDialect d) {
        return d == StoreDialect.SQLITE ? "json_extract(j.value, '$[1]')" : "(j.value -> 1)::boolean";
    }

    private static final String CELL_OF_ATTEMPT =
            "c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition";

    /** The views of an SQLite store in creation order: name → SELECT. */
    static final Map<String, String> VIEWS = views(StoreDialect.SQLITE);

    /** The views in creation order, in {@code d}: name → SELECT (the same columns, rows and values in both). */
    static Map<String, String> views(StoreDialect d) {
        String success = bit(d, "abs(a.reward - 1.0) <= 1e-6");
        if (d == StoreDialect.SQLITE) success = "(abs(a.reward - 1.0) <= 1e-6)";
        String name = checkName(d), passed = checkPassed(d);
        Map<String, String> v = new LinkedHashMap<>();
        v.put("attempts_v", """
                SELECT a.id AS attempt_id, c.benchmark, c.candidate, a.task_id, a.repetition, a.repetition + 1 AS trial,
                  a.status, a.reward, CASE WHEN a.status = 'completed' THEN %s END AS success, lower(a.trust) AS trust,
                  (SELECT %s
                     FROM %s) AS checks,
                  CASE WHEN a.status = 'completed' THEN coalesce((SELECT %s
                     FROM %s WHERE NOT %s), '') END AS failed_checks,
                  a.error, %s AS started_at, %s AS finished_at, a.duration_ms, a.input_tokens, a.output_tokens,
                  c.active, %s AS provider, %s AS model,
                  a.env_id, a.agent_id
                FROM attempt a JOIN cell c ON %s LEFT JOIN agent_def g ON g.id = a.agent_id""".formatted(
                        success,
                        concat(d, name + " || '=' || CASE WHEN " + passed + " THEN 'pass' ELSE 'fail' END", ", "),
                        elements(d, "a.checks_json"),
                        concat(d, name, ","),
                        elements(d, "a.checks_json"),
                        passed,
                        iso(d, "a.started_at"),
                        iso(d, "(a.started_at + a.duration_ms)"),
                        d.jsonText("g.json", "provider"),
                        d.jsonText("g.json", "model"),
                        CELL_OF_ATTEMPT));
        v.put("checks_v", """
                SELECT a.id AS attempt_id, c.benchmark, c.candidate, a.task_id, a.repetition + 1 AS trial, c.active,
                  CAST(j.key AS INTEGER) + 1 AS position, %s AS check_name, %s AS passed
                FROM attempt a JOIN cell c ON %s JOIN %s%s""".formatted(
                        name,
                        d == StoreDialect.SQLITE ? passed : bit(d, passed),
                        CELL_OF_ATTEMPT,
                        elements(d, "a.checks_json"),
                        d == StoreDialect.SQLITE ? "" : " ON true"));
        v.put("cells_v", """
                SELECT c.benchmark, c.candidate, c.task_id, c.repetition, c.repetition + 1 AS trial, c.active, c.ordinal,
                  CASE WHEN coalesce(sum(%s), 0) > 0 THEN 'completed'
                       WHEN count(a.id) > 0 THEN 'infrastructure_failure' ELSE 'not_run' END AS status,
                  count(a.id) AS attempts, coalesce(sum(%s), 0) AS infra_failures,
                  max(CASE WHEN a.status = 'completed' THEN a.reward END) AS reward,
                  max(CASE WHEN a.status = 'completed' THEN %s END) AS success,
                  %s AS last_attempt_at, c.env_id, c.agent_id
                FROM cell c LEFT JOIN attempt a ON %s
                GROUP BY c.env_id, c.agent_id, c.repetition""".formatted(
                        bit(d, "a.status = 'completed'"),
                        bit(d, "a.status = 'infrastructure_failure'"),
                        success,
                        iso(d, "max(a.started_at + a.duration_ms)"),
                        CELL_OF_ATTEMPT));
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
                FROM g ORDER BY g.ordinal""".formatted(success, CELL_OF_ATTEMPT));
        v.put("agents_v", """
                SELECT d.id AS agent_id, (SELECT %s FROM cell c WHERE c.agent_id = d.id) AS candidates,
                  %s AS provider, %s AS model,
                  %s AS action_space, %s AS options_json,
                  %s AS system_prompt_sha256
                FROM agent_def d""".formatted(
                        concat(d, "DISTINCT c.candidate", null),
                        d.jsonText("d.json", "provider"),
                        d.jsonText("d.json", "model"),
                        d.jsonText("d.json", "action_space"),
                        d.jsonText("d.json", "options"),
                        d.jsonText("d.json", "system_prompt_sha256")));
        v.put("environments_v", """
                SELECT e.id AS env_id, e.benchmark, e.task_id, %s AS upstream_revision,
                  %s AS options_json, %s AS models_json,
                  %s AS data_digests_json
                FROM environment_def e""".formatted(
                        d.jsonText("e.json", "upstream_revision"),
                        d.jsonText("e.json", "options"),
                        d.jsonText("e.json", "models"),
                        d.jsonText("e.json", "data_digests")));
        return v;
    }

    /** A digest of the views' definitions in {@code d}: a PostgreSQL store records it to know when to replace them. */
    static String digest(StoreDialect d) {
        return brokkr.eval.ContentHash.sha256(String.join("\n;\n", views(d).values()));
    }

    /**
     * Creates each view, or replaces one whose stored definition differs (on the writer's connection, in its set-up
     * transaction). PostgreSQL keeps a view's definition in its own normalized form, so there every view is
     * replaced (the caller does so only when {@link #digest} differs from the one the store recorded).
     */
    static void create(Statement s, StoreDialect d) throws SQLException {
        if (d == StoreDialect.POSTGRESQL) {
            for (String name : VIEWS.keySet()) s.execute("DROP VIEW IF EXISTS " + name);
            for (var e : views(d).entrySet()) s.execute("CREATE VIEW " + e.getKey() + " AS\n" + e.getValue());
            return;
        }
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
