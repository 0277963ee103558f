package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoredBranches;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Branches of a retail checkpoint stored as ordinary attempts beside an experiment's, each in its own cell. */
class Tau2StoredBranchesTest {
    @TempDir
    Path tmp;

    static final ModelRef GOLD = new ModelRef("scripted", "gold");

    @Test
    void threeBranchesOfARetailCheckpointAreStoredAttemptsOfTheirOwnCells() throws Exception {
        Registry registry = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) registry.benchmark("tau2-retail");
        String task = Tau2BranchingTest.task(retail, false);
        Path dir = tmp.resolve("exp");
        ExperimentSpec spec = new ExperimentSpec(
                "plain",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of(task))),
                List.of(new ExperimentSpec.CandidateSpec("gold", GOLD, "tools", null)),
                2,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
        Experiments.run(spec, dir, registry, ProgressListener.NONE);
        Scorecard before = Experiments.scorecard(dir);
        Scorecard.CandidateScore plainBefore = before.rows().getFirst().withoutCost();
        assertEquals(2, plainBefore.attempts());

        // The checkpoint of the experiment's own cell (same environment, candidate and repetition).
        Evaluation.Cell cell = new Evaluation.Cell(
                retail, retail.environment(task, Map.of()), AgentDef.of(GOLD, "tools", null), null, 0);
        Checkpoint cp = Branches.checkpoint(cell, 1, Tau2BranchingTest.NO_MODELS);
        List<Branches.Branch> branches = Branches.branches(cp, Branches.Variant.SAME, 3);
        List<Attempt> ran = StoredBranches.run(dir, branches, Tau2BranchingTest.NO_MODELS, 3);
        assertEquals(3, ran.size());
        for (Attempt a : ran) assertTrue(a.id() > 0 && a.completed(), String.valueOf(a.error()));

        List<Tau2Message> heldLog = Tau2Transcript.fromValue(cp.transcript());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Attempt> all = q.attempts(true);
            assertEquals(5, all.size());
            List<Attempt> stored = all.stream()
                    .filter(a -> a.evidence().setup().get(Branches.BRANCH) != null)
                    .toList();
            assertEquals(3, stored.size());
            Set<CellKey> keys = new HashSet<>();
            for (Attempt a : stored) {
                assertEquals(
                        PyDict.of("checkpoint", cp.id(), "at", 1),
                        a.evidence().setup().get(Branches.BRANCH));
                keys.add(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
                // its own environment: the task's definition marked with the checkpoint, never the plain task's
                assertNotEquals(cell.env().id(), a.environmentId());
                EnvironmentDef env = q.environment(a.environmentId()).orElseThrow();
                assertEquals(task, env.taskId());
                assertEquals(cp.branchEvidence(), env.options().get(Branches.BRANCH));
                assertEquals(cell.env().options(), env.options().without(Branches.BRANCH));
                assertEquals(1.0, a.reward());
                // the trajectory starts with the checkpoint's log and continues past it
                List<Tau2Message> t = Tau2Transcript.fromValue(a.evidence().transcript());
                assertTrue(t.size() > heldLog.size());
                assertEquals(heldLog, t.subList(0, heldLog.size()));
                // the checkpoint's own model calls come first, under their prefixed roles
                List<Evidence.RecordedCall> calls = a.evidence().modelCalls();
                for (int i = 0; i < cp.calls().size(); i++) {
                    assertEquals(
                            Checkpoint.CALL_ROLE_PREFIX + cp.calls().get(i).role(),
                            calls.get(i).role());
                    assertEquals(cp.calls().get(i).call(), calls.get(i).call());
                }
                assertTrue(
                        Inspect.verifyWorld(q, registry, a.id()).matches(), "verify-world of branch attempt " + a.id());
            }
            assertEquals(3, keys.size());
            assertEquals(Set.of(0, 1, 2), keys.stream().map(CellKey::repetition).collect(Collectors.toSet()));
            assertEquals(1, keys.stream().map(CellKey::environmentId).distinct().count());

            // The plain candidate's row is unchanged; the branches are a row of their own.
            Scorecard after = Scorecard.of(q);
            assertEquals(
                    plainBefore,
                    after.rows().stream()
                            .filter(r -> r.candidate().equals("gold"))
                            .findFirst()
                            .orElseThrow()
                            .withoutCost());
            String label = StoredBranches.label(branches.getFirst());
            assertTrue(label.startsWith("gold [branch " + cp.id().substring(0, 12) + "@1"), label);
            Scorecard.CandidateScore branchRow = after.rows().stream()
                    .filter(r -> r.candidate().equals(label))
                    .findFirst()
                    .orElseThrow();
            assertEquals(3, branchRow.attempts());
            assertEquals(1, branchRow.tasks());
            assertEquals(2, after.rows().size());
            assertEquals(5, after.cells());
            assertEquals(0, after.pendingCells());
            // attempts and transcripts list them under their label
            assertEquals(
                    3,
                    Inspect.attempts(q, false).stream()
                            .filter(r -> r.candidate().equals(label))
                            .count());
            String text = Inspect.transcript(q, stored.getFirst().id());
            assertTrue(text.contains("candidate " + label), text);
            assertTrue(text.contains("branch of checkpoint " + cp.id() + " at customer message 1\n"), text);
        }

        // Running the same branches again is a resume: nothing runs twice, the stored attempts come back.
        List<Attempt> again = StoredBranches.run(
                dir,
                branches,
                ref -> {
                    throw new AssertionError("nothing runs on resume");
                },
                3);
        assertEquals(
                ran.stream().map(Attempt::id).toList(),
                again.stream().map(Attempt::id).toList());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(5, q.attempts(false).size());
        }
        // a branch named twice in one run is refused before anything runs
        assertThrows(
                IllegalArgumentException.class,
                () -> StoredBranches.run(
                        dir, List.of(branches.getFirst(), branches.getFirst()), Tau2BranchingTest.NO_MODELS, 1));

        // A later run of the experiment's spec resumes its own cells and leaves the branches stored, inactive.
        Experiments.run(spec, dir, registry, ProgressListener.NONE);
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(plainBefore, Scorecard.of(q).rows().getFirst().withoutCost());
            assertEquals(1, Scorecard.of(q).rows().size());
            assertEquals(5, q.attempts(false).size());
        }
    }
}
