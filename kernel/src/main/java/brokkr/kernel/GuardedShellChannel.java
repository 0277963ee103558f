package brokkr.kernel;

import org.dflib.jjava.jupyter.channels.JupyterConnection;
import org.dflib.jjava.jupyter.channels.Loop;
import org.dflib.jjava.jupyter.channels.ShellChannel;
import org.dflib.jjava.jupyter.channels.ShellHandler;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;
import org.dflib.jjava.jupyter.messages.HMACGenerator;
import org.dflib.jjava.jupyter.messages.Message;
import org.zeromq.ZMQ;

/**
 * A shell or control channel that survives bad input. JJava 1.0-a6's {@code ShellChannel} throws its
 * {@code SecurityException} for a wrongly signed or unsigned message out of the channel's loop, which
 * ends the loop thread and leaves the kernel deaf; here such a message is dropped (logged to stderr,
 * never answered) and the loop goes on. It also waits on the socket instead of polling every 50 ms.
 */
final class GuardedShellChannel extends ShellChannel {
    private final JupyterConnection connection;
    private final boolean control;
    private volatile Loop loop;
    private volatile int rejected;

    GuardedShellChannel(ZMQ.Context ctx, HMACGenerator hmac, boolean control, JupyterConnection connection) {
        super(ctx, hmac, control, connection);
        this.connection = connection;
        this.control = control;
    }

    int rejected() { return rejected; }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void bind(KernelConnectionProperties p) {
        if (loop != null) throw new IllegalStateException("channel already bound");
        String address = p.getTransport() + "://" + p.getIp() + ":" + (control ? p.getControlPort() : p.getShellPort());
        super.bind(address);
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(this, ZMQ.Poller.POLLIN);
        String name = control ? "brokkr-control" : "brokkr-shell";
        loop = new Loop(name, 0, () -> {
            if (poller.poll(50) <= 0) return;
            Message<?> message;
            try {
                message = readMessage();
            } catch (SecurityException e) {
                rejected++;
                System.err.println("brokkr kernel: rejected a message on the " + (control ? "control" : "shell")
                        + " channel: bad or missing HMAC signature");
                return;
            } catch (RuntimeException e) {
                rejected++;
                System.err.println("brokkr kernel: rejected a malformed message: " + e.getMessage());
                return;
            }
            if (message == null) return;
            ShellHandler handler = connection.getHandler(message.getHeader().getType());
            if (handler == null) return;
            ShellReplyEnvironment env = connection.prepareReplyEnv(this, message);
            try {
                handler.handle(env, message);
            } catch (Exception e) {
                System.err.println("brokkr kernel: error handling " + message.getHeader().getType().getName() + ": " + e);
            } finally {
                env.resolveDeferrals();
            }
            if (env.isMarkedForShutdown()) connection.close();
        });
        loop.start();
    }

    @Override
    public void close() {
        Loop l = loop;
        if (l != null) l.shutdown();
        super.close();
    }

    @Override
    public void waitUntilClose() {
        Loop l = loop;
        if (l == null) return;
        try {
            l.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
