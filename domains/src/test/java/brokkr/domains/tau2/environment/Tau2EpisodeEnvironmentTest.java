package brokkr.domains.tau2.environment;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.python.PyException;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The adapter runs sync_tools exactly where upstream's get_response does, and none on the gold path. */
class Tau2EpisodeEnvironmentTest {
    final AtomicInteger syncs = new AtomicInteger();

    // "bump" adds 1 to n, "boom" writes n = -1 and then raises (a partial write).
    final Tau2Toolkit kit = Tau2Toolkit.builder(
                    "Kit",
                    List.of(
                            new ToolSchema.ToolDoc("bump", "Bump.", null, List.of()),
                            new ToolSchema.ToolDoc("boom", "Boom.", null, List.of())))
            .bodies(java.util.Map.<String, brokkr.tool.ToolFunction>of(
                    "bump",
                            (cell, args) -> {
                                PyDict d = cell.get().asDict();
                                cell.set(d.with("n", PyInt.of(((PyInt) d.get("n")).longValue() + 1)));
                                return new PyStr("bumped");
                            },
                    "boom",
                            (cell, args) -> {
                                cell.set(cell.get().asDict().with("n", PyInt.of(-1)));
                                throw PyException.valueError("boom");
                            }))
            .mutating(Set.of("bump", "boom"))
            .build();

    final TaskSpec task = TaskSpec.parse(Json.parse("""
            {"id": "1", "evaluation_criteria": {"actions": [
              {"action_id": "0", "name": "bump", "arguments": {}}, {"action_id": "1", "name": "boom", "arguments": {}},
              {"action_id": "2", "name": "bump", "arguments": {}}], "reward_basis": ["DB"]}}""").asDict());

    final Tau2EpisodeEnvironment env = new Tau2EpisodeEnvironment(
            kit,
            null,
            w -> {
                syncs.incrementAndGet();
                return w;
            },
            t -> new Tau2Environment(kit, PyDict.of("n", 0), null, null, w -> {
                syncs.incrementAndGet();
                return w;
            }),
            t -> List.of());

    @Test
    void oneStepSyncsAfterEachCallThatDidNotRaise() {
        Worlds w = env.initialWorld(task);
        syncs.set(0);
        EpisodeEnvironment.Step<Worlds> step = env.respondAll(
                w,
                Requestor.ASSISTANT,
                List.of(
                        new EpisodeEnvironment.Call("boom", PyDict.empty()),
                        new EpisodeEnvironment.Call("bump", PyDict.empty()),
                        new EpisodeEnvironment.Call("nope", PyDict.empty())));
        assertEquals(2, syncs.get(), "one when the environment is built (a no-op on a synced world), one after 'bump'");
        assertEquals(
                List.of("Error: boom", "bumped", "Error: Tool 'nope' not found."),
                step.responses().stream()
                        .map(EpisodeEnvironment.Response::content)
                        .toList());
        assertEquals(PyInt.of(0), step.world().db().asDict().get("n"), "boom's partial write stays, bump adds one");
        assertEquals(new PyStr("Bump."), new PyStr(env.agentTools().get(0).description()));
    }

    @Test
    void goldReplaySwallowsErrorsAndNeverSyncsBetweenActions() {
        syncs.set(0);
        EpisodeEnvironment.GoldReplay<Worlds> gold = env.goldReplay(task);
        assertEquals(1, syncs.get(), "only Environment.__init__'s");
        assertEquals(List.of("boom: boom"), gold.errors());
        assertEquals(PyInt.of(0), gold.world().db().asDict().get("n"));
        assertEquals(env.dbHash(gold.world()), env.dbHash(new Worlds(PyDict.of("n", 0), null)));
        assertNull(env.userDbHash(gold.world()));
    }
}
