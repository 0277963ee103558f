package brokkr.cli;

import brokkr.agent.Transcript;
import java.io.PrintStream;

/** The stderr side of the synthetic benchmark commands: infrastructure failures and a run summary. */
final class SyntheticReport {
    private SyntheticReport() {}

    /** Reports an infrastructure failure (not a result: nothing goes to stdout) and says whether there was one. */
    static boolean failed(Transcript t, String command, PrintStream err) {
        if (t.stop() != Transcript.Stop.INFRASTRUCTURE_FAILURE) return false;
        err.println("brokkr " + command + ": infrastructure failure, run not scored: " + t.failure().getMessage()
                + " (" + t.modelCalls().size() + " model call attempts)");
        return true;
    }

    /** One diagnostic line for a model run: steps, attempts, tokens and why the run stopped. */
    static void summary(Transcript t, PrintStream err) {
        err.printf("steps=%d modelCalls=%d inputTokens=%d outputTokens=%d stop=%s%n", t.assistantMessages().size(),
                t.modelCalls().size(), t.usage().inputTokens(), t.usage().outputTokens(), t.stop().name().toLowerCase());
    }
}
