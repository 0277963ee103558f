package brokkr.domains.wiki;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scripted wiki author: writes its pages one {@code write_file} call per step, in path order, then answers
 * "done". A pure function of the conversation (how many of its calls were answered), so it also works behind a
 * wire as a model.
 */
public record PageWriter(List<Map.Entry<String, String>> pages) implements Candidate {
    public PageWriter(Map<String, String> pages) {
        this(new ArrayList<>(new java.util.TreeMap<>(pages).entrySet()));
    }

    public PageWriter {
        pages = List.copyOf(pages);
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        int written = 0;
        for (Message m : history) if (m instanceof Message.Tool t && t.name().equals("write_file")) written++;
        if (written >= pages.size()) return Turn.of(new Message.Assistant("done"));
        Map.Entry<String, String> page = pages.get(written);
        PyDict args = PyDict.of("path", page.getKey(), "content", page.getValue());
        return Turn.of(new Message.Assistant(
                null, List.of(new ToolCall("call_" + (written + 1), "write_file", args, PyJson.dumps(args), null))));
    }
}
