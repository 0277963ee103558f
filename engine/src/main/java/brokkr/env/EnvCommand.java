package brokkr.env;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.http.LoopbackHttp;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** {@code ./brokkr env serve}: a domain served as a Gym-style environment over HTTP ({@link Env}, {@link EnvServer}). */
public final class EnvCommand implements Command {
    /** The environment variable a chosen token comes from; without it a token is generated and printed. */
    public static final String TOKEN_ENV = "BROKKR_ENV_TOKEN";

    private final CommandContext context;

    public EnvCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "env";
    }

    @Override
    public String summary() {
        return "serve a domain as a Gym-style environment a trainer steps (POST /reset, /step)";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr env serve --domain D [--port P] [--host H [--allow-remote]] [--user PROVIDER:MODEL]
                                         [--judge PROVIDER:MODEL] [--max-sessions N] [--idle-timeout S]
                                         [--episode-timeout S]

               Serves domain D (tau2-retail, tau2-airline, bfcl-multi-turn, loop, ...) as an environment: each
               episode is an attempt on Brokkr's one evaluation path (a fork of the task's world, the domain's
               counterparts and grade) whose agent is your client.
                 POST /reset {"task": ID, "seed": N}        -> {session, observation: {messages, tools}, reward, done, info}
                 POST /step  {"session": S, "action": MSG}  -> the messages the agent sees next; reward 0 until done,
                                                              then the grade, with info.checks and info.termination
                 POST /close {"session": S}                 -> ends a session early
               Messages, tools and the action are OpenAI Chat Completions' shapes (MSG: {"content": ...,
               "tool_calls": [...]}, or a string). Refusals are JSON {"error": {kind, message}} with a 4xx status.

                 --port P             the port (default: any free one, printed)
                 --host H             the address to listen on (default 127.0.0.1); one beyond loopback needs
                 --allow-remote       to serve beyond this machine
                 --user PROVIDER:MODEL   the user simulator (default: the domain's; tau2's scripted user answers a
                                      client that replays the gold actions, any other client needs a model here)
                 --judge PROVIDER:MODEL  the judge of model-judged checks (default: the domain's)
                 --max-sessions N     sessions running at once (default 256); a reset over it is refused (429)
                 --idle-timeout S     a session with no step for S seconds is closed (default 600)
                 --episode-timeout S  an episode running S seconds ends, done, as a failure (default 3600)
               Every request needs 'Authorization: Bearer TOKEN': the token comes from $BROKKR_ENV_TOKEN, else a
               fresh one is printed once at start (never logged). The server runs until stopped (Ctrl-C).""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty() || !args.getFirst().equals("serve"))
            throw new UsageException(
                    args.isEmpty()
                            ? "which subcommand? (serve)"
                            : "unknown subcommand '" + args.getFirst() + "' (serve)");
        String domain = null, host = "127.0.0.1";
        Integer port = null;
        boolean allowRemote = false;
        Map<String, ModelRef> roles = new LinkedHashMap<>();
        Env.Settings settings = Env.Settings.defaults();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--allow-remote")) {
                allowRemote = true;
                continue;
            }
            if (!a.startsWith("--")) throw new UsageException("unknown argument '" + a + "'");
            if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
            String v = args.get(++i);
            switch (a) {
                case "--domain" -> domain = v;
                case "--host" -> host = v;
                case "--port" -> port = number(a, v, 0, 65535);
                case "--user", "--judge" -> {
                    try {
                        roles.put(a.substring(2), Planner.providerModel(a, v));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "--max-sessions" -> settings = settings.withMaxSessions(number(a, v, 1, 100_000));
                case "--idle-timeout" -> settings = settings.withIdle(Duration.ofSeconds(number(a, v, 1, 86_400 * 7)));
                case "--episode-timeout" ->
                    settings = settings.withEpisode(Duration.ofSeconds(number(a, v, 1, 86_400 * 7)));
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (domain == null) throw new UsageException("--domain is required");
        BenchmarkProvider provider;
        try {
            provider = context.registry().benchmark(domain);
            // Every counterpart's provider is known and configured before anything is served.
            for (ModelRef ref : roles.values())
                if (!ref.provider().equals(BenchmarkProvider.SCRIPTED))
                    context.registry().model(ref.provider());
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        Env env =
                new Env(provider, settings.withRoles(roles), context.registry().resolver(context.env()));
        LoopbackHttp.Token token = LoopbackHttp.token(context.env(), TOKEN_ENV);
        EnvServer server;
        try {
            server = EnvServer.start(
                    env, token.value(), new LoopbackHttp.Options(host, port == null ? 0 : port, allowRemote));
        } catch (IllegalArgumentException e) {
            env.close();
            throw new InputException(e.getMessage() + (allowRemote ? "" : " (--allow-remote serves it anyway)"));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            env.close();
            stopped.countDown();
        }));
        out.println("brokkr env: serving " + provider.name() + " at " + server.url() + " (POST /reset, /step, /close;"
                + " at most " + settings.maxSessions() + " sessions)");
        out.println(token.announced(TOKEN_ENV));
        out.flush();
        stopped.await();
        return 0;
    }

    private static int number(String option, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException e) {
            // worded below
        }
        throw new UsageException(option + " takes " + min + ".." + max + ", not '" + v + "'");
    }
}
