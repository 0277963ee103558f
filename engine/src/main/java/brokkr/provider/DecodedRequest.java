package brokkr.provider;

import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.value.PyDict;
import java.util.List;

/**
 * A request body read back into Brokkr terms, as a server sees it: the model named, the conversation
 * (system prompt first) and the tools on offer, plus the raw body for anything else (options).
 */
public record DecodedRequest(String model, List<Message> history, List<ToolSpec> tools, PyDict body) {
    public DecodedRequest {
        history = List.copyOf(history);
        tools = List.copyOf(tools);
    }
}
