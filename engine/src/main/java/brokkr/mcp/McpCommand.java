package brokkr.mcp;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.eval.BenchmarkProvider;
import brokkr.http.LoopbackHttp;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./brokkr mcp serve}: a forked world of a task served as an MCP server ({@link ForkBinding} over
 * {@link WorldMcpServer}), over stdio or streamable HTTP on loopback with a bearer token.
 */
public final class McpCommand implements Command {
    /** The environment variable a chosen HTTP token comes from; without it a token is generated and printed. */
    public static final String TOKEN_ENV = "BROKKR_MCP_TOKEN";

    private final CommandContext context;

    public McpCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "mcp";
    }

    @Override
    public String summary() {
        return "serve a forked world of a task to any MCP client (its tools, brokkr_world, brokkr_grade)";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr mcp serve --domain D --task ID [--stdio | --port P] [--host H [--allow-remote]]

               Serves a fresh fork of task ID of domain D (any domain with a world: tau2-retail, tau2-airline,
               bfcl-multi-turn, ...) as an MCP server. tools/list gives the domain's tools with their JSON schemas as
               the domain offers them to an agent; each tools/call runs on the current fork, which moves to the world
               after it, and answers with exactly the text %call shows (isError: the call's error flag). Brokkr adds
               two tools: brokkr_world (the world's sha256, what changed since the fork and in the last call, the
               whole world with world=true) and brokkr_grade (the domain's grade of the calls made so far as an
               episode that then ends with the agent saying answer).

                 --stdio          the stdio transport: JSON-RPC lines on stdin/stdout (a client starts this process)
                 --port P         streamable HTTP at http://HOST:P/mcp (default: any free port, printed)
                 --host H         the address to listen on (default 127.0.0.1); one beyond loopback needs
                 --allow-remote   to serve the world beyond this machine
               Every HTTP request needs 'Authorization: Bearer TOKEN': the token comes from $BROKKR_MCP_TOKEN, else
               a fresh one is generated and printed once at start (never logged). The server runs until stopped
               (Ctrl-C); over stdio, until its input ends.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty() || !args.getFirst().equals("serve"))
            throw new UsageException(
                    args.isEmpty()
                            ? "which subcommand? (serve)"
                            : "unknown subcommand '" + args.getFirst() + "' (serve)");
        String domain = null, task = null, host = "127.0.0.1";
        Integer port = null;
        boolean stdio = false, allowRemote = false;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--stdio" -> stdio = true;
                case "--allow-remote" -> allowRemote = true;
                case "--domain", "--task", "--port", "--host" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    String v = args.get(++i);
                    switch (a) {
                        case "--domain" -> domain = v;
                        case "--task" -> task = v;
                        case "--host" -> host = v;
                        default -> port = port(v);
                    }
                }
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (domain == null) throw new UsageException("--domain is required");
        if (task == null) throw new UsageException("--task is required");
        if (stdio && port != null) throw new UsageException("--stdio and --port exclude each other");
        if (stdio && (!host.equals("127.0.0.1") || allowRemote))
            throw new UsageException("--host and --allow-remote are for HTTP, not --stdio");

        BenchmarkProvider provider;
        ForkBinding binding;
        try {
            provider = context.registry().benchmark(domain);
            binding = new ForkBinding(provider, task);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // an unknown domain (ExperimentSpec.SpecException) or task, a domain without a world
            throw new InputException(e.getMessage());
        }
        if (stdio) {
            err.println("brokkr mcp: serving " + describe(provider, task, binding) + " over stdio");
            WorldMcpServer.serveStdio(binding, System.in, out);
            return 0;
        }
        LoopbackHttp.Token token = LoopbackHttp.token(context.env(), TOKEN_ENV);
        WorldMcpServer server;
        try {
            server = WorldMcpServer.startHttp(
                    binding, token.value(), new LoopbackHttp.Options(host, port == null ? 0 : port, allowRemote));
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage() + (allowRemote ? "" : " (--allow-remote serves it anyway)"));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        out.println("brokkr mcp: serving " + describe(provider, task, binding) + " at " + server.url());
        out.println(token.announced(TOKEN_ENV));
        out.flush();
        stopped.await();
        return 0;
    }

    private static String describe(BenchmarkProvider provider, String task, ForkBinding binding) {
        int n = binding.domainTools().size();
        return provider.name() + " task " + task + " (" + n + " tool" + (n == 1 ? "" : "s") + " + " + ForkBinding.WORLD
                + ", " + ForkBinding.GRADE + ")";
    }

    private static int port(String v) {
        try {
            int p = Integer.parseInt(v);
            if (p >= 0 && p <= 65535) return p;
        } catch (NumberFormatException e) {
            // worded below
        }
        throw new UsageException("--port takes 0..65535, not '" + v + "'");
    }
}
