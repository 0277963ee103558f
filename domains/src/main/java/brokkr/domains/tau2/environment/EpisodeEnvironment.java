package brokkr.domains.tau2.environment;

import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.value.PyDict;
import java.util.List;

/**
 * What the episode protocol and the grader need from a tau2 domain, as pure functions over immutable
 * world values of type {@code W} (upstream's {@code Environment}, {@code src/tau2/environment/environment.py}, mutates
 * one object; here every call returns the next world, so forking and replay are free).
 */
public interface EpisodeEnvironment<W> {

    /** The agent's tools in upstream order ({@code env.get_tools()}), as the model sees them. */
    List<ToolSpec> agentTools();

    /** The user simulator's tools for this task; empty when it has none (upstream {@code tools=None}). */
    List<ToolSpec> userTools(TaskSpec task);

    /**
     * A fresh environment with the task's initial state applied ({@code Environment.set_state} with the
     * task's initialization data and actions, no message history).
     */
    W initialWorld(TaskSpec task);

    /**
     * {@link #initialWorld(TaskSpec)} for the next recorded episode of a run or corpus that one process
     * recorded, after an earlier episode's environments ended in {@code previousEpisodeEnd} (null: a fresh
     * process): state upstream keeps outside its DBs carries over (telecom's class-level VPN details), except
     * what the oracle restarts per episode (telecom's bill-id counter, shared/conformance/tau2/README.md).
     */
    default W initialWorld(TaskSpec task, W previousEpisodeEnd) {
        return initialWorld(task);
    }

    /**
     * {@code Environment.get_response(ToolCall(...))}: dispatch by requestor, {@code "Error: " + str(e)}
     * contents for raised exceptions, {@code sync_tools()} only after a call that did not raise.
     */
    Response<W> respond(W world, Requestor requestor, String name, PyDict arguments);

    /**
     * The tool calls of one message, in order ({@code Orchestrator._execute_tool_calls}): each call sees
     * the world the previous one left. Domains whose environment object must persist across the calls of
     * one step (no extra {@code sync_tools} between them) override this.
     */
    default Step<W> respondAll(W world, Requestor requestor, List<Call> calls) {
        List<Response<W>> out = new java.util.ArrayList<>(calls.size());
        W w = world;
        for (Call c : calls) {
            Response<W> r = respond(w, requestor, c.name(), c.arguments());
            w = r.world();
            out.add(r);
        }
        return new Step<>(w, out);
    }

    /** One tool call to execute: its name and keyword arguments. */
    record Call(String name, PyDict arguments) {}

    /** The world after all calls of a step, and each call's response in order. */
    record Step<W>(W world, List<Response<W>> responses) {
        public Step {
            responses = List.copyOf(responses);
        }
    }

    /**
     * {@code Environment.sync_tools()}, which the orchestrator runs after every step; identity where a
     * domain has none. It raises where upstream's does (the orchestrator's step then fails).
     */
    default W sync(W world) {
        return world;
    }

    /**
     * The grader's gold environment ({@code EnvironmentEvaluator.calculate_reward}): a fresh environment
     * with the task's initial state, then {@code make_tool_call} per gold action in order, WITHOUT
     * {@code sync_tools}, each exception swallowed (the world keeps what the failed call wrote).
     */
    GoldReplay<W> goldReplay(TaskSpec task);

    /**
     * The grader's gold environment built after the episode that ended in {@code episodeEnd}, in the same
     * process: state the domain keeps outside its DBs carries over (telecom's bill-id draws continue, so
     * the gold replay's new bills get other ids than the episode's, as upstream's random ids always do).
     */
    default GoldReplay<W> goldReplay(TaskSpec task, W episodeEnd) {
        return goldReplay(task);
    }

    /**
     * The grader's predicted environment as upstream re-grades a recorded trajectory
     * ({@code EnvironmentEvaluator.calculate_reward} → {@code Environment.set_state(..., message_history=trajectory,
     * strict)}, {@code src/tau2/environment/environment.py}): a fresh environment with the task's initial state, in
     * the process {@code sameProcessAs} left (state kept outside the DBs carries over, as
     * {@link #goldReplay(TaskSpec, Object)}), then every recorded call in order: a name neither toolkit has is
     * skipped, a tool whose {@code mutates_state} is false is skipped, every other call goes through
     * {@code get_response} with its recorded requestor and its content is compared with the recorded one after
     * {@code json.loads} of both (a plain string comparison where that fails); one {@code sync_tools()} at the end.
     * Where upstream's strict replay would raise, the difference is listed instead.
     */
    default GradingReplay<W> gradingReplay(TaskSpec task, W sameProcessAs, List<RecordedCall> calls) {
        throw new UnsupportedOperationException("this domain does not replay recorded trajectories");
    }

    /**
     * Upstream {@code get_tool_types(env.tools)} updated with the user toolkit's: a tool's {@code ToolType}
     * value ({@code "read"}, {@code "write"}, ...), null for a name neither toolkit has.
     */
    default String toolType(String name) {
        return null;
    }

    /** A tool call of a recorded trajectory with the content its {@code ToolMessage} recorded. */
    record RecordedCall(Requestor requestor, String name, PyDict arguments, String content) {}

    /** The predicted world and, per replayed call whose content differs from the recorded one, a description. */
    record GradingReplay<W>(W world, List<String> differences) {
        public GradingReplay {
            differences = List.copyOf(differences);
        }
    }

    /** {@code Environment.get_db_hash()}. */
    String dbHash(W world);

    /** {@code Environment.get_user_db_hash()}; null for domains without a user DB. */
    String userDbHash(W world);

    /** {@code Environment.run_env_assertion(assertion, raise_assertion_error=False)}: result and next world. */
    default AssertionOutcome<W> envAssertion(W world, EnvAssertion assertion) {
        throw new UnsupportedOperationException("this domain has no env assertions (" + assertion.funcName() + ")");
    }

    /** The result of one tool call: the next world, the tool message content and its error flag. */
    record Response<W>(W world, String content, boolean error) {}

    /** The gold world and, per swallowed exception, {@code "<tool>: <str(e)>"}. */
    record GoldReplay<W>(W world, java.util.List<String> errors) {
        public GoldReplay {
            errors = java.util.List.copyOf(errors);
        }
    }

    /** An assertion's result and the world after it; {@code error} is what its function raised (then not met), else null. */
    record AssertionOutcome<W>(W world, boolean met, String error) {
        public AssertionOutcome(W world, boolean met) {
            this(world, met, null);
        }
    }
}
