package brokkr.domains.tau2.telecom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Prompts and tool schemas (agent and user), byte for byte against upstream's (conformance/tau2/telecom/prompts.json). */
class TelecomPromptsTest {
    static TelecomDomain domain;
    static PyDict prompts;

    @BeforeAll
    static void load() {
        domain = new TelecomDomain(new Tau2Data(SharedDirs.tau2Data()));
        prompts = Json.read(SharedDirs.conformance("telecom", "prompts.json")).asDict();
    }

    @Test
    void agentSystemPrompt() {
        assertEquals(prompts.get("agent_system_prompt").asStr(), domain.agentSystemPrompt());
        assertTrue(domain.agentSystemPrompt().contains("The current time is 2025-02-25 12:08:00 EST."));
    }

    private static void sameSchemas(PyList expected, List<Value> actual, int count) {
        assertEquals(count, actual.size());
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            // key order included ($defs first, sorted property keys): compare the json.dumps texts
            assertEquals(PyJson.dumps(expected.get(i)), PyJson.dumps(actual.get(i)), "schema " + i);
        }
    }

    @Test
    void agentToolSchemas() {
        sameSchemas(prompts.get("agent_tools").asList(), domain.agentToolSchemas(), 13);
    }

    @Test
    void userToolSchemas() {
        sameSchemas(prompts.get("user_tools_all").asList(), domain.userToolSchemas(), 30);
    }

    @Test
    void userSystemPromptsAndTools() {
        PyList tasks = prompts.get("tasks").asList();
        assertEquals(114, tasks.size());
        assertEquals(114, domain.tasks().size());
        String userTools = PyJson.dumps(PyList.of(domain.userToolSchemas()));
        for (Value tv : tasks) {
            PyDict t = tv.asDict();
            String id = t.get("task_id").asStr();
            assertEquals(t.get("user_system_prompt").asStr(), domain.userSystemPrompt(domain.task(id)), "task " + id);
            assertEquals(PyJson.dumps(t.get("user_tools")), userTools, "task " + id);
        }
    }

    @Test
    void onlyTheBaseTasksAreHere() {
        assertEquals(74, domain.split("train").size());
        assertEquals(40, domain.split("test").size());
        assertEquals(114, domain.split("base").size());
        assertEquals(List.of("train", "test", "base"), domain.availableSplits());
        IllegalArgumentException full = assertThrows(IllegalArgumentException.class, () -> domain.split("full"));
        assertTrue(
                full.getMessage().contains("names 2285 tasks but only 114 of them are available"), full.getMessage());
        assertTrue(full.getMessage().contains("tasks_full.json (the full task set) is not present"), full.getMessage());
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class, () -> domain.split("small"));
        assertTrue(small.getMessage().contains("names 20 tasks but only 0"), small.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> domain.split("nope"));
        assertTrue(none.getMessage().contains("Invalid task split name: nope"), none.getMessage());
    }
}
