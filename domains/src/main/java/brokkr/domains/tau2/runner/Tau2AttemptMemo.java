package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.List;

/**
 * What an attempt's world setup and protocol built, kept for the same attempt's protocol and evaluator, which
 * {@code Evaluation.evaluate} runs one after the other on one thread: the setup's initial world and its hash, the
 * episode's trajectory and synced final world. Each is used only when the value the next phase is handed is the
 * very one recorded here (identity), so a run set up or played elsewhere (a branch from a checkpoint, a regrade
 * of a stored record) decodes and rebuilds as before; the values are the same either way (the fork's encoding
 * and the transcript's decoding are exact inverses, which the conformance and regrade tests prove), so grading
 * is byte-identical. One entry per thread, replaced by the next attempt.
 */
final class Tau2AttemptMemo {
    private Tau2AttemptMemo() {}

    /** The setup's evidence, the value it put in the fork, the world it encodes and its DB hash. */
    record Setup(PyDict evidence, Value fork, Worlds initial, String dbHash) {}

    /** The protocol's transcript value and final fork value, with the trajectory and synced world they encode. */
    record Episode(Value transcript, List<Tau2Message> trajectory, Value fork, Worlds finalWorld) {}

    private static final ThreadLocal<Setup> SETUP = new ThreadLocal<>();
    private static final ThreadLocal<Episode> EPISODE = new ThreadLocal<>();

    static void setUp(PyDict evidence, Value fork, Worlds initial, String dbHash) {
        SETUP.set(new Setup(evidence, fork, initial, dbHash));
        EPISODE.remove();
    }

    static void played(Value transcript, List<Tau2Message> trajectory, Value fork, Worlds finalWorld) {
        EPISODE.set(new Episode(transcript, trajectory, fork, finalWorld));
    }

    static void clear() {
        SETUP.remove();
        EPISODE.remove();
    }

    /** The setup whose fork value is {@code fork}, or null. */
    static Setup setupWithFork(Value fork) {
        Setup s = SETUP.get();
        return s != null && s.fork() == fork ? s : null;
    }

    /** The setup that returned {@code evidence}, or null. */
    static Setup setupWithEvidence(PyDict evidence) {
        Setup s = SETUP.get();
        return s != null && s.evidence() == evidence ? s : null;
    }

    /** The episode whose transcript value is {@code transcript} and final fork value {@code fork}, or null. */
    static Episode episode(Value transcript, Value fork) {
        Episode e = EPISODE.get();
        return e != null && e.transcript() == transcript && e.fork() == fork ? e : null;
    }
}
