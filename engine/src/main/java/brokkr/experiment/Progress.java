package brokkr.experiment;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Progress of a run: a terminal bar with ETA and done/failed counts, or nothing when not on a terminal. */
interface Progress extends AutoCloseable {
    void finished(boolean completed);

    @Override void close();

    static Progress create(boolean wanted, String name, int total, int alreadyDone) {
        java.io.Console console = System.console();
        if (!wanted || total == 0 || console == null || !console.isTerminal()) return NONE;
        ProgressBar bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250).continuousUpdate().build();
        return new Progress() {
            private int done, failed;
            @Override public synchronized void finished(boolean completed) {
                if (completed) done++; else failed++;
                bar.step();
                bar.setExtraMessage("done " + done + " failed " + failed + (alreadyDone > 0 ? " (resumed: " + alreadyDone + " done before)" : ""));
            }
            @Override public void close() { bar.close(); }
        };
    }

    Progress NONE = new Progress() {
        @Override public void finished(boolean completed) {}
        @Override public void close() {}
    };

}
