package brokkr.kernel;

/**
 * Thrown in place of ending the JVM from cell code ({@link ExitGuard}). An {@link Error}, like Python's
 * {@code SystemExit} is no {@code Exception}: code that follows an exit expects never to run, so a
 * {@code catch (Exception e)} around it must not swallow the refusal and carry on.
 */
public final class ExitRefused extends Error {
    ExitRefused(String call) {
        super(call + " refused: cells run inside the kernel's JVM, so exiting would end the session;"
                + " the session and its variables are intact (restart the kernel to start afresh)");
    }
}
