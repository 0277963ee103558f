package brokkr.cli;

import brokkr.command.LogLines;
import brokkr.eval.Attempt;
import brokkr.experiment.ProgressListener;
import java.io.Console;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * An experiment run's progress as a terminal bar with ETA and done/failed counts; nothing when the
 * output is not a terminal or nothing is left to run.
 */
final class TerminalProgress implements ProgressListener {
    private ProgressBar bar;
    private AutoCloseable lines;
    private int alreadyDone, done, failed;

    @Override
    public synchronized void started(String experiment, int cells, int alreadyDone, int toRun) {
        Console console = System.console();
        if (toRun == 0 || console == null || !console.isTerminal()) return;
        this.alreadyDone = alreadyDone;
        bar = new ProgressBarBuilder()
                .setTaskName(experiment)
                .setInitialMax(toRun)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .continuousUpdate()
                .build();
        // A log line (a retry warning) while the bar is drawn: the bar's line is cleared first, the bar redraws below.
        lines = LogLines.through(line -> {
            synchronized (this) {
                System.err.print("\r\033[2K" + line + "\n");
                System.err.flush();
            }
        });
    }

    @Override
    public synchronized void attemptFinished(Attempt attempt) {
        if (bar == null) return;
        if (attempt.completed()) done++;
        else failed++;
        bar.step();
        bar.setExtraMessage("done " + done + " failed " + failed
                + (alreadyDone > 0 ? " (resumed: " + alreadyDone + " done before)" : ""));
    }

    /** A usage window's wait: said on its own line (it can last hours), and on the bar until the run resumes. */
    @Override
    public synchronized void paused(String reason, java.time.Instant until) {
        if (bar == null) return;
        System.err.print("\r\033[2K" + reason + "\n");
        bar.setExtraMessage("PAUSED until " + until + ": done " + done + " failed " + failed);
    }

    @Override
    public synchronized void resumed() {
        if (bar == null) return;
        bar.setExtraMessage("done " + done + " failed " + failed);
    }

    @Override
    public synchronized void finished() {
        if (bar != null) bar.close();
        bar = null;
        if (lines != null) {
            try {
                lines.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            lines = null;
        }
    }
}
