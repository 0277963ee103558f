package brokkr.magics;

import brokkr.experiment.Registry;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The built-in magics, each a method reference into a {@link Session} method after argument parsing. */
public final class StandardMagics {
    private StandardMagics() {}

    public static void install(MagicRegistry r) {
        r.line("help", "%help [NAME]", "Lists the magics, or shows one magic's usage.", StandardMagics::help)
                .line(
                        "domain",
                        "%domain load NAME",
                        "Loads a domain (" + String.join(", ", Benches.names(Registry.process()))
                                + ") and shows its summary: tasks per split,"
                                + " tools, policy size, data digests verified.",
                        StandardMagics::domain)
                .line(
                        "tasks",
                        "%tasks [--split S] [TEXT]",
                        "The loaded domain's tasks (id, splits, short scenario, reward basis, gold actions), filtered by split and text.",
                        StandardMagics::tasks)
                .line("task", "%task ID", "One task: scenario, gold actions, initial world hash.", StandardMagics::task)
                .line(
                        "fork",
                        "%fork [ID]",
                        "Forks a fresh world (of task ID, else the pristine one) for %call; forks are independent.",
                        StandardMagics::fork)
                .line(
                        "call",
                        "%call TOOL {json args}",
                        "Calls a tool on the current fork: the content, the error flag and the world's structural diff.",
                        StandardMagics::call)
                .line(
                        "diff",
                        "%diff",
                        "The current fork against its parent, the world %fork made: what the calls since changed in all"
                                + " (a file tree's files, e.g. the wiki's workspace, as unified diffs).",
                        StandardMagics::diff)
                .line(
                        "run",
                        "%run --task ID --candidate C|PROVIDER:MODEL [--user PROVIDER:MODEL] [--judge PROVIDER:MODEL] [--harness loop [--action-space tools|repl] [--repl-guidance shape|compute|inspect|typed]] [--otel URL|file:PATH|off]",
                        "Runs one episode of a candidate on a task of the loaded domain on the evaluation path: a scripted candidate,"
                                + " or a model (e.g. openai:gpt-4.1; keys and base URLs from the environment) with live progress;"
                                + " tau2 needs --user and --judge models for a model candidate. --harness loop drives it by Brokkr's agent loop,"
                                + " with the JSON tools or (--action-space repl) one java_eval tool in a sandbox JVM. --otel sends the run's OpenTelemetry GenAI spans to an OTLP/HTTP endpoint or a JSON-lines file (as experiment run --otel). Shows the transcript and the grade.",
                        StandardMagics::run);
    }

    static Object help(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 1);
        if (p.positional(0) != null) {
            MagicInfo i = s.magics().info(p.positional(0));
            return new Help(List.of(i));
        }
        return new Help(s.magics().infos());
    }

    /** {@code %help}'s answer: a table of synopsis and description. */
    public record Help(List<MagicInfo> magics) implements Rich {
        public Table table() {
            return Table.create(
                    "magics",
                    StringColumn.create(
                            "usage", magics.stream().map(MagicInfo::synopsis).toList()),
                    StringColumn.create(
                            "what it does", magics.stream().map(MagicInfo::help).toList()));
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder();
            for (MagicInfo m : magics)
                sb.append(m.synopsis()).append("\n    ").append(m.help()).append('\n');
            return sb.toString().stripTrailing();
        }

        @Override
        public String html() {
            return Tables.html(table());
        }
    }

    static Object domain(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 2);
        if (!"load".equals(p.positional(0)) || p.positional(1) == null) {
            throw new MagicUsageException(
                    "expected 'load NAME' (NAME one of " + String.join(", ", Benches.names(s.registry())) + ")");
        }
        return s.domain(p.positional(1));
    }

    static Object tasks(Session s, MagicArgs a) {
        var p = a.parse(Set.of("split"), Integer.MAX_VALUE);
        String text = p.positionals().isEmpty() ? null : String.join(" ", p.positionals());
        return s.tasks(p.option("split"), text);
    }

    static Object task(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which task? give its ID");
        return s.task(p.positional(0));
    }

    static Object fork(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 1);
        return s.fork(p.positional(0));
    }

    static Object diff(Session s, MagicArgs a) {
        a.parse(Set.of(), 0);
        return s.diff();
    }

    static Object call(Session s, MagicArgs a) {
        String raw = a.raw();
        if (raw.isEmpty()) throw new MagicUsageException("which tool?");
        int sp = raw.indexOf(' ');
        String tool = sp < 0 ? raw : raw.substring(0, sp);
        String json = sp < 0 ? "" : raw.substring(sp + 1).strip();
        return s.call(tool, json);
    }

    static Object run(Session s, MagicArgs a) throws InterruptedException {
        var p = a.parse(
                Set.of("candidate", "task", "user", "judge", "harness", "action-space", "repl-guidance", "otel"), 0);
        if (p.option("candidate") == null || p.option("task") == null)
            throw new MagicUsageException("--candidate and --task are required");
        Map<String, String> roles = new LinkedHashMap<>();
        for (String role : List.of("user", "judge")) if (p.option(role) != null) roles.put(role, p.option(role));
        String actionSpace = p.option("action-space") == null ? Bench.ACTION_SPACE : p.option("action-space");
        Harness harness;
        try {
            harness = Harness.of(p.option("harness"), actionSpace, p.option("repl-guidance"), PyDict.empty());
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
        if (!harness.loop() && !actionSpace.equals(Bench.ACTION_SPACE))
            throw new MagicUsageException("--action-space " + actionSpace + " needs --harness loop");
        return s.run(p.option("candidate"), p.option("task"), roles, harness, actionSpace, p.option("otel"));
    }
}
