package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.StateDump;
import brokkr.domains.conformance.Corpus;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Replays the BFCL memory-backend execution corpus (../shared/conformance/bfcl/memory/README.md): each record is a
 * chain of prerequisite entries of one backend and scenario from an empty result directory, executed call by call
 * as upstream's inference does ({@link MemoryRun}); compared are every call's result and state hash, each entry's
 * initial state and context dump, final state and snapshot files (path, hash, length), the final snapshot file's
 * text, and what the scenario's questions see (their ids, the state they load, the first one's system message).
 */
public final class MemoryConformance {
    private MemoryConformance() {}

    /** {@code records} replayed, {@code calls} compared, {@code mismatches} records that differ. */
    public record Report(int records, long calls, int mismatches, long nanos) {
        public String summary() {
            return records + " records, " + calls + " calls, " + mismatches + " mismatches";
        }
    }

    private static final int MAX_RESULT = 2048;

    public static Report run(MemoryData data, Path corpus, PrintStream out) {
        long start = System.nanoTime();
        List<Corpus.Record> records = Corpus.read(corpus);
        int mismatches = 0;
        long calls = 0;
        for (Corpus.Record r : records) {
            Replay replay = new Replay(data, r);
            String diff;
            try {
                diff = replay.run();
            } catch (Corpus.CorpusException e) {
                throw e;
            } catch (RuntimeException e) {
                diff = "internal error at " + replay.where + ": " + e;
            }
            calls += replay.calls;
            if (diff != null) {
                mismatches++;
                out.println(
                        r.file().getFileName() + ":" + r.line() + " " + r.string("backend") + " " + r.string("scenario")
                                + (r.has("seq") ? " seq " + r.value().get("seq") : "") + ": " + diff);
            }
        }
        Report rep = new Report(records.size(), calls, mismatches, System.nanoTime() - start);
        out.println(rep.summary());
        return rep;
    }

    /** The canonical text of a state ({@code json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True)}). */
    static String canonical(Value state) {
        return PyJson.dumps(state, PyJson.DumpOptions.COMPACT.withSortKeys(true));
    }

    static String stateSha(MemoryBackend b) {
        return StateDump.sha16(canonical(StateDump.render(b.state(null))));
    }

    private static final class Replay {
        final MemoryData data;
        final Corpus.Record r;
        long calls;
        String where = "start";

        Replay(MemoryData data, Corpus.Record r) {
            this.data = data;
            this.r = r;
        }

        String run() {
            String backend = r.string("backend");
            String scenario = r.string("scenario");
            String model = r.string("exec_model_name");
            MemoryRun run = MemoryRun.start(backend, scenario, model);
            for (Corpus.Record entry : r.objects("entries")) {
                String testId = entry.string("test_id");
                where = testId;
                if (entry.bool("prereq") != testId.contains("prereq"))
                    throw entry.fail("field 'prereq' disagrees with the id " + testId);
                run = run.enter(testId);
                MemoryBackend b = run.instance();
                String sha = stateSha(b);
                if (!sha.equals(entry.string("initial_state_sha")))
                    return testId + " initial state: sha " + sha + ", expected " + entry.string("initial_state_sha")
                            + "; got " + clip(canonical(StateDump.render(b.state(null)))) + ", expected "
                            + clip(canonical(entry.required("initial_state")));
                if (!resultMatches(entry.required("context_dump"), b.contextDump()))
                    return testId + " context dump: expected " + clip(PyJson.dumps(entry.required("context_dump")))
                            + ", got " + clip(b.contextDump());
                for (Corpus.Record turn : entry.objects("turns")) {
                    Value t = turn.required("turn");
                    int c = 0;
                    for (Corpus.Record call : turn.objects("calls")) {
                        where = testId + " turn " + t + " call " + c;
                        String text = call.string("call");
                        Executor.Execution ex = run.execute(List.of(text));
                        run = run.with(ex.world());
                        calls++;
                        String got = ex.results().getFirst();
                        Value expected = call.required("result");
                        if (!resultMatches(expected, got))
                            return where + " " + clip(text) + ": expected " + clip(PyJson.dumps(expected)) + ", got "
                                    + clip(PyJson.dumps(new PyStr(got)));
                        String s = stateSha(run.instance());
                        if (!s.equals(call.string("state_sha")))
                            return where + " " + clip(text) + ": state sha " + s + ", expected "
                                    + call.string("state_sha") + "; state "
                                    + clip(canonical(
                                            StateDump.render(run.instance().state(null))));
                        c++;
                    }
                    if (turn.has("state")) {
                        String want = canonical(turn.required("state"));
                        String gotState =
                                canonical(StateDump.render(run.instance().state(null)));
                        if (!want.equals(gotState))
                            return testId + " after turn " + t + ": state " + clip(gotState) + ", expected "
                                    + clip(want);
                    }
                }
                where = testId + " end";
                if (entry.bool("prereq")) run = run.flush();
                String fin = stateSha(run.instance());
                if (!fin.equals(entry.string("final_state_sha")))
                    return testId + " final state: sha " + fin + ", expected " + entry.string("final_state_sha");
                String d = compareFiles(
                        testId, run.files(), entry.object("snapshot_files").value());
                if (d != null) return d;
            }
            where = "final snapshot file";
            Corpus.Record fsf = r.object("final_snapshot_file");
            String text = run.files().get(fsf.string("path"));
            if (text == null) return "final snapshot file " + fsf.string("path") + " was not written";
            if (!text.equals(fsf.string("text")))
                return "final snapshot file " + fsf.string("path") + ": " + firstDifference(fsf.string("text"), text);
            return compareQuestions(run, r.object("questions"));
        }

