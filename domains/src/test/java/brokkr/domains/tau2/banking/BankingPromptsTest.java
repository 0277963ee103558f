package brokkr.domains.tau2.banking;

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

/** Prompts and tool schemas of the bm25 variant, byte for byte against upstream's (conformance/tau2/banking_knowledge/prompts.json). */
class BankingPromptsTest {
    static BankingDomain domain;
    static PyDict prompts;

    @BeforeAll
    static void load() {
        domain = new BankingDomain(new Tau2Data(SharedDirs.tau2Data()));
        prompts = Json.read(SharedDirs.conformance("banking_knowledge", "prompts.json"))
                .asDict();
    }

    @Test
    void agentSystemPrompt() {
        assertEquals(
                "bm25",
                prompts.get("env_kwargs").asDict().get("retrieval_variant").asStr());
        assertEquals(prompts.get("agent_system_prompt").asStr(), domain.agentSystemPrompt());
    }

    private static void sameSchemas(PyList expected, List<Value> actual, int count) {
        assertEquals(count, actual.size());
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++)
            assertEquals(PyJson.dumps(expected.get(i)), PyJson.dumps(actual.get(i)), "schema " + i);
    }

    @Test
    void agentToolSchemas() {
        sameSchemas(prompts.get("agent_tools").asList(), domain.agentToolSchemas(), 15);
    }

    @Test
    void userToolSchemas() {
        sameSchemas(prompts.get("user_tools_all").asList(), domain.userToolkit().openaiSchemas(), 6);
    }

    @Test
    void userSystemPromptsAndToolsPerTask() {
        PyList tasks = prompts.get("tasks").asList();
        assertEquals(97, tasks.size());
        assertEquals(97, domain.tasks().size());
        for (Value tv : tasks) {
            PyDict t = tv.asDict();
            String id = t.get("task_id").asStr();
            assertEquals(t.get("user_system_prompt").asStr(), domain.userSystemPrompt(domain.task(id)), "task " + id);
            Value expected = t.get("user_tools");
            List<Value> actual = domain.userToolSchemas(domain.task(id));
            assertEquals(
                    PyJson.dumps(expected),
                    PyJson.dumps(expected.isNone() && actual.isEmpty() ? expected : PyList.of(actual)),
                    "task " + id);
        }
    }

    @Test
    void discoverableToolsAreCallableButNotListed() {
        assertEquals(
                44,
                Discoverable.agent().size(),
                "43 agent-discoverable tools and the placeholder example_agent_tool_0000");
        assertEquals(4, Discoverable.users().size());
        var kit = domain.toolkit(null);
        assertEquals(15 + 44, kit.defs().size());
        assertEquals(15, kit.openaiSchemas().size());
    }
}
