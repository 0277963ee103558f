package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.experiment.FisherExact;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Probes;
import brokkr.experiment.StoredBranches;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Checkpoints, branches and decision-point probes of tau2 episodes, on every landed domain. */
class Tau2BranchingTest {
    static final ModelRef GOLD = new ModelRef("scripted", "gold");
    static final ModelRef STOP = new ModelRef("scripted", "stop");
    static final Function<ModelRef, Candidate> NO_MODELS = ref -> {
        throw new AssertionError("no model expected: " + ref);
    };

    static Evaluation.Cell cell(Tau2Benchmark b, String task, ModelRef agent) {
        return new Evaluation.Cell(b, b.environment(task, Map.of()), AgentDef.of(agent, "tools", null), null, 0);
    }

    /** The first test-split task whose gold has an agent action and (when asked) a customer action. */
    static String task(Tau2Benchmark b, boolean withUserActions) {
        for (TaskSpec t : b.domain().split("test")) {
            if (t.criteria() == null) continue;
            List<GoldAction> gold = t.criteria().actionsOrEmpty();
            boolean agent = gold.stream().anyMatch(a -> a.requestor() == Requestor.ASSISTANT);
            boolean user = gold.stream().anyMatch(a -> a.requestor() == Requestor.USER);
            if (agent && (user || !withUserActions)) return t.id();
        }
        throw new AssertionError("no such task in " + b.name());
    }

    static String hash(Value world) {
        return WorldHash.sha256(world, true);
    }

    @Test
    void fromOneRetailCheckpointGoldScoresOneAndIdleZero() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = task(retail, false);
        Checkpoint cp = Branches.checkpoint(cell(retail, task, GOLD), 1, NO_MODELS);
        List<Tau2Message> held = Tau2Transcript.fromValue(cp.transcript());
        // greeting, then the customer's first message, held back: the agent has not answered
        assertEquals(2, held.size());
        assertTrue(held.getLast() instanceof Tau2Message.User);

