package brokkr.domains.eval;

import brokkr.conversation.Candidate;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.parallel.Batcher;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.value.PyInt;
import brokkr.value.Value;

/**
 * The synthetic benchmarks' scripted candidates as model provider {@code synthetic}, so experiments
 * can run them without a model: {@code ideal}, {@code early-stop} (option {@code stop_after}, default
 * 5 calls), {@code retry} (option {@code repeat_at}, default call 1) for {@code loop};
 * {@code batch} and {@code serial} for {@code parallel}. Each is a pure function of the conversation,
 * safe to share between cells.
 */
public final class SyntheticModels implements ModelFactory {
    @Override public String provider() { return "synthetic"; }

    @Override public Candidate create(ModelRef ref) {
        return switch (ref.model()) {
            case "ideal" -> LoopFollower.ideal();
            case "early-stop" -> LoopFollower.earlyStop(option(ref, "stop_after", 5));
            case "retry" -> LoopFollower.retry(option(ref, "repeat_at", 1));
            case "batch" -> Batcher.batch();
            case "serial" -> Batcher.serial();
            default -> throw new IllegalArgumentException("unknown synthetic model '" + ref.model()
                    + "' (ideal, early-stop, retry for loop; batch, serial for parallel)");
        };
    }

    private static int option(ModelRef ref, String key, int dflt) {
        Value v = ref.options().get(key);
        if (v == null) return dflt;
        if (v instanceof PyInt i && i.longValue() >= 1) return (int) i.longValue();
        throw new IllegalArgumentException("synthetic/" + ref.model() + ": option " + key + " must be a positive integer");
    }
}
