package brokkr.domains.synthetic.loop;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.domains.synthetic.SyntheticBenchmark;
import brokkr.eval.Check;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.Interaction;
import brokkr.eval.Protocol;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pointer chasing ({@link PointerChasing}) as a benchmark provider, domain {@code loop}. Task id = the
 * chain's depth. The protocol runs the agent loop and reports what a grader needs (the
 * follow_pointer calls made, the final answer); the evaluator holds the secret and applies
 * {@link PointerChasing#score}'s rule, one check per way to lose: no answer, wrong secret, wrong number
 * of calls. Splits: {@code smoke} = 5, 10; {@code test} = 10, 25, 50, 100; {@code standard} = 10, 20, 50,
 * 100, 200 (the notebooks' sweep). Scripted candidates
 * ({@code provider: scripted}): {@code ideal}, {@code early-stop}, {@code retry}.
 */
public final class LoopBenchmark extends SyntheticBenchmark {
    /** The splits, as every face lists them (experiments, {@code %domain load}, {@code %tasks --split}, the README). */
    static final Map<String, List<Integer>> SPLITS = SyntheticBenchmark.splits(
            "smoke", List.of(5, 10), "test", List.of(10, 25, 50, 100), "standard", List.of(10, 20, 50, 100, 200));

    public LoopBenchmark() {
        super(SPLITS);
    }

    @Override
    public String name() {
        return "loop";
    }

    @Override
    protected Value world(int depth) {
        return PointerChain.of(depth).hops();
    }

    /** {@code ideal}, {@code early-stop} (after half the hops), {@code retry} (the middle hop twice), as {@code ./brokkr loop --candidate}. */
    @Override
    protected Candidate scriptedAgent(String name, int depth) {
        return LoopFollower.named(name, depth);
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            PointerChain chain = PointerChain.of(size(ctx.env().taskId()));
            // PointerChasing.play, with the candidate's own system prompt in the opening.
            Transcript t = requireScored(new AgentLoop(PointerChasing.maxSteps(chain.depth()), ctx.cellLimit())
                    .run(
                            ctx.candidate(),
                            opening(ctx, PointerChasing.opening(chain)),
                            PointerChasing.TOOLS,
                            ToolExecutor.sequential(PointerChasing.handler(chain))));
            int calls = (int) t.toolCalls().stream()
                    .filter(c -> c.name().equals(PointerChasing.TOOL))
                    .count();
            String answer = t.finalAnswer();
            return new Interaction(
                    Transcripts.toValue(t.messages()),
                    PyDict.of("tool_calls", calls, "answer", answer == null ? PyNone.NONE : new PyStr(answer)),
                    t.stop().name().toLowerCase(),
                    Interaction.Counts.toolCalls(calls));
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            PointerChain chain = PointerChain.of(size(run.env().taskId()));
            PyDict out = run.interaction().output();
            Value answer = out.get("answer");
            int calls = (int) ((brokkr.value.PyInt) out.get("tool_calls")).longValue();
            String actual = answer.isNone() ? "" : answer.asStr().replaceAll("\\s", "");
            boolean setup = setupVerified(run.env(), run.setupEvidence());
            boolean answered = !answer.isNone();
            boolean secret = actual.equals(chain.secret());
            boolean exact = calls == chain.depth();
            // PointerChasing.score: PASS iff the secret is right and exactly depth calls were made.
            return new Verdict(
                    List.of(
                            new Check("setup_verified", setup),
                            new Check("answered", answered),
                            new Check("secret_correct", secret),
                            new Check("exact_tool_calls", exact)),
                    setup && secret && exact ? 1.0 : 0.0,
                    TrustTier.DETERMINISTIC,
                    PyDict.of("depth", chain.depth(), "tool_calls", calls));
        };
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(new LoopExploration());
    }
}
