package brokkr.domains.synthetic.loop;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.SyntheticTools;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted pointer chaser: a pure function of the conversation, reading the start key from the
 * system prompt and each next key from the previous tool result, as a model would. It never looks
 * at the chain itself, so it also works behind a wire (the end-to-end tests serve it as a model).
 *
 * @param name      for the CLI's {@code --candidate}
 * @param stopAfter answers (with what it has) once it has made this many calls
 * @param repeatAt  right after its call number {@code repeatAt} (1-based) it calls the same key once
 *                  more, then carries on; 0 for never. The repeated fragment is collected once.
 */
public record LoopFollower(String name, int stopAfter, int repeatAt) implements Candidate {
    public static final List<String> NAMES = List.of("ideal", "early-stop", "retry");

    /** Calls follow_pointer exactly once per hop and answers with the secret. */
    public static LoopFollower ideal() {
        return new LoopFollower("ideal", Integer.MAX_VALUE, 0);
    }

    /** Stops walking after {@code hops} calls and answers with the fragments it has. */
    public static LoopFollower earlyStop(int hops) {
        return new LoopFollower("early-stop", hops, 0);
    }

    /** Calls the key of hop {@code hop} twice, otherwise ideal: the right secret in one call too many. */
    public static LoopFollower retry(int hop) {
        return new LoopFollower("retry", Integer.MAX_VALUE, hop);
    }

    /** The CLI's candidates for a depth: the early stopper stops after half the hops, the retrier repeats the middle hop. */
    public static LoopFollower named(String name, int depth) {
        return switch (name) {
            case "ideal" -> ideal();
            case "early-stop" -> earlyStop(depth / 2);
            case "retry" -> retry(Math.max(1, depth / 2));
            default ->
                throw new IllegalArgumentException("unknown loop candidate '" + name + "' (one of " + NAMES + ")");
        };
    }

    static final Pattern START = Pattern.compile("first key is \"([^\"]+)\"");
    static final Pattern HOP = Pattern.compile("fragment=(\\S*) next=(\\S+)");

    /** One answered call: the key it asked for and, when it succeeded, what it revealed. */
    record Step(String key, String fragment, String next) {
        boolean ok() {
            return next != null;
        }

        static Step of(ToolCall call, Message.Tool result) {
            String key = call.arguments().get("key") instanceof PyStr s ? s.value() : null;
            boolean ok = result != null && !result.error() && result.content() != null;
            Matcher m = ok ? HOP.matcher(result.content()) : null;
            return m != null && m.matches() ? new Step(key, m.group(1), m.group(2)) : new Step(key, null, null);
        }
    }

    /** How many calls the walk has made and the last one, as read from the conversation. */
    record Walk(int made, Step last) {}

    /**
     * Decides from the end of the conversation: the number of calls made and the last call's result
     * are all a step needs, so a walk of n hops reads O(n) messages in all, not O(n^2) (the whole
     * conversation is read once, to assemble the answer).
     */
    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        Walk walk = walk(history);
        if (walk.made() >= stopAfter) return answer(history);
        if (walk.made() == 0) return call(startKey(history), 1);
        Step last = walk.last();
        if (last.ok() && walk.made() == repeatAt) return call(last.key(), walk.made() + 1);
        if (!last.ok() || last.next().equals(PointerChain.END)) return answer(history);
        return call(last.next(), walk.made() + 1);
    }

    /**
     * The walk so far. In the follower's own conversation, the opening (no assistant message) is
     * followed by one (assistant message with one follow_pointer call, its tool result) pair per
     * call, so the count is positional and the last step is the last pair; any other conversation
     * (another agent's messages, a call without its result) is read in full.
     */
    static Walk walk(List<Message> history) {
        int n = history.size();
        int opening = 0;
        while (opening < n && !(history.get(opening) instanceof Message.Assistant)) opening++;
        int rest = n - opening;
        if (rest == 0) return new Walk(0, null);
        if (rest % 2 == 0
                && history.get(n - 2) instanceof Message.Assistant a
                && a.toolCalls().size() == 1
                && a.toolCalls().getFirst().name().equals(PointerChasing.TOOL)
                && history.get(n - 1) instanceof Message.Tool t
                && Objects.equals(t.toolCallId(), a.toolCalls().getFirst().id())) {
            return new Walk(rest / 2, Step.of(a.toolCalls().getFirst(), t));
        }
        List<Step> steps = steps(history);
        return new Walk(steps.size(), steps.isEmpty() ? null : steps.getLast());
    }

    /** Every follow_pointer call of the conversation with what it revealed. */
    static List<Step> steps(List<Message> history) {
        List<Step> steps = new ArrayList<>();
        for (SyntheticTools.Answered a : SyntheticTools.answeredCalls(history, PointerChasing.TOOL))
            steps.add(Step.of(a.call(), a.result()));
        return steps;
    }

    static String startKey(List<Message> history) {
        for (Message m : history) {
            if (m instanceof Message.System s) {
                Matcher k = START.matcher(s.content());
                if (k.find()) return k.group(1);
            }
        }
        throw new IllegalStateException("no start key in the system prompt");
    }

    static Turn call(String key, int n) {
        PyDict args = PyDict.of("key", key);
        return Turn.of(new Message.Assistant(
                null,
                List.of(new ToolCall(SyntheticTools.callId(n), PointerChasing.TOOL, args, PyJson.dumps(args), null))));
    }

    /** The fragments in order; a hop asked for twice in a row is collected once. */
    static Turn answer(List<Message> history) {
        List<Step> steps = steps(history);
        StringBuilder secret = new StringBuilder();
        String previousKey = null;
        for (Step s : steps) {
            if (s.ok() && !Objects.equals(s.key(), previousKey)) secret.append(s.fragment());
            previousKey = s.key();
        }
        return Turn.of(new Message.Assistant(secret.toString()));
    }
}
