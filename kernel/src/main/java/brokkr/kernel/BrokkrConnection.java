package brokkr.kernel;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CompletableFuture;
import org.dflib.jjava.jupyter.channels.JupyterConnection;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;
import org.dflib.jjava.jupyter.messages.Message;
import org.dflib.jjava.jupyter.messages.publish.PublishStatus;
import org.zeromq.ZMQ;

/**
 * JJava's connection with {@link GuardedShellChannel}s in place of its shell and control channels
 * (its own two stay unbound). Every socket binds to exactly the transport, IP and port of the
 * connection file, and takes no frame over {@link #MAX_FRAME_BYTES}.
 */
public final class BrokkrConnection extends JupyterConnection {
    /** The largest frame a peer may send on any of the kernel's sockets (a cell's source is far smaller). */
    static final long MAX_FRAME_BYTES = 64L << 20;

    private final KernelConnectionProperties props;
    private final ZMQ.Context guardedCtx;
    private final GuardedShellChannel guardedShell;
    private final GuardedShellChannel guardedControl;
    private volatile boolean connected;
    private final CompletableFuture<Void> closing = new CompletableFuture<>();

    public BrokkrConnection(KernelConnectionProperties props) throws NoSuchAlgorithmException, InvalidKeyException {
        super(props);
        this.props = props;
        this.guardedCtx = ZMQ.context(1);
        Signatures signatures = new Signatures(props.createHMACGenerator());
        this.guardedShell = new GuardedShellChannel(guardedCtx, props.createHMACGenerator(), signatures, false, this);
        this.guardedControl = new GuardedShellChannel(guardedCtx, props.createHMACGenerator(), signatures, true, this);
    }

    @Override
    public synchronized void connect() {
        if (connected) return;
        // Before binding (the option is copied to each connection as it is accepted): ZeroMQ drops a frame
        // over the cap in its transport, before it is buffered (and before any signature is checked),
        // and disconnects that peer; else one unsigned 1 GB frame was read whole into the heap.
        for (ZMQ.Socket s : new ZMQ.Socket[] {heartbeat, iopub, stdin, guardedShell, guardedControl})
            s.setMaxMsgSize(MAX_FRAME_BYTES);
        heartbeat.bind(props);
        iopub.bind(props);
        stdin.bind(props);
        guardedShell.bind(props);
        guardedControl.bind(props);
        iopub.sendMessage(new Message<>(null, PublishStatus.MESSAGE_TYPE, PublishStatus.STARTING));
        connected = true;
    }

    /** Messages dropped for a bad or replayed signature or a bad shape, on shell and control. */
    public int rejected() {
        return guardedShell.rejected() + guardedControl.rejected();
    }

    /** Completes when the connection starts closing (after a {@code shutdown_request}, or {@link #close()}). */
    public CompletableFuture<Void> closing() {
        return closing;
    }

    @Override
    public void close() {
        closing.complete(null);
        guardedShell.close();
        guardedControl.close();
        super.close();
        guardedCtx.close();
    }

    @Override
    public void waitUntilClose() {
        guardedShell.waitUntilClose();
        guardedControl.waitUntilClose();
        super.waitUntilClose();
    }
}