        private String compareFiles(String testId, Map<String, String> files, PyDict expected) {
            TreeSet<String> paths = new TreeSet<>(files.keySet());
            paths.addAll(expected.keys());
            for (String p : paths) {
                Value want = expected.get(p);
                String text = files.get(p);
                if (want == null) return testId + " snapshot files: " + p + " written, upstream wrote none";
                if (text == null) return testId + " snapshot files: " + p + " not written";
                String sha = StateDump.sha16(text);
                int len = text.getBytes(StandardCharsets.UTF_8).length;
                PyDict w = want.asDict();
                if (!sha.equals(w.get("sha").asStr())
                        || len != ((PyInt) w.get("len")).value().intValue())
                    return testId + " snapshot file " + p + ": sha " + sha + " len " + len + ", expected "
                            + PyJson.dumps(w);
            }
            return null;
        }

        private String compareQuestions(MemoryRun run, Corpus.Record q) {
            where = "questions";
            List<MemoryData.Question> qs = data.questions(run.scenario());
            List<Value> ids = q.required("question_ids").asList().items();
            if (ids.size() != qs.size()) return "questions: " + qs.size() + " questions, expected " + ids.size();
            String first = null, loaded = null;
            for (int i = 0; i < qs.size(); i++) {
                String id = MemoryData.idFor(qs.get(i).id(), run.category());
                if (!id.equals(ids.get(i).asStr()))
                    return "question " + i + ": id " + id + ", expected "
                            + ids.get(i).asStr();
                MemoryRun qr = run.enter(id);
                String sha = stateSha(qr.instance());
                if (loaded == null) loaded = sha;
                else if (!loaded.equals(sha)) return "question " + id + " loads another state than the first";
                if (i == 0) first = qr.systemMessage(true);
            }
            if (!q.string("first_question").equals(ids.getFirst().asStr()))
                throw q.fail("field 'first_question' is not the first of question_ids");
            if (!loaded.equals(q.string("loaded_state_sha")))
                return "questions load state sha " + loaded + ", expected " + q.string("loaded_state_sha");
            if (!q.bool("all_questions_same_state")) return "upstream's questions saw different states";
            Value want = q.required("system_message");
            if (!resultMatches(want, first))
                return "first question's system message: "
                        + (want instanceof PyStr w ? firstDifference(w.value(), first) : "hash differs");
            return null;
        }
    }

    private static boolean resultMatches(Value expected, String got) {
        if (expected instanceof PyStr s) return s.value().equals(got);
        if (expected instanceof PyDict d && d.get("$sha") != null) {
            int len = got.codePointCount(0, got.length());
            return len > MAX_RESULT
                    && StateDump.sha16(got).equals(d.get("$sha").asStr())
                    && len == ((PyInt) d.get("$len")).value().intValue();
        }
        return false;
    }

    static String firstDifference(String expected, String got) {
        int i = 0;
        while (i < expected.length() && i < got.length() && expected.charAt(i) == got.charAt(i)) i++;
        return "first difference at char " + i + ": expected " + clip(PyJson.dumps(new PyStr(tail(expected, i))))
                + ", got " + clip(PyJson.dumps(new PyStr(tail(got, i))));
    }

    private static String tail(String s, int i) {
        return s.substring(Math.max(0, i - 20), Math.min(s.length(), i + 60));
    }

    static String clip(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "...(" + s.length() + " chars)";
    }
}
