package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyHash;
import brokkr.python.PyJson;
import brokkr.python.PyRepr;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brokkr's own differential multi-turn fuzz generator: seeded call sequences over the BFCL multi-turn tasks, in the
 * input format of the shared fuzz corpora ({@code conformance/bfcl/multi_turn/README.md}: a record per sequence,
 * turns of steps of {@code {call, gen}}), for {@code tools/bfcl-mtfuzz/mtfuzz_oracle.py} to execute through
 * upstream's own executor and {@link MultiTurnConformance} to replay. Beside the ground truth's own calls it writes
 * two families aimed at the two mismatch classes of issue 26:
 * <ul>
 *   <li>{@code setlit:*}: calls whose argument is a small set of strings (1 to 12 members; members of the task's
 *       state mixed with unknown strings and strings whose hashes collide with earlier members' in an 8- or
 *       32-slot table), as a display, {@code set([...])}, {@code frozenset({...})} or a display with a
 *       non-constant member, sent to the backend methods that iterate an argument and stop at, store or print its
 *       members ({@code lockDoors}' {@code KeyError}, {@code display_log}, {@code mention}, {@code echo},
 *       {@code send_message}'s not-found text, {@code filter_stocks_by_price}, {@code max_value} of mixed types...)
 *       and in place of a string argument of a ground-truth call;</li>
 *   <li>{@code syntax:*}: ground-truth calls damaged so that CPython 3.11's parser answers with one of its
 *       {@code invalid_*} hints (a missing comma, {@code =} in a group, a missing {@code :}, unterminated strings,
 *       unmatched or unclosed brackets, misplaced keywords, bad number literals...).</li>
 * </ul>
 * Deterministic in the seed (java.util.Random; the output is the same bytes for the same seed and data).
 */
public final class MultiTurnFuzz {
    private MultiTurnFuzz() {}

    /** The model name the records are executed under (the checker's model side, as in the shared fuzz corpora). */
    public static final String MODEL = "gpt-4.1-2025-04-14-FC";

    private static final String[] KINDS = {"set_literal", "syntax_hint", "mixed"};

    /** {@code records} sequences for {@code seed}, one JSON line each (members sorted by key). */
    public static List<String> generate(MultiTurnData data, long seed, int records) {
        Random rnd = new Random(seed);
        List<MultiTurnData.Task> tasks = data.all();
        List<String> out = new ArrayList<>(records);
        for (int seq = 0; seq < records; seq++) {
            MultiTurnData.Task task = tasks.get(rnd.nextInt(tasks.size()));
            String kind = KINDS[seq % KINDS.length];
            out.add(PyJson.dumps(
                    Value.of(record(task, kind, seed, seq, new Random(rnd.nextLong()))), PyJson.DumpOptions.SORTED));
        }
        return out;
    }

    private static Map<String, Object> record(MultiTurnData.Task task, String kind, long seed, int seq, Random rnd) {
        Gen g = new Gen(task, rnd);
        List<Object> turns = new ArrayList<>();
        List<List<String>> gt = task.groundTruth();
        for (int t = 0; t < gt.size(); t++) {
            List<Map<String, Object>> calls = new ArrayList<>();
            for (String c : gt.get(t)) calls.add(call(c, null));
            int extra = 1 + rnd.nextInt(4);
            for (int i = 0; i < extra; i++) {
                boolean set = switch (kind) {
                    case "set_literal" -> rnd.nextInt(6) != 0;
                    case "syntax_hint" -> rnd.nextInt(6) == 0;
                    default -> rnd.nextBoolean();
                };
                Map<String, Object> c = set ? g.setCall() : g.syntaxCall();
                if (c != null) calls.add(rnd.nextInt(calls.size() + 1), c);
            }
            List<Object> steps = new ArrayList<>();
            int cut = calls.size() > 1 && rnd.nextBoolean() ? 1 + rnd.nextInt(calls.size() - 1) : calls.size();
            if (cut > 0) steps.add(new ArrayList<>(calls.subList(0, cut)));
            if (cut < calls.size()) steps.add(new ArrayList<>(calls.subList(cut, calls.size())));
            Map<String, Object> turn = new TreeMap<>();
            turn.put("turn", t);
            turn.put("steps", steps);
            turns.add(turn);
        }
        Map<String, Object> r = new TreeMap<>();
        r.put("task_id", task.id());
        r.put("category", task.category());
        r.put("seed", seed);
        r.put("seq", seq);
        r.put("kind", kind);
        r.put("exec_model_name", MODEL);
        r.put("turns", turns);
        return r;
    }

    private static Map<String, Object> call(String text, String gen) {
        Map<String, Object> c = new TreeMap<>();
        c.put("call", text);
        if (gen != null) c.put("gen", gen);
        return c;
    }

    private static final List<String> DOORS = List.of("driver", "passenger", "rear_left", "rear_right");
    private static final List<String> STOCKS =
            List.of("AAPL", "GOOG", "TSLA", "MSFT", "NVDA", "ALPH", "OMEG", "QUAS", "NEPT", "SYNX", "ZETA");
    private static final List<String> ODD = List.of(
            "", " ", "Driver", "rear left", "a-b", "x.txt", "é", "ß", "中文", "😀", "naïve", "tab\t", "q'uote", "back\\");
    private static final Pattern STRING_ARG =
            Pattern.compile("(\\w+)\\s*=\\s*('(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\")");
    private static final Pattern QUOTED = Pattern.compile("'([^'\\\\]*)'|\"([^\"\\\\]*)\"");
    private static final String ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

    /** The draws for one record: the task's own strings and its classes' targets. */
    private static final class Gen {
        final MultiTurnData.Task task;
        final Random rnd;
        final List<String> taskStrings = new ArrayList<>();
        final List<String> gtCalls = new ArrayList<>();

        Gen(MultiTurnData.Task task, Random rnd) {
            this.task = task;
            this.rnd = rnd;
            Set<String> seen = new LinkedHashSet<>();
            for (List<String> turn : task.groundTruth())
                for (String c : turn) {
                    gtCalls.add(c);
                    Matcher m = QUOTED.matcher(c);
                    while (m.find()) seen.add(m.group(1) != null ? m.group(1) : m.group(2));
                }
            for (String s : seen) if (staticallyInterned(s)) taskStrings.add(s);
        }

        /**
         * Whether {@code s} is interned in upstream's process or not, whatever the record's earlier calls did: not
         * identifier-like (codeobject.c intern_string_constants leaves it alone), or interned at start-up or by the
         * backends. An identifier-like constant of an earlier call that the backend keeps in its state stays
         * interned in upstream's process, which then rebuilds a later display holding it; Brokkr does not model
         * that (tools/bfcl-mtfuzz/README.md), so the generator does not draw such strings from the ground truth.
         */
        static boolean staticallyInterned(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) return true;
            }
            return Executor.internedUpstream(s);
        }

        <T> T pick(List<T> l) {
            return l.get(rnd.nextInt(l.size()));
        }

        // ---- set literals ----

        /** A set-literal call: a targeted method of an involved class, or a ground-truth call's string argument. */
        Map<String, Object> setCall() {
            List<String[]> targets = new ArrayList<>(); // {template with %s for the set, name, pool}
            for (String cls : task.involvedClasses()) {
                switch (cls) {
                    case "VehicleControlAPI" -> {
                        targets.add(new String[] {
                            "lockDoors(unlock=" + (rnd.nextBoolean() ? "True" : "False") + ", door=%s)",
                            "lockDoors",
                            "doors"
                        });
                        targets.add(new String[] {"display_log(messages=%s)", "display_log", "doors"});
                    }
                    case "TradingBot" -> {
                        targets.add(new String[] {
                            "filter_stocks_by_price(stocks=%s, min_price=0.0, max_price=1000.0)",
                            "filter_stocks",
                            "stocks"
                        });
                        targets.add(new String[] {"notify_price_change(stocks=%s, threshold=0.0)", "notify", "stocks"});
                    }
                    case "TwitterAPI" -> {
                        targets.add(new String[] {
                            "mention(tweet_id=" + rnd.nextInt(4) + ", mentioned_usernames=%s)", "mention", "task"
                        });
                        targets.add(new String[] {"post_tweet(content='fuzz', tags=%s)", "post_tweet", "task"});
                    }
                    case "MessageAPI" ->
                        targets.add(
                                new String[] {"send_message(receiver_id=%s, message='hi')", "send_message", "task"});
                    case "GorillaFileSystem" -> targets.add(new String[] {"echo(content=%s)", "echo", "task"});
                    case "MathAPI" -> {
                        targets.add(new String[] {"max_value(numbers=%s)", "max_value", "mixed"});
                        targets.add(new String[] {"min_value(numbers=%s)", "min_value", "mixed"});
                    }
                    case "TicketAPI" ->
                        targets.add(
                                new String[] {"create_ticket(title='fuzz', description=%s)", "create_ticket", "task"});
                    default -> {}
                }
            }
            if (targets.isEmpty() || rnd.nextInt(4) == 0) {
                Map<String, Object> c = setInGroundTruthCall();
                if (c != null) return c;
            }
            if (targets.isEmpty()) return null;
            String[] t = pick(targets);
            List<String> valid = switch (t[2]) {
                case "doors" -> DOORS;
                case "stocks" -> STOCKS;
                default -> taskStrings.isEmpty() ? DOORS : taskStrings;
            };
            Form f = setLiteral(valid, t[2].equals("mixed"));
            return call(t[0].formatted(f.text), "setlit:" + t[1] + ":" + f.form);
        }

        /** A ground-truth call with one of its string arguments replaced by a set holding it and other strings. */
        Map<String, Object> setInGroundTruthCall() {
            if (gtCalls.isEmpty()) return null;
            String c = pick(gtCalls);
            Matcher m = STRING_ARG.matcher(c);
            List<int[]> spans = new ArrayList<>();
            while (m.find()) spans.add(new int[] {m.start(2), m.end(2)});
            if (spans.isEmpty()) return null;
            int[] s = pick(spans);
            String original = c.substring(s[0] + 1, s[1] - 1);
            List<String> pool = new ArrayList<>(taskStrings);
            if (!original.contains("\\") && staticallyInterned(original)) pool.add(0, original);
            Form f = setLiteral(pool, false);
            return call(c.substring(0, s[0]) + f.text + c.substring(s[1]), "setlit:gt_arg:" + f.form);
        }

        record Form(String text, String form) {}

        /** A set of 1-12 members drawn from {@code valid}, unknown and colliding strings (and ints if {@code mixed}). */
        Form setLiteral(List<String> pool, boolean mixed) {
            List<String> valid = pool.isEmpty() ? ODD : pool;
            int size = 1 + rnd.nextInt(12);
            List<Object> members = new ArrayList<>();
            Set<Object> distinct = new LinkedHashSet<>();
            while (members.size() < size) {
                Object m;
                int k = rnd.nextInt(10);
                if (k < 4) m = pick(valid);
                else if (k < 6 && !distinct.isEmpty()) m = colliding(distinct, rnd.nextBoolean() ? 7 : 31);
                else if (k < 7) m = pick(ODD);
                else if (mixed && k < 9) m = (long) rnd.nextInt(40) - 5;
                else m = randomWord();
                if (m == null) continue;
                if (!distinct.add(m) && rnd.nextInt(3) != 0) continue; // mostly distinct, sometimes repeated
                members.add(m);
            }
            List<String> lits = new ArrayList<>();
            for (Object o : members) lits.add(o instanceof String s ? PyRepr.reprStr(s) : o.toString());
            String inner = String.join(", ", lits);
            int form = rnd.nextInt(20);
            // no frozenset(...): Brokkr's builtins have no frozenset (upstream's corpora never call it)
            if (form < 15) return new Form("{" + inner + "}", "display");
            if (form < 18) return new Form("set([" + inner + "])", "set_ctor");
            List<String> nonConst = new ArrayList<>(lits);
            int i = rnd.nextInt(nonConst.size());
            nonConst.set(i, "str(" + nonConst.get(i) + ")");
            return new Form("{" + String.join(", ", nonConst) + "}", "nonconst");
        }

        /** A new word whose str hash falls in the same slot of a {@code mask + 1}-slot table as a member's. */
        String colliding(Set<Object> members, int mask) {
            List<Object> strs =
                    members.stream().filter(o -> o instanceof String).toList();
            if (strs.isEmpty()) return null;
            long target = PyHash.hash(pick(strs)).getAsLong() & mask;
            for (int i = 0; i < 400; i++) {
                String w = randomWord();
                if ((PyHash.hash(w).getAsLong() & mask) == target && !members.contains(w)) return w;
            }
            return null;
        }

        String randomWord() {
            int n = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 12 : 5);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) sb.append(ALNUM.charAt(rnd.nextInt(i == 0 ? 52 : ALNUM.length())));
            return rnd.nextInt(5) == 0 ? sb + " " + sb.reverse() : sb.toString();
        }

        // ---- damaged call strings ----

        /**
         * Argument fragments that CPython 3.11 rejects, most with one of its invalid_* hints. Left out, because
         * PyParser does not transcribe the rule (found by this generator, see tools/bfcl-mtfuzz/README.md):
         * {@code x=await y} (compile.c "'await' outside function").
         */
        static final List<String> FRAGMENTS = List.of(
                "x=1 y=2",
                "x=[1 2]",
                "x=(1 2)",
                "x={'k' 1}",
                "x={'k': }",
                "x={'k': 1, 'v'}",
                "x={1: 2 3: 4}",
                "x='abc",
                "x=\"abc",
                "x='''abc",
                "x=[1, 2)",
                "x for x in y, 1",
                "x=1 for y in z",
                "x=[1, 2 for y in z]",
                "x={1, for y in z}",
                "x=(1, 2]",
                "x={1, 2]",
                "x=1 if 2",
                "x=lambda: ",
                "x=lambda y y",
                "x=01",
                "x=1_",
                "x=1e",
                "x=0x",
                "x=0b2",
                "x=0o9",
                "x=1__0",
                "x=1a",
                "x=1.2.3",
                "x=a b",
                "x='a' 'b' c",
                "x=not",
                "x=1 not 2",
                "**",
                "*",
                "True=1",
                "None=1",
                "f()=1",
                "a.b=1",
                "1=2",
                "'s'=1",
                "x=1=2",
                "x=",
                "=1",
                "x==",
                "x=1,,",
                ",",
                "print 'x'",
                "x=1$",
                "x=?",
                "x=!",
                "x=\u00b7",
                "x=\u2026",
                "x=\u00a3",
                "x=yield",
                "import os",
                "del x",
                "pass",
                "x: int = 1",
                "x=if",
                "else",
                "x={**}",
                "x=[*]",
                "(*x)",
                "**k, *a",
                "x=1, x=2",
                "x=1, 2",
                "x=(y=1)",
                "x=[y=1]",
                "x={'k'=1}",
                "x={'k': 1 'v': 2}",
                "x=f(1 2)",
                "x='a' + ",
                "x=1 +",
                "x=(",
                "x=)",
                "x=]",
                "x=}",
                "x=[",
                "x={",
                "x=1 2",
                "x='a' 1",
                "x=\"q\" 'r' 3",
                "x=[\"a\" \"b\" 1]",
                "x=lambda: 1 = 2",
                "x=a := 1",
                "x=(a := )",
                "x=1 or",
                "x=1 and",
                "x=in",
                "x=is",
                "x=1 is not",
                "x={'a', 'b' 'c' 1}");

        Map<String, Object> syntaxCall() {
            String c = gtCalls.isEmpty() ? "ls()" : pick(gtCalls);
            int open = c.indexOf('('), close = c.lastIndexOf(')');
            if (open < 0 || close < open) return call(c + "(", "syntax:unclosed_call");
            String inner = c.substring(open + 1, close);
            List<Integer> commas = topLevelCommas(inner);
            switch (rnd.nextInt(9)) {
                case 0 -> {
                    if (!commas.isEmpty()) {
                        int i = pick(commas);
                        return call(
                                c.substring(0, open + 1) + inner.substring(0, i) + " " + inner.substring(i + 1)
                                        + c.substring(close),
                                "syntax:drop_comma");
                    }
                }
                case 1 -> {
                    Matcher m = STRING_ARG.matcher(c);
                    if (m.find()) {
                        String v = m.group(2);
                        return call(
                                c.substring(0, m.start(2)) + v.substring(0, v.length() - 1) + c.substring(m.end(2)),
                                "syntax:unterminated_string");
                    }
                }
                case 2 -> {
                    Matcher m = Pattern.compile("\\b(\\w+)\\s*=(?!=)").matcher(inner);
                    if (m.find()) {
                        int s = open + 1 + m.start();
                        int from = m.start();
                        int end = commas.stream()
                                .filter(x -> x > from)
                                .findFirst()
                                .orElse(inner.length());
                        int e = open + 1 + end;
                        return call(
                                c.substring(0, s) + "(" + c.substring(s, e) + ")" + c.substring(e),
                                "syntax:kwarg_in_group");
                    }
                }
                case 3 -> {
                    String[] breaks = {"", ")", "]", "}", "))", "(", "["};
                    String b = breaks[rnd.nextInt(breaks.length)];
                    return call(c.substring(0, close) + b, "syntax:bracket:" + (b.isEmpty() ? "none" : b));
                }
                case 4 -> {
                    return call(c + ")", "syntax:extra_close");
                }
                default -> {}
            }
            String frag = pick(FRAGMENTS);
            String glue = inner.isBlank() ? "" : ", ";
            String damaged = rnd.nextBoolean()
                    ? c.substring(0, close) + glue + frag + c.substring(close)
                    : c.substring(0, open + 1) + frag + glue + inner + c.substring(close);
            return call(damaged, "syntax:fragment");
        }

        static List<Integer> topLevelCommas(String s) {
            List<Integer> out = new ArrayList<>();
            int depth = 0;
            char quote = 0;
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (quote != 0) {
                    if (ch == '\\') i++;
                    else if (ch == quote) quote = 0;
                } else if (ch == '\'' || ch == '"') quote = ch;
                else if ("([{".indexOf(ch) >= 0) depth++;
                else if (")]}".indexOf(ch) >= 0) depth--;
                else if (ch == ',' && depth == 0) out.add(i);
            }
            return out;
        }
    }

    /**
     * {@code --seed N [--records R] --out FILE}: writes R (default 300) sequences as JSON Lines, for
     * {@code tools/bfcl-mtfuzz/mtfuzz_oracle.py} (the data directory as for every BFCL command).
     */
    public static void main(String[] args) throws IOException {
        Long seed = null;
        int records = 300;
        Path out = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--records" -> records = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (seed == null || out == null || args.length % 2 != 0)
            throw new IllegalArgumentException("usage: MultiTurnFuzz --seed N [--records R] --out FILE");
        List<String> lines = generate(MultiTurnData.load(), seed, records);
        Files.writeString(out, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        System.out.println(lines.size() + " sequences written to " + out);
    }
}
