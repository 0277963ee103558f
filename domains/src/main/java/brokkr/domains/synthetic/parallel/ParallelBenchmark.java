package brokkr.domains.synthetic.parallel;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.domains.synthetic.SyntheticBenchmark;
import brokkr.domains.synthetic.SyntheticTools;
import brokkr.eval.Check;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.Interaction;
import brokkr.eval.Protocol;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parallel discrimination ({@link ParallelDiscrimination}) as a benchmark provider, domain
 * {@code parallel}. Task id = the number of ids to look up. The protocol runs the agent loop with each
 * turn's calls on concurrent virtual threads and reports the lookups made, in how many turns, the
 * peak concurrency, which ids were answered and the final answer; the evaluator holds the values and
 * applies {@link ParallelDiscrimination#score}'s correctness rule (every id looked up successfully and
 * every value in the answer). Efficiency (calls per turn) is reported in the details, not graded.
 * Splits: {@code smoke} = 4; {@code test} = 4, 8, 16; {@code standard} = 4, 8, 16, 32 (the notebooks' sweep).
 * Scripted candidates ({@code provider: scripted}):
 * {@code batch}, {@code serial}.
 */
public final class ParallelBenchmark extends SyntheticBenchmark {
    /** The splits, as every face lists them (experiments, {@code %domain load}, {@code %tasks --split}, the README). */
    static final Map<String, List<Integer>> SPLITS = SyntheticBenchmark.splits(
            "smoke", List.of(4), "test", List.of(4, 8, 16), "standard", List.of(4, 8, 16, 32));

    public ParallelBenchmark() {
        super(SPLITS);
    }

    @Override
    public String name() {
        return "parallel";
    }

    @Override
    protected Value world(int tasks) {
        return LookupTable.of(tasks).values();
    }

    /** {@code batch} (every lookup in one turn) and {@code serial} (one per turn), as {@code ./brokkr parallel --candidate}. */
    @Override
    protected Candidate scriptedAgent(String name, int tasks) {
        return Batcher.named(name);
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            LookupTable table = LookupTable.of(size(ctx.env().taskId()));
            ConcurrencyGauge gauge = new ConcurrencyGauge();
            // ParallelDiscrimination.play, with the candidate's own system prompt in the opening.
            Transcript t = requireScored(new AgentLoop(ParallelDiscrimination.maxSteps(table.tasks()), ctx.cellLimit())
                    .run(
                            ctx.candidate(),
                            opening(ctx, ParallelDiscrimination.opening(table)),
                            ParallelDiscrimination.TOOLS,
                            ToolExecutor.concurrent(gauge.wrap(ParallelDiscrimination.handler(table)))));
            int calls = 0, turns = 0;
            for (var a : t.assistantMessages()) {
                long n = a.toolCalls().stream()
                        .filter(c -> c.name().equals(ParallelDiscrimination.TOOL))
                        .count();
                calls += (int) n;
                if (n > 0) turns++;
            }
            Set<String> found = new LinkedHashSet<>();
            for (SyntheticTools.Answered a : SyntheticTools.answeredCalls(t.messages(), ParallelDiscrimination.TOOL)) {
                if (a.ok() && a.call().arguments().get("id") instanceof PyStr s) found.add(s.value());
            }
            String answer = t.finalAnswer();
            return new Interaction(
                    Transcripts.toValue(t.messages()),
                    PyDict.builder()
                            .put("calls", calls)
                            .put("turns", turns)
                            .put("max_concurrency", gauge.maxConcurrency())
                            .put(
                                    "answered_ids",
                                    PyList.of(found.stream().map(PyStr::new).toList()))
                            .put("answer", answer == null ? PyNone.NONE : new PyStr(answer))
                            .build(),
                    t.stop().name().toLowerCase(),
                    Interaction.Counts.toolCalls(calls));
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            LookupTable table = LookupTable.of(size(run.env().taskId()));
            PyDict out = run.interaction().output();
            Set<String> found = new HashSet<>();
            for (Value v : out.get("answered_ids").asList()) found.add(v.asStr());
            Value answer = out.get("answer");
            Set<String> tokens = answer.isNone()
                    ? Set.of()
                    : new HashSet<>(Arrays.asList(answer.asStr().trim().split("[\\s,]+")));
            boolean setup = setupVerified(run.env(), run.setupEvidence());
            boolean lookedUp = found.containsAll(table.ids());
            boolean values = tokens.containsAll(table.valueList());
            int calls = (int) ((PyInt) out.get("calls")).longValue(),
                    turns = (int) ((PyInt) out.get("turns")).longValue();
            return new Verdict(
                    List.of(
                            new Check("setup_verified", setup),
                            new Check("answered", !answer.isNone()),
                            new Check("all_ids_looked_up", lookedUp),
                            new Check("all_values_answered", values)),
                    setup && lookedUp && values ? 1.0 : 0.0,
                    TrustTier.DETERMINISTIC,
                    PyDict.of(
                            "calls",
                            calls,
                            "turns",
                            turns,
                            "max_concurrency",
                            out.get("max_concurrency"),
                            "efficiency",
                            turns == 0 ? 0.0 : (double) calls / turns));
        };
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(new ParallelExploration());
    }
}
