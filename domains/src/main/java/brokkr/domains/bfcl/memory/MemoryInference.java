package brokkr.domains.bfcl.memory;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.MultiTurnInference;
import brokkr.domains.bfcl.multiturn.MultiTurnTools;
import brokkr.domains.bfcl.multiturn.World;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A memory task played as upstream's inference plays its chain (base_handler {@code inference_multi_turn_FC} on each
 * entry in {@code sort_key} order): the scenario's prerequisite conversations, each a conversation of its own whose
 * first system message is {@code add_memory_instruction_system_prompt}'s (the backend's context dump as the entry's
 * instance loaded it) over the user turns of the entry, the model's calls executed against the memory backend
 * ({@link MemoryRun}), the instance flushed at the entry's end ({@code _flush_memory_to_local_file}); then the
 * question, one turn whose system message also carries the agentic answer format. Each entry is played by an
 * {@link EntryPlayer}: upstream's function-calling loop or one of Brokkr's harnesses, as for multi-turn.
 */
public final class MemoryInference {
    private MemoryInference() {}

    /** The model name of the instance variables (upstream: the handler's model name). */
    public static final String MODEL_NAME = "brokkr-memory";

    /** Plays one entry (a multi-turn task of one memory class) in {@code start}. */
    @FunctionalInterface
    public interface EntryPlayer {
        MultiTurnInference.Trajectory play(MultiTurnData.Task entry, MultiTurnTools tools, World start);
    }

    /** One played entry: its id, whether it is a prerequisite, its trajectory. */
    public record Entry(String id, boolean prereq, MultiTurnInference.Trajectory trajectory) {}

    /**
     * The chain so far: the run (its world holds the snapshot files), the entries played, and what stopped it (an
     * infrastructure failure, the cell's budget) if anything did.
     */
    public record Chain(MemoryRun run, List<Entry> entries, InfrastructureFailure failure, boolean cellBudget) {
        public Chain {
            entries = List.copyOf(entries);
        }

        public boolean stopped() {
            return failure != null || cellBudget;
        }

        /**
         * The question's last non-call message ({@code _evaluate_single_agentic_entry}'s
         * {@code last_unsuccessful_decoding_message}): the text of the step that ended its turn, or null when no
         * step did (force-quit, stopped, or no question played).
         */
        public String answer() {
            if (entries.isEmpty() || entries.getLast().prereq()) return null;
            MultiTurnInference.Trajectory t = entries.getLast().trajectory();
            if (t.turns().isEmpty()) return null;
            List<List<String>> steps = t.turns().getLast();
            if (steps.isEmpty() || !steps.getLast().isEmpty()) return null;
            for (int i = t.messages().size() - 1; i >= 0; i--)
                if (t.messages().get(i) instanceof Message.Assistant a && !a.hasToolCalls())
                    return a.content() == null ? "" : a.content();
            return null;
        }

        /** Every entry's conversation, one after the other. */
        public List<Message> messages() {
            List<Message> out = new ArrayList<>();
            for (Entry e : entries) out.addAll(e.trajectory().messages());
            return out;
        }
    }

    /** The prerequisite entries of {@code scenario} for {@code category}, from an empty result directory. */
    public static Chain prereqs(MemoryData data, MemoryCategory category, String scenario, EntryPlayer player) {
        MemoryRun run = MemoryRun.start(category.backend(), scenario, MODEL_NAME);
        List<Entry> entries = new ArrayList<>();
        for (MemoryData.Prereq p : data.prereqs(scenario)) {
            String id = MemoryData.idFor(p.id(), category.id());
            run = run.enter(id);
            MultiTurnData.Task task = entryTask(run, id, p.userTurns(), false);
            MultiTurnInference.Trajectory t = player.play(task, data.tools(), run.world());
            entries.add(new Entry(id, true, t));
            run = run.with(t.world());
            if (t.failure() != null) return new Chain(run, entries, t.failure(), false);
            if (t.cellBudget()) return new Chain(run, entries, null, true);
            // base_handler: the prerequisite's instance is flushed after its turns, force-quit or not
            run = run.flush();
        }
        return new Chain(run, entries, null, false);
    }

    /** The question after {@code prior} (the scenario's prerequisites; a fork of it serves every question). */
    public static Chain question(
            MemoryData data, Chain prior, MemoryCategory category, MemoryData.Question q, EntryPlayer player) {
        if (prior.stopped()) return prior;
        String id = MemoryData.idFor(q.id(), category.id());
        MemoryRun run = prior.run().enter(id);
        MultiTurnData.Task task = entryTask(run, id, List.of(List.of(q.text())), true);
        MultiTurnInference.Trajectory t = player.play(task, data.tools(), run.world());
        List<Entry> entries = new ArrayList<>(prior.entries());
        entries.add(new Entry(id, false, t));
        return new Chain(run.with(t.world()), entries, t.failure(), t.cellBudget());
    }

    /** A whole task: the prerequisites, then the question. */
    public static Chain run(MemoryData data, MemoryCategory category, MemoryData.Question q, EntryPlayer player) {
        return question(data, prereqs(data, category, q.scenario(), player), category, q, player);
    }

    /**
     * Entry {@code id} (entered in {@code run}) as a multi-turn task of the one memory class: its user turns, the
     * first one opened by the memory system message; no held-out functions, no ground truth.
     */
    static MultiTurnData.Task entryTask(MemoryRun run, String id, List<List<String>> userTurns, boolean question) {
        List<Value> turns = new ArrayList<>();
        for (int i = 0; i < userTurns.size(); i++) {
            List<Value> msgs = new ArrayList<>();
            if (i == 0) msgs.add(message("system", run.systemMessage(question)));
            for (String u : userTurns.get(i)) msgs.add(message("user", u));
            turns.add(PyList.of(msgs));
        }
        return new MultiTurnData.Task(
                id,
                MemoryRun.categoryOf(id),
                PyList.of(turns),
                run.setup(id).initialConfig(),
                List.of(run.backend()),
                Map.of(),
                List.of());
    }

    private static Value message(String role, String content) {
        return PyDict.builder()
                .put("role", new PyStr(role))
                .put("content", new PyStr(content))
                .build();
    }
}
