package brokkr.eval;

import brokkr.agent.ToolHandler;
import brokkr.agent.ToolResult;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.FileDiff;
import java.util.List;
import java.util.Optional;

/**
 * A forked world and the agent's tools on it, for calling tools by hand. Worlds are values: a call
 * returns its result and the world after it, and leaves this world as it was, so two forks of one task
 * never see each other's calls.
 */
public interface ToolWorld {
    /** The world's state (what {@link brokkr.world.WorldHash} hashes and a diff compares). */
    Value state();

    /** The agent's tool names, in the benchmark's order. */
    List<String> tools();

    /**
     * The agent's tools as the domain offers them to an agent (name, description, JSON-schema parameters), in
     * {@link #tools()}'s order: what an MCP client lists ({@code ./brokkr mcp serve}). By default each name with an
     * object schema that says nothing of its parameters, for a domain whose forks do not carry their schemas.
     */
    default List<ToolSpec> toolSpecs() {
        return tools().stream()
                .map(name -> new ToolSpec(name, "", PyDict.of("type", "object")))
                .toList();
    }

    /**
     * What changed from {@code before} (an earlier world of this fork) to this world as files, for a world that is
     * a file tree (the wiki's workspace): each file added, changed or removed, with its unified diff; empty for a
     * world that is not (its structural {@link brokkr.world.WorldDiff} says what changed).
     */
    default Optional<List<FileDiff.Change>> fileChanges(ToolWorld before) {
        return Optional.empty();
    }

    /** Calls {@code tool} with keyword arguments; an unknown tool or a failing call is an error result. */
    Step call(String tool, PyDict args);

    /** What one call answered and the world it left. */
    record Step(ToolResult result, ToolWorld after) {}

    /** A world no call changes (the synthetic benchmarks' chain and table): a call's world after is this one. */
    static ToolWorld readOnly(Value state, List<String> tools, ToolHandler handler) {
        List<String> names = List.copyOf(tools);
        return new ToolWorld() {
            @Override
            public Value state() {
                return state;
            }

            @Override
            public List<String> tools() {
                return names;
            }

            @Override
            public Step call(String tool, PyDict args) {
                return new Step(handler.handle(new ToolCall("call_0", tool, args, PyJson.dumps(args), null)), this);
            }
        };
    }
}