        Attempt gold = StoredBranches.runUnstored(List.of(Branches.branch(cp, Branches.Variant.SAME, 0)), NO_MODELS, 1)
                .getFirst();
        Attempt idle = StoredBranches.runUnstored(
                        List.of(Branches.branch(cp, Branches.Variant.SAME.withAgent(STOP), 0)), NO_MODELS, 1)
                .getFirst();
        assertTrue(gold.completed(), String.valueOf(gold.error()));
        assertEquals(1.0, gold.reward());
        assertTrue(idle.completed(), String.valueOf(idle.error()));
        assertEquals(0.0, idle.reward());
        // an ordinary certified attempt whose setup carries the branch, its log starting with the checkpoint's
        for (Attempt a : List.of(gold, idle)) {
            assertEquals(
                    PyDict.of("checkpoint", cp.id(), "at", 1),
                    a.evidence().setup().get("branch"));
            assertEquals(true, a.check("setup_verified").orElseThrow().passed());
            List<Tau2Message> t = Tau2Transcript.fromValue(a.evidence().transcript());
            assertEquals(held, t.subList(0, held.size()));
        }
        // the same as the whole gold episode on the evaluation path
        Attempt whole = Evaluation.evaluate(cell(retail, task, GOLD), NO_MODELS, new Evaluation.Recorder());
        assertEquals(whole.evidence().transcript(), gold.evidence().transcript());
        assertEquals(whole.evidence().finalWorldSha256(), gold.evidence().finalWorldSha256());
    }

    @Test
    void eightConcurrentBranchesAreIndependent() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        Checkpoint cp = Branches.checkpoint(cell(retail, task(retail, false), GOLD), 1, NO_MODELS);
        String before = hash(cp.world());
        List<Branches.Branch> branches = new ArrayList<>();
        for (int i = 0; i < 8; i++)
            branches.add(
                    Branches.branch(cp, i % 2 == 0 ? Branches.Variant.SAME : Branches.Variant.SAME.withAgent(STOP), i));
        List<Attempt> together = StoredBranches.runUnstored(branches, NO_MODELS, 8);
        for (int i = 0; i < 8; i++) {
            Attempt alone = StoredBranches.runUnstored(List.of(branches.get(i)), NO_MODELS, 1)
                    .getFirst();
            Attempt a = together.get(i);
            assertEquals(i % 2 == 0 ? 1.0 : 0.0, a.reward(), "branch " + i);
            assertEquals(alone.reward(), a.reward());
            assertEquals(alone.evidence().transcript(), a.evidence().transcript());
            assertEquals(alone.evidence().finalWorldSha256(), a.evidence().finalWorldSha256());
            assertEquals(i, a.repetition());
        }
        assertEquals(before, hash(cp.world()));
    }

    @Test
    void aMutationInOneBranchIsInvisibleToTheOthersAndTheCheckpoint() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        Checkpoint cp = Branches.checkpoint(cell(retail, task(retail, false), GOLD), 1, NO_MODELS);
        String atCheckpoint = hash(cp.world());
        Attempt writer = StoredBranches.runUnstored(
                        List.of(Branches.branch(cp, Branches.Variant.SAME, 0)), NO_MODELS, 1)
                .getFirst();
        Attempt idle = StoredBranches.runUnstored(
                        List.of(Branches.branch(cp, Branches.Variant.SAME.withAgent(STOP), 1)), NO_MODELS, 1)
                .getFirst();
        // the gold branch changed its DB; the idle one, run after it, still sees the checkpoint's world
        assertNotEquals(atCheckpoint, writer.evidence().finalWorldSha256());
        assertEquals(atCheckpoint, idle.evidence().finalWorldSha256());
        assertEquals(atCheckpoint, hash(cp.world()));
        assertEquals(2, Tau2Transcript.fromValue(cp.transcript()).size());
    }

    @Test
    void aThousandUnrunBranchesShareTheCheckpointsWorld() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        Checkpoint cp = Branches.checkpoint(cell(retail, task(retail, false), GOLD), 1, NO_MODELS);
        List<Branches.Branch> branches = Branches.branches(cp, Branches.Variant.SAME, 1000);
        assertEquals(1000, branches.size());
        // O(1) forks: every branch holds the one checkpoint, nothing of the world is copied (the memory is measured in
        // the bench)
        for (Branches.Branch b : branches) assertSame(cp.world(), b.checkpoint().world());
    }

    @Test
    void aCheckpointPastTheEndSaysHowTheEpisodeEnded() {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Branches.checkpoint(cell(retail, task(retail, false), STOP), 5, NO_MODELS));
        assertTrue(e.getMessage().contains("before customer message 5"), e.getMessage());
    }

    @Test
    void aModelThatCannotBeReachedBeforeTheCheckpointIsAnInfrastructureFailure() {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = task(retail, false);
        ModelRef user = new ModelRef("fake", "unreachable-user");
        Evaluation.Cell cell = new Evaluation.Cell(
                retail,
                retail.environment(task, Map.of("user", user)),
                AgentDef.of(new ModelRef("fake", "agent"), "tools", null),
                null,
                0);
        Function<ModelRef, Candidate> models = ref -> (history, tools) -> {
            throw new InfrastructureFailure(ref + ": connection refused", List.of(), null);
        };
        InfrastructureFailure e = assertThrows(InfrastructureFailure.class, () -> Branches.checkpoint(cell, 1, models));
        assertTrue(
                e.getMessage().contains("could not reach customer message 1")
                        && e.getMessage().contains("connection refused"),
                e.getMessage());
    }

    /** A decision point rebuilt from a record is the live checkpoint at the same message: same world, same log. */
    @Test
    void decisionPointsRebuildTheLiveWorldOnEveryDomain() throws Exception {
        for (String domain : Tau2Domains.names()) {
            Tau2Benchmark b = Tau2Domains.benchmark(domain);
            // telecom's customer acts on its own phone (dual control): a task where it does
            String task = task(b, domain.equals("telecom"));
            Attempt record = Evaluation.evaluate(cell(b, task, GOLD), NO_MODELS, new Evaluation.Recorder());
            assertEquals(1.0, record.reward(), domain + " " + task);
            List<Tau2Message> t = Tau2Transcript.fromValue(record.evidence().transcript());
            int last = Tau2Branching.answeredCustomerMessages(t);
            for (int at = 1; at <= last; at++) {
                Checkpoint live = Branches.checkpoint(cell(b, task, GOLD), at, NO_MODELS);
                DecisionPoint dp = Probes.decisionPoint(
                        b, b.environment(task, Map.of()), record.evidence().transcript(), at);
                Tau2Branching.Tau2DecisionPoint rebuilt = (Tau2Branching.Tau2DecisionPoint) dp;
                assertEquals(
                        hash(live.world()), hash(Tau2Fork.encode(rebuilt.held().world())), domain + " at " + at);
                assertEquals(
                        live.transcript(), Tau2Transcript.toValue(rebuilt.held().trajectory()));
                // the gold candidate's answer is the record's next action
                NextAction answer = dp.answer(scripted(b, task, GOLD));
                assertEquals(dp.recorded().orElseThrow(), answer, domain + " at " + at);
            }
            if (domain.equals("telecom")) {
                // dual control: by the last cut the customer has acted on its own phone, and the rebuilt user DB shows
                // it
                Checkpoint first = Branches.checkpoint(cell(b, task, GOLD), 1, NO_MODELS);
                Checkpoint lastCp = Branches.checkpoint(cell(b, task, GOLD), last, NO_MODELS);
                assertNotEquals(
                        hash(first.world().asDict().get("user_db")),
                        hash(lastCp.world().asDict().get("user_db")));
            }
        }
    }

    static Candidate scripted(Tau2Benchmark b, String task, ModelRef ref) {
        return b.scripted("agent", ref, b.environment(task, Map.of()));
    }

    @Test
    void probesCountOutcomeClassesAgainstTheRecordedNextAction() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = task(retail, false);
        EnvironmentDef env = retail.environment(task, Map.of());
        Attempt record = Evaluation.evaluate(cell(retail, task, GOLD), NO_MODELS, new Evaluation.Recorder());
        DecisionPoint dp = Probes.decisionPoint(retail, env, record.evidence().transcript(), 1);
        ProbeResult gold = Probes.probe(retail, dp, 0, GOLD, "gold", 6, 0, NO_MODELS, 3);
        assertEquals(6, gold.matchesGold());
        assertEquals(1, gold.classes().size());
        assertEquals(ProbeResult.Label.MATCHES_GOLD, gold.classes().getFirst().label());
        assertEquals(NextAction.Kind.CALL, gold.classes().getFirst().kind());
        ProbeResult stop = Probes.probe(retail, dp, 0, STOP, "stop", 4, 0, NO_MODELS, 4);
        assertEquals(0, stop.matchesGold());
        assertEquals(
                List.of("stop"),
                stop.classes().stream().map(ProbeResult.OutcomeClass::key).toList());

        // gold-50: seeded, so the same counts every run and on any number of threads
        ProbeResult half =
                Probes.probe(retail, dp, 0, new ModelRef("scripted", "gold-50"), "gold-50", 20, 7, NO_MODELS, 8);
        ProbeResult again =
                Probes.probe(retail, dp, 0, new ModelRef("scripted", "gold-50"), "gold-50", 20, 7, NO_MODELS, 1);
        assertEquals(half.samples(), again.samples());
        assertTrue(half.matchesGold() > 3 && half.matchesGold() < 17, String.valueOf(half.matchesGold()));
        assertTrue(half.classes().stream().anyMatch(c -> c.label() == ProbeResult.Label.SAME_TOOL), half.table());
        assertTrue(half.classes().stream().anyMatch(c -> c.kind() == NextAction.Kind.TEXT), half.table());
        int total = half.classes().stream()
                .mapToInt(ProbeResult.OutcomeClass::count)
                .sum();
        assertEquals(20, total);

        Probes.Comparison c = Probes.compare(
                retail, dp, 0, GOLD, "gold", new ModelRef("scripted", "gold-50"), "gold-50", 20, 7, NO_MODELS, 8);
        assertEquals(20, c.first().matchesGold());
        assertEquals(half.matchesGold(), c.second().matchesGold());
        assertEquals(
                FisherExact.test(20, 0, half.matchesGold(), 20 - half.matchesGold())
                        .pValue(),
                c.test().pValue());
        assertTrue(c.test().pValue() < 0.01, c.table());
    }

    @Test
    void aCutTheRecordDoesNotReachIsRefused() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = task(retail, false);
        Attempt record = Evaluation.evaluate(cell(retail, task, STOP), NO_MODELS, new Evaluation.Recorder());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Probes.decisionPoint(
                        retail,
                        retail.environment(task, Map.of()),
                        record.evidence().transcript(),
                        3));
        assertTrue(e.getMessage().contains("customer message(s) the agent answered, not 3"), e.getMessage());
    }
}
