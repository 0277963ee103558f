package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.python.PyFloats;
import brokkr.value.Json;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MemoryAPI_vector through upstream's executor path (MemoryRun), with real all-MiniLM-L6-v2 embeddings. */
class MemoryVectorTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";
    private static final String FIRST = "memory_vector_prereq_32-notetaker-0",
            NEXT = "memory_vector_prereq_33-notetaker-1";

    private static MemoryRun start() {
        return MemoryRun.start("MemoryAPI_vector", "notetaker", MODEL).enter(FIRST);
    }

    /** Runs the calls one by one, keeping what each did; returns the run after them and their results. */
    private static MemoryRun run(MemoryRun r, List<String> results, String... calls) {
        for (String c : calls) {
            var e = r.execute(List.of(c));
            results.addAll(e.results());
            r = r.with(e.world());
        }
        return r;
    }

    private static String one(MemoryRun r, String call) {
        return r.execute(List.of(call)).results().getFirst();
    }

    private static List<Long> ids(String result) {
        List<Long> out = new ArrayList<>();
        for (Value hit : Json.parse(result).asDict().get("result").asList())
            out.add(((brokkr.value.PyInt) hit.asDict().get("id")).longValue());
        return out;
    }

    @Test
    void addRetrieveUpdateRemoveClear() {
        List<String> out = new ArrayList<>();
        MemoryRun r = run(
                start(),
                out,
                "archival_memory_add(text='My dog Rex loves chasing tennis balls in the park.')",
                "archival_memory_add(text='The quarterly tax payment is due on the fifteenth.')",
                "archival_memory_add(text='I am allergic to peanuts and shellfish.')");
        assertEquals(List.of("{\"id\": 0}", "{\"id\": 1}", "{\"id\": 2}"), out);

        String hit = one(r, "archival_memory_retrieve(query='What food allergies do I have?',top_k=2)");
        assertEquals(2, ids(hit).size(), hit);
        assertEquals(2L, ids(hit).getFirst(), hit);
        Value first = Json.parse(hit).asDict().get("result").asList().get(0);
        assertEquals(
                "I am allergic to peanuts and shellfish.",
                first.asDict().get("text").asStr());
        double score = ((brokkr.value.PyFloat) first.asDict().get("similarity_score")).value();
        assertEquals(score, (double) (float) score, "float(score) of a float32");
        assertTrue(hit.contains("\"similarity_score\": " + PyFloats.repr(score) + ", \"text\""), hit);
        assertTrue(hit.startsWith("{\"result\": [{\"id\": 2, \"similarity_score\": "), "the keys in upstream's order");
        // the default top_k is 5, min'd with the store's size
        assertEquals(3, ids(one(r, "archival_memory_retrieve(query='pets')")).size());
        assertEquals(
                0L,
                ids(one(r, "archival_memory_retrieve(query='pets',top_k=1)")).getFirst());

        out.clear();
        r = run(
                r,
                out,
                "archival_memory_update(vec_id=0,new_text='My cat Tom sleeps all day.')",
                "archival_memory_remove(vec_id=1)",
                "archival_memory_retrieve_all()",
                "archival_memory_add(text='Another note.')");
        assertEquals(
                List.of(
                        "{\"status\": \"ID 0 updated.\"}",
                        "{\"status\": \"ID 1 removed from store.\"}",
                        "{\"result\": [{\"id\": 0, \"text\": \"My cat Tom sleeps all day.\"}, {\"id\": 2, \"text\":"
                                + " \"I am allergic to peanuts and shellfish.\"}]}",
                        "{\"id\": 3}"),
                out,
                "an update keeps the entry's place in the store; ids are not reused");
        out.clear();
        run(r, out, "archival_memory_clear()", "archival_memory_add(text='x')", "core_memory_retrieve_all()");
        assertEquals(List.of("{\"status\": \"Memory cleared.\"}", "{\"id\": 0}", "{\"result\": []}"), out);
    }

    @Test
    void errorTextsAsUpstreamWordsThem() {
        MemoryRun r = start();
        List<String> out = new ArrayList<>();
        assertEquals(
                "{\"result\": []}", one(r, "core_memory_retrieve(query='x',top_k='bad')"), "empty: nothing checked");
        r = run(r, out, "core_memory_add(text='a')", "core_memory_add(text='b')", "core_memory_add(text='c')");
        String x301 = "x".repeat(301);
        assertEquals(
                "{\"error\": \"Entry length exceeds maximum length of 300 characters.\"}",
                one(r, "core_memory_add(text='" + x301 + "')"));
        assertEquals(
                "{\"error\": \"Entry length exceeds maximum length of 300 characters.\"}",
                one(r, "core_memory_update(vec_id=0,new_text='" + x301 + "')"));
        assertEquals(
                "{\"id\": 0}", one(r, "archival_memory_add(text='" + x301 + "')"), "archival: 2,000 and its own ids");
        assertEquals("{\"error\": \"ID 99 not present in store.\"}", one(r, "core_memory_remove(vec_id=99)"));
        assertEquals("{\"error\": \"ID 0 not present in store.\"}", one(r, "core_memory_remove(vec_id='0')"));
        assertEquals(
                "{\"error\": \"ID 7 not present in store.\"}", one(r, "core_memory_update(vec_id=7,new_text='z')"));
        assertEquals("{\"status\": \"ID 1.0 removed from store.\"}", one(r, "core_memory_remove(vec_id=1.0)"));
        assertEquals("{\"status\": \"ID True updated.\"}", one(r, "core_memory_update(vec_id=True,new_text='B')"));
        assertEquals("Error during execution: unhashable type: 'list'", one(r, "core_memory_remove(vec_id=[1])"));
        assertEquals("Error during execution: ", one(r, "core_memory_retrieve(query='a',top_k=0)"), "assert k > 0");
        assertEquals("Error during execution: ", one(r, "core_memory_retrieve(query='a',top_k=-2)"));
        assertEquals(
                "Error during execution: '<' not supported between instances of 'int' and 'str'",
                one(r, "core_memory_retrieve(query='a',top_k='3')"));
        assertEquals(
                "Error during execution: '<' not supported between instances of 'int' and 'NoneType'",
                one(r, "core_memory_retrieve(query='a',top_k=None)"));
        assertEquals(
                "Error during execution: 'float' object cannot be interpreted as an integer",
                one(r, "core_memory_retrieve(query='a',top_k=2.5)"));
        assertEquals(
                3, ids(one(r, "core_memory_retrieve(query='a',top_k=10.0)")).size(), "min(10.0, 3) is 3");
        assertEquals("Error during execution: object of type 'int' has no len()", one(r, "core_memory_add(text=5)"));
        assertEquals(
                "Error during execution: 'int' object is not subscriptable", one(r, "core_memory_retrieve(query=5)"));
        r = run(r, out, "core_memory_add(text='d')", "core_memory_add(text='e')", "core_memory_add(text='f')");
        r = run(r, out, "core_memory_add(text='g')");
        assertEquals(
                "{\"error\": \"Memory size exceeds maximum size of 7 entries.\"}", one(r, "core_memory_add(text='h')"));
        assertEquals(
                "{\"error\": \"Entry length exceeds maximum length of 300 characters.\"}",
                one(r, "core_memory_add(text='" + x301 + "')"),
                "length is checked before capacity");
    }

    @Test
    void anEmbeddingThatRaisesHasAlreadyTakenItsId() {
        List<String> out = new ArrayList<>();
        run(start(), out, "core_memory_add(text=['a list'])", "core_memory_add(text='next')");
        assertTrue(out.get(0).startsWith("Error during execution: "), out.get(0));
        assertEquals("{\"id\": 1}", out.get(1), "upstream increments _next_id before _embed raises");
    }

    @Test
    void theContextDumpIsTheStoreEvenWhenEmpty() {
        MemoryRun r = start();
        // `if not self.core_memory` tests a VectorStore object: always true, so no "no content" notice
        assertEquals("{}", r.instance().contextDump());
        r = run(r, new ArrayList<>(), "core_memory_add(text='Name: Ana')", "core_memory_add(text='Likes tea')");
        assertEquals(
                "{\n    \"0\": \"Name: Ana\",\n    \"1\": \"Likes tea\"\n}",
                r.instance().contextDump());
        assertTrue(r.systemMessage(false).contains(r.instance().contextDump()), "the core/archival template embeds it");
    }

    @Test
    void theSnapshotRoundTripsAndAReloadOrdersTiesById() {
        List<String> out = new ArrayList<>();
        MemoryRun r = run(
                start(),
                out,
                "core_memory_add(text='User prefers tea over coffee.')",
                "core_memory_add(text='User prefers tea over coffee.')",
                "core_memory_add(text='caf\u00e9 visit planned')",
                "core_memory_remove(vec_id=2)",
                "archival_memory_add(text='Meeting with Jacob on Friday.')");
        String q = "core_memory_retrieve(query='What does the user like to drink?',top_k=2)";
        assertEquals(List.of(1L, 0L), ids(one(r, q)), "equal scores: the later row first");
        r = run(r, out, "core_memory_update(vec_id=0,new_text='User prefers tea over coffee.')");
        assertEquals(List.of(0L, 1L), ids(one(r, q)), "the update re-added id 0 last");
        String before = one(r, q);

        r = r.flush();
        String snapshot = "{\n"
                + "    \"core_memory\": {\n"
                + "        \"next_id\": 3,\n"
                + "        \"store\": {\n"
                + "            \"0\": \"User prefers tea over coffee.\",\n"
                + "            \"1\": \"User prefers tea over coffee.\"\n"
                + "        }\n"
                + "    },\n"
                + "    \"archival_memory\": {\n"
                + "        \"next_id\": 1,\n"
                + "        \"store\": {\n"
                + "            \"0\": \"Meeting with Jacob on Friday.\"\n"
                + "        }\n"
                + "    }\n"
                + "}";
        String dir = "agentic/memory/vector/memory_snapshot/";
        assertEquals(snapshot, r.files().get(dir + "prereq_checkpoints/" + FIRST + ".json"));
        assertEquals(snapshot, r.files().get(dir + "notetaker_final.json"));

        MemoryRun next = r.enter(NEXT);
        assertEquals(r.instance().state(null), next.instance().state(null));
        assertEquals(List.of(1L, 0L), ids(one(next, q)), "reloaded: the index is rebuilt with the ids sorted");
        assertEquals(
                before.replace("\"id\": 0", "\"id\": X")
                        .replace("\"id\": 1", "\"id\": 0")
                        .replace("\"id\": X", "\"id\": 1"),
                one(next, q),
                "the same scores, the tie in id order");
        assertEquals("{\"id\": 3}", one(next, "core_memory_add(text='new')"), "next_id as saved");
        assertEquals(
                "{\"result\": [{\"id\": 0, \"text\": \"Meeting with Jacob on Friday.\"}]}",
                one(next, "archival_memory_retrieve_all()"));
    }

    @Test
    void aForkKeepsItsOwnMemoryAndSnapshotFiles() {
        MemoryRun run = start();
        MemoryRun a = run(run, new ArrayList<>(), "archival_memory_add(text='buy milk')")
                .flush();
        MemoryRun b = run(run, new ArrayList<>(), "archival_memory_add(text='call Jacob')")
                .flush();
        assertEquals(
                "{\"result\": []}", one(run, "archival_memory_retrieve_all()"), "the run forked from is unchanged");
        assertTrue(one(a.enter(NEXT), "archival_memory_retrieve(query='groceries')")
                .contains("buy milk"));
        String bText = one(b.enter(NEXT), "archival_memory_retrieve(query='groceries')");
        assertTrue(bText.contains("call Jacob"));
        assertFalse(bText.contains("buy milk"));
        assertNotEquals(a.files(), b.files());
        assertTrue(run.files().isEmpty());
        assertEquals("{}", run.enter(NEXT).instance().contextDump(), "no snapshot before either flush: starts empty");
    }
}
