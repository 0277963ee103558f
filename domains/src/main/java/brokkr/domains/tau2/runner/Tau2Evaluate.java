package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.domains.tau2.conformance.Tau2Regrade;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code ./brokkr tau2 evaluate FILE} (upstream's {@code tau2 evaluate-trajs}): an upstream results file or
 * graded corpus re-graded by Brokkr's grader ({@link Tau2Regrade}) over the registry's tau2 domains, so any
 * registered domain (one services line) re-grades without further wiring.
 */
public final class Tau2Evaluate {
    private Tau2Evaluate() {}

    /** The registry's domain of an upstream name, as re-grading needs it; an unknown name is an IllegalArgumentException listing the known. */
    public static Tau2Regrade.Domain domain(String name) {
        Tau2Domain d = Tau2Domains.load(name);
        return new Tau2Regrade.Domain(d.environment(), d::task);
    }

    /**
     * @param judgeModel the NL-assertion judge (upstream's prompt), or null to use the verdicts the file records
     * @param judgeName  the judge's name in reports
     */
    public static Tau2Regrade.Report evaluate(Path file, Candidate judgeModel, String judgeName, PrintStream out) {
        return Tau2Regrade.evaluate(
                file, Tau2Evaluate::domain, judgeModel == null ? null : new ModelNlJudge(judgeName, judgeModel), out);
    }
}
