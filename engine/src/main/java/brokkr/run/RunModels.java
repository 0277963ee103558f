package brokkr.run;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The models of one run, as one unit sees them: one candidate per model reference for the whole run
 * (opened on first use by the plan's factory), each behind its provider's gate (the policy's limits
 * hold across every unit and role), and, in a unit's {@link #recorder}, the run's cache in front of
 * the roles it covers.
 */
public final class RunModels {
    private final Shared shared;
    private final Job<?> job;
    private Evaluation.Recorder recorder;

    private RunModels(Shared shared, Job<?> job) {
        this.shared = shared;
        this.job = job;
    }

    /** The run-wide part: the open candidates and the providers' gates. */
    static final class Shared {
        private final Function<ModelRef, Candidate> factory;
        private final Policy policy;
        private final Map<String, ProviderGate> gates = new ConcurrentHashMap<>();
        private final Map<ModelRef, Gated> open = new ConcurrentHashMap<>();

        Shared(Function<ModelRef, Candidate> factory, Policy policy) {
            this.factory = factory;
            this.policy = policy;
        }

        RunModels of(Job<?> job) {
            return new RunModels(this, job);
        }

        Gated model(ModelRef ref) {
            return open.computeIfAbsent(ref, r -> {
                Candidate model = factory.apply(r);
                ProviderGate gate = gates.computeIfAbsent(r.provider(), p -> {
                    Policy.Limit limit = policy.providerLimits().get(p);
                    return limit == null ? ProviderGate.NONE : new ProviderGate(limit, policy.cancellation());
                });
                return new Gated(model, gate.wrap(model));
            });
        }
    }

    /** The run's candidate for {@code ref}, behind its provider's gate (not cached: see {@link #recorder}). */
    public Candidate model(ModelRef ref) {
        return shared.model(ref);
    }

    /** {@link #model} as the evaluation path takes it. */
    public Function<ModelRef, Candidate> models() {
        return shared::model;
    }

    /**
     * This unit's recorder (the same object each time, so a unit that times out keeps the calls it
     * made), whose models of each role go through the run's cache where it covers them (the cache sees
     * the provider's own candidate and sends a miss through the gate).
     */
    public synchronized Evaluation.Recorder recorder() {
        if (recorder == null) {
            recorder = new Evaluation.Recorder(
                    (role, m) -> m instanceof Gated g ? shared.policy.cache().around(job, role, g.model(), g) : m,
                    shared.policy.cellLimit().get(),
                    shared.policy.trace());
        }
        return recorder;
    }

    /**
     * A model behind its provider's gate, still known as itself: the cache keys by its exact requests,
     * so it must see the provider's candidate, not the gate's wrapper.
     */
    public record Gated(Candidate model, Candidate gated) implements Candidate {
        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
            return gated.next(history, tools);
        }

        @Override
        public String baseUrl() {
            return model.baseUrl();
        }

        @Override
        public Candidate unwrapped() {
            return model.unwrapped();
        }

        @Override
        public void noteCalls(List<brokkr.conversation.ModelCall> calls, brokkr.conversation.Usage usage) {
            model.noteCalls(calls, usage);
        }

        @Override
        public Candidate.Permit acquire() {
            return gated.acquire();
        }
    }
}
