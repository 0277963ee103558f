package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.CommandContext;
import brokkr.domains.tau2.cli.Tau2Command;
import brokkr.experiment.Registry;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./brokkr tau2 evaluate}: upstream's graded trajectories re-graded, mismatches found and reported, errors. */
class Tau2EvaluateCommandTest {

    static Path shared(String rel) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared/conformance/tau2").resolve(rel);
            if (Files.exists(p)) return p;
        }
        throw new IllegalStateException("no shared/conformance/tau2/" + rel + " above the working directory");
    }

    static List<String> lines(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void telecomGradedCorpusRegradesWithNoMismatch() {
        var r = ConformanceCommandTest.main(
                "tau2", "evaluate", shared("telecom/graded-seed11.jsonl.gz").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("1026 simulations, 0 mismatches\n", r.out());
    }

    @Test
    void aPlainJsonlCopyRegradesTheSameAndTamperingIsReported(@TempDir Path tmp) throws IOException {
        List<String> all = lines(shared("retail/graded-seed11.jsonl.gz"));
        // The first 40 records hold gold episodes and judged ones (retail's basis has NL_ASSERTION).
        List<String> head = all.subList(0, 40);
        Path plain = tmp.resolve("head.jsonl");
        Files.write(plain, head);
        var ok = ConformanceCommandTest.main("tau2", "evaluate", plain.toString());
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertEquals("40 simulations, 0 mismatches\n", ok.out());

        List<String> tampered = new ArrayList<>();
        int dbLine = -1, judgeLine = -1;
        for (int i = 0; i < head.size(); i++) {
            PyDict d = Json.parse(head.get(i)).asDict();
            PyDict ri = d.get("reward_info").asDict();
            if (dbLine < 0 && ri.get("db_check") instanceof PyDict db) {
                boolean m = ((PyBool) db.get("db_match")).value();
                d = d.with("reward_info", ri.with("db_check", db.with("db_match", PyBool.of(!m))));
                dbLine = i + 1;
            } else if (judgeLine < 0 && d.get("judge") instanceof PyList j && !j.isEmpty()) {
                PyDict call = j.get(0).asDict();
                PyDict req = call.get("request").asDict();
                PyList msgs = req.get("messages").asList();
                PyDict user = msgs.get(1).asDict();
                PyDict changed = user.with(
                        "content",
                        new PyStr(user.get("content").asStr().replace("expectedOutcomes", "expectedOutcome")));
                d = d.with("judge", j.with(0, call.with("request", req.with("messages", msgs.with(1, changed)))));
                judgeLine = i + 1;
            }
            tampered.add(PyJson.dumps(d, PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
        }
        assertTrue(dbLine > 0 && judgeLine > 0);
        Path bad = tmp.resolve("tampered.jsonl");
        Files.write(bad, tampered);
        var r = ConformanceCommandTest.main("tau2", "evaluate", bad.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(
                r.out().contains("tampered.jsonl:" + dbLine + " task ")
                        && r.out().contains("db_check.db_match: upstream "),
                r.out());
        assertTrue(
                r.out().contains("tampered.jsonl:" + judgeLine + " task ")
                        && r.out().contains("judge request 1: differs at character"),
                r.out());
        assertTrue(r.out().endsWith("40 simulations, 2 mismatches\n"), r.out());
    }

    @Test
    void aJudgeModelIsAskedWithUpstreamsPromptsOverTheWire(@TempDir Path tmp) throws Exception {
        List<String> head = lines(shared("retail/graded-seed11.jsonl.gz")).subList(0, 40);
        Path plain = tmp.resolve("head.jsonl");
        Files.write(plain, head);
        // The judge model answers, in order, what upstream's judge answered (episodes are graded in file order);
        // different episodes can send the same prompt and get different stub verdicts, so order, not prompt, decides.
        List<String> prompts = new ArrayList<>(), contents = new ArrayList<>();
        for (String line : head) {
            PyDict d = Json.parse(line).asDict();
            for (brokkr.value.Value j : d.get("judge").asList()) {
                PyDict call = j.asDict();
                prompts.add(call.get("request")
                        .asDict()
                        .get("messages")
                        .asList()
                        .get(1)
                        .asDict()
                        .get("content")
                        .asStr());
                contents.add(call.get("answer").asDict().get("content").asStr());
            }
        }
        assertTrue(contents.size() > 5, "the head has judged episodes: " + contents.size());
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        try (var server = brokkr.provider.testing.ScriptedModelServer.ofCandidate((history, tools) -> {
            int n = next.getAndIncrement();
            return brokkr.conversation.Turn.of(new brokkr.conversation.Message.Assistant(
                    n < contents.size() ? contents.get(n) : "{\"results\": []}"));
        })) {
            java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream(),
                    e = new java.io.ByteArrayOutputStream();
            int code = new Tau2Command(new CommandContext(Registry.process(), server.openAiEnv()))
                    .run(
                            List.of("evaluate", plain.toString(), "--judge-model", "judge-m"),
                            new java.io.PrintStream(o, true, StandardCharsets.UTF_8),
                            new java.io.PrintStream(e, true, StandardCharsets.UTF_8));
            String out = o.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, out + e.toString(StandardCharsets.UTF_8));
            assertEquals("40 simulations, 0 mismatches\n", out);
            int judged = 0;
            for (String line : head)
                judged += Json.parse(line).asDict().get("judge").asList().size();
            assertEquals(judged, server.requestCount(), "one judge request per judged episode, as upstream");
            for (int i = 0; i < server.requestCount(); i++) {
                PyDict body = server.requests().get(i).json();
                assertEquals("judge-m", body.get("model").asStr());
                assertEquals(
                        prompts.get(i),
                        body.get("messages")
                                .asList()
                                .get(1)
                                .asDict()
                                .get("content")
                                .asStr(),
                        "upstream's user prompt, request " + i);
            }
        }
    }

    @Test
    void usageAndInputErrors(@TempDir Path tmp) throws IOException {
        assertEquals(2, ConformanceCommandTest.main("tau2", "evaluate").code());
        assertEquals(
                2,
                ConformanceCommandTest.main("tau2", "evaluate", "a.json", "b.json")
                        .code());
        assertEquals(
                2,
                ConformanceCommandTest.main("tau2", "evaluate", "x.json", "--bogus")
                        .code());
        var missing = ConformanceCommandTest.main(
                "tau2", "evaluate", tmp.resolve("none.json").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Path junk = tmp.resolve("junk.jsonl");
        Files.writeString(junk, "{\"domain\": \"retail\"}\n");
        var j = ConformanceCommandTest.main("tau2", "evaluate", junk.toString());
        assertEquals(2, j.code());
        assertTrue(j.err().contains("junk.jsonl:1: field 'task_id' missing"), j.err());
    }
}
