package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.function.Supplier;

/**
 * A tau2 world in the run's fork: the agent DB, or {@code {"db", "user_db"}} for domains whose user has a
 * DB of its own, with {@code "session"} for domains that keep state outside their DBs (telecom); the world
 * setup (upstream {@code set_state}) and the replay of a record's tool calls.
 */
final class Tau2Fork {
    private Tau2Fork() {}

    static Value encode(Worlds w) {
        if (w.userDb() == null && w.session() == null) return w.db();
        PyDict.Builder b = PyDict.builder().put("db", w.db());
        if (w.userDb() != null) b.put("user_db", w.userDb());
        if (w.session() != null) b.put("session", w.session());
        return b.build();
    }

    /** The fork's value as worlds, shaped like the task's initial worlds. */
    static Worlds decode(Value v, Worlds initial) {
        if (initial.userDb() == null && initial.session() == null) return new Worlds(v, null);
        PyDict d = v.asDict();
        return new Worlds(d.get("db"), d.get("user_db"), d.get("session"));
    }

    /** The task's initial world into the fork; the evidence is its hashes (kept for the attempt's protocol and evaluator). */
    static WorldSetup setup(Supplier<Tau2Domain> domain) {
        return (env, fork) -> {
            Tau2Domain d = domain.get();
            EpisodeEnvironment<Worlds> e = d.environment();
            Worlds w = e.initialWorld(d.task(env.taskId()));
            Value encoded = encode(w);
            fork.set(encoded);
            String hash = e.dbHash(w);
            PyDict evidence = PyDict.of("initial_db_hash", hash, "initial_user_db_hash", nullable(e.userDbHash(w)));
            Tau2AttemptMemo.setUp(evidence, encoded, w, hash);
            return evidence;
        };
    }

    /**
     * Replays the record's tool calls from the task's initial world: each message whose tool calls the
     * environment answered (the transcript has their results next) runs as one step, as the orchestrator
     * ran it, followed by {@code sync_tools}; calls that never reached the environment (a malformed call
     * that ended the episode) are not replayed.
     */
    static WorldReplay replay(Supplier<Tau2Domain> domain) {
        return (env, evidence) -> {
            Tau2Domain d = domain.get();
            EpisodeEnvironment<Worlds> e = d.environment();
            Worlds w = e.initialWorld(d.task(env.taskId()));
            List<Tau2Message> t = Tau2Transcript.fromValue(evidence.transcript());
            for (int i = 0; i < t.size(); i++) {
                if (t.get(i) instanceof Tau2Message.Participant p
                        && p.isToolCall()
                        && i + 1 < t.size()
                        && t.get(i + 1) instanceof Tau2Message.ToolResult) {
                    Requestor requestor = p instanceof Tau2Message.Agent ? Requestor.ASSISTANT : Requestor.USER;
                    List<EpisodeEnvironment.Call> calls = p.toolCalls().stream()
                            .map(c -> new EpisodeEnvironment.Call(c.name(), c.arguments()))
                            .toList();
                    w = e.sync(e.respondAll(w, requestor, calls).world());
                }
            }
            return encode(e.sync(w));
        };
    }

    static Value nullable(String s) {
        return s == null ? PyNone.NONE : new PyStr(s);
    }
}
