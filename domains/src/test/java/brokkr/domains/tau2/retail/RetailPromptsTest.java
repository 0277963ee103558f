package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** Prompts and tool schemas, byte for byte against upstream's (conformance/tau2/retail/prompts.json). */
class RetailPromptsTest {
    static RetailDomain domain;
    static PyDict prompts;

    @BeforeAll
    static void load() {
        domain = new RetailDomain(new Tau2Data(SharedDirs.tau2Data()));
        prompts = Json.read(SharedDirs.conformance("retail", "prompts.json")).asDict();
    }

    @Test
    void agentSystemPrompt() {
        assertEquals(prompts.get("agent_system_prompt").asStr(), domain.agentSystemPrompt());
    }

    @Test
    void agentToolSchemas() {
        PyList expected = prompts.get("agent_tools").asList();
        List<Value> actual = domain.agentToolSchemas();
        assertEquals(16, actual.size());
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            // key order included: compare the json.dumps texts
            assertEquals(PyJson.dumps(expected.get(i)), PyJson.dumps(actual.get(i)), "schema " + i);
        }
        assertEquals(PyJson.dumps(expected), PyJson.dumps(PyList.of(actual)));
        assertEquals(true, prompts.get("user_tools_all").isNone());
    }

    @Test
    void userSystemPrompts() {
        PyList tasks = prompts.get("tasks").asList();
        assertEquals(114, tasks.size());
        assertEquals(114, domain.tasks().size());
        for (Value tv : tasks) {
            PyDict t = tv.asDict();
            String id = t.get("task_id").asStr();
            assertEquals(t.get("user_system_prompt").asStr(), domain.userSystemPrompt(domain.task(id)), "task " + id);
            assertEquals(true, t.get("user_tools").isNone(), "task " + id);
        }
    }

    @Test
    void splits() {
        assertEquals(74, domain.split("train").size());
        assertEquals(40, domain.split("test").size());
        assertEquals(114, domain.split("base").size());
    }
}
