package brokkr.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * An embedded Jetty server that Brokkr serves something local over ({@code ./brokkr mcp serve}'s world,
 * {@code ./brokkr env serve}'s episodes): bound to loopback unless told otherwise, refusing a request from another
 * machine's page (DNS-rebinding protection) and every request without the bearer token, which is compared in
 * constant time and never logged or echoed. One place for the listening rules, so every served face keeps them.
 */
public final class LoopbackHttp implements AutoCloseable {
    /**
     * Where the server listens: {@code host} (a name or address) and {@code port} (0: any free one). A host that is
     * not a loopback address is refused unless {@code allowNonLoopback}.
     */
    public record Options(String host, int port, boolean allowNonLoopback) {
        public static final Options LOOPBACK = new Options("127.0.0.1", 0, false);

        public Options {
            Objects.requireNonNull(host, "host");
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port " + port + " is not 0..65535");
        }
    }

    /** How a server's requests are run: a few pooled threads (one client, calls one at a time) or a virtual thread each. */
    public enum Threads {
        FEW,
        /** A virtual thread per request: for handlers that block while an episode runs, many at once. */
        VIRTUAL
    }

    private final Server jetty;
    private final URI base;

    private LoopbackHttp(Server jetty, URI base) {
        this.jetty = jetty;
        this.base = base;
    }

    /** A fresh bearer token: 32 random bytes, URL-safe base64. */
    public static String newToken() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /**
     * The token a command serves with: {@code env}'s {@code variable} when set, else a fresh one
     * ({@link #newToken}); {@link Token#chosen} says which, so the command prints a generated token once and never
     * one the user chose.
     */
    public static Token token(Map<String, String> env, String variable) {
        String given = env.get(variable);
        return given == null || given.isBlank() ? new Token(newToken(), false) : new Token(given, true);
    }

    /** A bearer token and whether the user chose it (from the environment). */
    public record Token(String value, boolean chosen) {
        /** The line a command prints about it: the generated token itself, or only where a chosen one came from. */
        public String announced(String variable) {
            return chosen
                    ? "token: from " + variable
                    : "token: " + value + "  (send 'Authorization: Bearer TOKEN'; set " + variable + " to choose it)";
        }

        @Override
        public String toString() {
            return "Token[redacted]";
        }
    }

    /**
     * Serves {@code app} at {@code options}; every request must carry {@code Authorization: Bearer TOKEN} (401
     * otherwise, before {@code app} sees it). IllegalArgumentException for a blank token or a host that is not
     * loopback without {@code allowNonLoopback}; IOException when it cannot listen. {@code what} names the server in
     * messages and thread names.
     */
    public static LoopbackHttp start(String what, Handler app, String token, Options options, Threads threads)
            throws IOException {
        if (token == null || token.isBlank()) throw new IllegalArgumentException("a " + what + " server needs a token");
        InetAddress address = address(options.host());
        if (!address.isLoopbackAddress() && !options.allowNonLoopback()) {
            throw new IllegalArgumentException("host " + options.host()
                    + " is not a loopback address: serving beyond this machine must be asked for explicitly");
        }
        ThreadPool pool;
        if (threads == Threads.VIRTUAL) {
            VirtualThreadPool v = new VirtualThreadPool();
            v.setName("brokkr-" + what + "-http");
            pool = v;
        } else {
            // A few threads suffice: one client, calls made one at a time (a default pool starts 8 and grows to 200).
            QueuedThreadPool q = new QueuedThreadPool(16, 2);
            q.setName("brokkr-" + what + "-http");
            q.setDaemon(true);
            pool = q;
        }
        Server jetty = new Server(pool);
        ServerConnector connector = new ServerConnector(jetty, 1, 1);
        connector.setHost(address.getHostAddress());
        connector.setPort(options.port());
        jetty.addConnector(connector);
        jetty.setHandler(new BearerAuth(token, address.isLoopbackAddress(), app));
        try {
            jetty.start();
        } catch (Exception e) {
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // it did not start; nothing to stop
            }
            throw new IOException(
                    "cannot serve " + what + " on " + options.host() + ":" + options.port() + ": " + e.getMessage(), e);
        }
        String host = address.getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        return new LoopbackHttp(jetty, URI.create("http://" + host + ":" + connector.getLocalPort()));
    }

    /** {@code http://HOST:PORT}, without a path. */
    public URI base() {
        return base;
    }

    @Override
    public void close() {
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the HTTP server: " + e.getMessage(), e);
        }
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "'");
        }
    }

    /**
     * Whether a request's {@code Host} and {@code Origin} headers say it comes from this machine's own pages, as the
     * MCP specification's streamable HTTP transport asks (DNS-rebinding protection: "servers MUST validate the Origin
     * header"): a web page of another site that a rebound DNS name points at this loopback server sends that name as
     * its {@code Host} and its own {@code Origin}. On a loopback server the {@code Host} must name a loopback address
     * ({@code localhost}, {@code 127.x.x.x}, {@code [::1]}); an {@code Origin}, when sent (clients that are not
     * browsers send none), must name a loopback host or the {@code Host} itself.
     */
    static boolean sameMachine(String host, String origin, boolean loopbackServer) {
        String hostName = host == null ? null : hostName(host);
        if (loopbackServer && (hostName == null || !loopbackName(hostName))) return false;
        if (origin == null) return true;
        String originHost;
        try {
            originHost = URI.create(origin.strip()).getHost();
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (originHost == null) return false; // "null": a sandboxed or file page
        if (originHost.startsWith("[") && originHost.endsWith("]"))
            originHost = originHost.substring(1, originHost.length() - 1);
        return loopbackName(originHost) || originHost.equalsIgnoreCase(hostName);
    }

    /** The name of a {@code Host} header's value: no port, an IPv6 literal without its brackets. */
    private static String hostName(String host) {
        String h = host.strip();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? null : h.substring(1, end);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private static boolean loopbackName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("localhost") || n.equals("::1") || n.matches("127(\\.\\d{1,3}){3}");
    }

    /**
     * Refuses, with 403, a request from another machine's page ({@link #sameMachine}: a foreign {@code Origin} or
     * {@code Host}), then, with 401 and {@code WWW-Authenticate: Bearer}, every request whose {@code Authorization}
     * is not {@code Bearer TOKEN} (compared in constant time). The token itself is never logged or echoed.
     */
    private static final class BearerAuth extends Handler.Wrapper {
        private final byte[] expected;
        private final boolean loopback;

        BearerAuth(String token, boolean loopback, Handler next) {
            super(next);
            this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
            this.loopback = loopback;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            if (!sameMachine(
                    request.getHeaders().get(HttpHeader.HOST),
                    request.getHeaders().get(HttpHeader.ORIGIN),
                    loopback)) {
                refuse(
                        response,
                        callback,
                        HttpStatus.FORBIDDEN_403,
                        "refused: the request's Origin or Host is not this machine's (DNS-rebinding protection)");
                return true;
            }
            String given = request.getHeaders().get(HttpHeader.AUTHORIZATION);
            if (given == null || !MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
                response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
                refuse(
                        response,
                        callback,
                        HttpStatus.UNAUTHORIZED_401,
                        "a bearer token is required (Authorization: Bearer TOKEN)");
                return true;
            }
            return super.handle(request, response, callback);
        }

        private static void refuse(Response response, Callback callback, int status, String why) {
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.write(true, ByteBuffer.wrap((why + "\n").getBytes(StandardCharsets.UTF_8)), callback);
        }
    }
}
