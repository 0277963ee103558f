package brokkr.domains.synthetic.loop;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.ToolHandler;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.domains.synthetic.SyntheticTools;
import brokkr.python.PyException;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolSet;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import java.util.List;

/**
 * Pointer chasing (zsmith's agentLoopBenchmark): stamina at a long serial tool loop. The agent gets
 * the start key and must call {@code follow_pointer} once per hop, each key read from the previous
 * result, until the next key is {@code END}, then answer with the fragments concatenated in order.
 *
 * <p>Scoring, precisely: {@code toolCalls} is the number of {@code follow_pointer} calls the agent
 * made, whatever their arguments (an unknown key, a malformed or missing argument each count: the
 * agent spent a hop on them); calls of other tool names do not count. {@code actual} is the final
 * answer with all whitespace removed (zsmith PointerChasingBenchmark.score), or empty when the run
 * ended without an answer (step limit). PASS iff {@code actual} equals the secret <em>and</em>
 * {@code toolCalls == depth}: a retried or wandering walk ({@code toolCalls > depth}) that still
 * assembles the secret is a loop-following failure, as the benchmark's README defines it.
 */
public final class PointerChasing {
    private PointerChasing() {}

    public static final String TOOL = "follow_pointer";

    public static final String USER_PROMPT = "go";

    /** zsmith passes the instructions as the system prompt and just "go" as the user message. */
    public static String systemPrompt(PointerChain chain) {
        return """
               Your task is to follow a chain of pointers and reconstruct a hidden secret.

               The first key is "%s".
               Do this over and over:
                 1. Call follow_pointer with the current key.
                 2. It answers: fragment=<value> next=<key>.
                 3. Append <value> to the secret you are collecting, keeping the order.
                 4. If next is END, you are done. Otherwise the current key becomes <key>; go to 1.

               When you are done, reply with ONLY the collected fragments concatenated in the order
               you received them: no spaces, no separators, no other words.
               """.formatted(chain.start());
    }

    public static List<Message> opening(PointerChain chain) {
        return List.of(new Message.System(systemPrompt(chain)), new Message.User(USER_PROMPT));
    }

    public static final ToolSpec SPEC = SyntheticTools.oneStringParam(
            TOOL,
            "Returns the hop at a key as 'fragment=<value> next=<key>'. When next=END the chain is complete.",
            "key",
            "The current key of the chain");

    public static final List<ToolSpec> TOOLS = List.of(SPEC);

    /** follow_pointer(key) on the chain's hops; an unknown key is an error result (and still a call). */
    static final ToolSet TOOL_SET = new ToolSet(List.of(new ToolDef(
            TOOL,
            TOOL,
            List.of(Param.required("key")),
            (world, args) -> {
                String key = SyntheticTools.text(args.get("key"));
                if (!(world.get().asDict().get(key) instanceof PyDict hop)) {
                    throw new PyException(
                            "LookupError", "unknown key '" + key + "'. Re-check the previous next value.");
                }
                return new PyStr("fragment=" + hop.get("fragment").asStr() + " next="
                        + hop.get("next").asStr());
            },
            false)));

    public static ToolHandler handler(PointerChain chain) {
        return SyntheticTools.readOnly(TOOL_SET, chain.hops());
    }

    /**
     * The walk needs one step per hop plus one to answer; 20 more absorb stray steps (a retry after an
     * unknown-key error), as zsmith's agentLoopBenchmark sets {@code maxIterations = depth + 20}.
     */
    public static int maxSteps(int depth) {
        return depth + 20;
    }

    public static Transcript play(PointerChain chain, Candidate candidate) {
        return new AgentLoop(maxSteps(chain.depth()))
                .run(candidate, opening(chain), TOOLS, ToolExecutor.sequential(handler(chain)));
    }

    public static LoopResult score(PointerChain chain, Transcript transcript) {
        int calls = (int) transcript.toolCalls().stream()
                .filter(c -> c.name().equals(TOOL))
                .count();
        String answer = transcript.finalAnswer();
        String actual = answer == null ? "" : answer.replaceAll("\\s", "");
        boolean passed = actual.equals(chain.secret()) && calls == chain.depth();
        return new LoopResult(chain.depth(), calls, passed, chain.secret(), actual);
    }
}
