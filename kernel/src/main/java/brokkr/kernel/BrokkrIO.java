package brokkr.kernel;

import java.nio.charset.Charset;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.kernel.JupyterIO;

/** JJava's {@link JupyterIO}, with its attach/detach hooks opened to the kernel's own execute handler. */
final class BrokkrIO extends JupyterIO {
    BrokkrIO(Charset encoding) {
        super(encoding);
    }

    void attach(ShellReplyEnvironment env, boolean stdinEnabled) {
        setEnv(env);
        setJupyterInEnabled(stdinEnabled);
    }

    void detach(ShellReplyEnvironment env) {
        retractEnv(env);
    }
}
