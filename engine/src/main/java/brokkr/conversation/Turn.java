package brokkr.conversation;

import java.util.List;

/** A candidate's next message plus every model-call attempt made to produce it. */
public record Turn(Message.Assistant message, List<ModelCall> calls) {
    public Turn {
        calls = List.copyOf(calls);
    }

    public static Turn of(Message.Assistant message) {
        return new Turn(message, List.of());
    }
}
