package brokkr.domains.synthetic.parallel;

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
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parallel discrimination (zsmith's agentParallelismBenchmark): the inverse of pointer chasing.
 * Every id is listed up front and the lookups are independent, so an agent that sees it issues all
 * {@code lookup} calls in one turn; the executor runs one turn's calls concurrently and the tool
 * gauges its own concurrency.
 *
 * <p>Scoring, precisely: {@code calls} counts every {@code lookup} call (duplicates, unknown ids
 * and malformed arguments too); {@code turns} counts the assistant messages with at least one
 * {@code lookup} call; {@code maxConcurrency} is the gauge's reading; {@code correct=yes} iff every
 * id had a successful lookup and every value is one of the final answer's tokens (split on
 * whitespace and commas, as zsmith ParallelDiscriminationBenchmark.parse does). Extra tokens do not
 * make it wrong: the gate confirms the lookups were done and reported, not the answer's format.
 */
public final class ParallelDiscrimination {
    private ParallelDiscrimination() {}

    public static final String TOOL = "lookup";
    public static final String USER_PROMPT = "go";

    public static String systemPrompt(LookupTable table) {
        return """
               The lookup tool gives you the value of an id; it answers value=<token>.

               I need the values of these %d ids:
               %s

               Once you have all of them, reply with ONLY the values, separated by spaces, in any
               order: no ids, no labels, no other words.
               """.formatted(table.tasks(), String.join(", ", table.ids()));
    }

    public static List<Message> opening(LookupTable table) {
        return List.of(new Message.System(systemPrompt(table)), new Message.User(USER_PROMPT));
    }

    public static final ToolSpec SPEC = SyntheticTools.oneStringParam(
            TOOL,
            "Returns the value of an id as 'value=<token>'. Each id is independent of the others.",
            "id",
            "The id to look up");

    public static final List<ToolSpec> TOOLS = List.of(SPEC);

    static final ToolSet TOOL_SET = new ToolSet(List.of(new ToolDef(
            TOOL,
            TOOL,
            List.of(Param.required("id")),
            (world, args) -> {
                String id = SyntheticTools.text(args.get("id"));
                if (!(world.get().asDict().get(id) instanceof PyStr value)) {
                    throw new PyException("LookupError", "unknown id '" + id + "'.");
                }
                return new PyStr("value=" + value.value());
            },
            false)));

    /** The lookup tool on the table, without the gauge. */
    public static ToolHandler handler(LookupTable table) {
        return SyntheticTools.readOnly(TOOL_SET, table.values());
    }

    /** A serial agent needs one step per lookup plus one to answer; zsmith allows {@code tasks + 20}. */
    public static int maxSteps(int tasks) {
        return tasks + 20;
    }

    /** One run: the table's lookups behind {@code gauge}, each turn's calls on concurrent virtual threads. */
    public static Transcript play(LookupTable table, Candidate candidate, ConcurrencyGauge gauge) {
        return new AgentLoop(maxSteps(table.tasks()))
                .run(candidate, opening(table), TOOLS, ToolExecutor.concurrent(gauge.wrap(handler(table))));
    }

    public static ParallelResult score(LookupTable table, Transcript transcript, int maxConcurrency) {
        int calls = 0, turns = 0;
        for (Message.Assistant a : transcript.assistantMessages()) {
            long n = a.toolCalls().stream().filter(c -> c.name().equals(TOOL)).count();
            calls += (int) n;
            if (n > 0) turns++;
        }
        Set<String> found = new HashSet<>();
        for (SyntheticTools.Answered a : SyntheticTools.answeredCalls(transcript.messages(), TOOL)) {
            Value id = a.call().arguments().get("id");
            if (a.ok() && id instanceof PyStr s) found.add(s.value());
        }
        String answer = transcript.finalAnswer();
        Set<String> tokens = answer == null
                ? Set.of()
                : new HashSet<>(Arrays.asList(answer.trim().split("[\\s,]+")));
        boolean correct = found.containsAll(table.ids()) && tokens.containsAll(table.valueList());
        return new ParallelResult(table.tasks(), calls, turns, maxConcurrency, correct);
    }
}
