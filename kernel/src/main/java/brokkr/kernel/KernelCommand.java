package brokkr.kernel;

import brokkr.command.Command;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;

/**
 * {@code ./brokkr kernel}: runs the Jupyter kernel on a connection file, or installs / uninstalls its
 * kernelspec. Jupyter starts it through the kernelspec's argv ({@code kernel run --connection-file F}).
 */
public record KernelCommand(Map<String, String> env) implements Command {
    public KernelCommand() {
        this(System.getenv());
    }

    @Override
    public String name() {
        return "kernel";
    }

    @Override
    public String summary() {
        return "the Jupyter kernel: install | uninstall | run --connection-file F";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr kernel install [--user | --sys-prefix | --prefix DIR]
                      ./brokkr kernel uninstall [--user | --sys-prefix | --prefix DIR]
                      ./brokkr kernel [run] --connection-file FILE

               install    writes the kernelspec "brokkr" (display name "Brokkr (Java 25)", language java) for this
                          Java with a copy of the class path's jars in its lib/ (about 70 MB), so the kernel keeps
                          starting after `mvn clean` or with the Maven cache cleared; install again to pick up
                          changed sources. --user (default) in your Jupyter data directory, --sys-prefix in the
                          active Python environment, --prefix DIR in DIR/share/jupyter/kernels. Afterwards the kernel
                          is offered by Jupyter Notebook, JupyterLab, VS Code and `jupyter console --kernel brokkr`.
                          Each benchmark family's data directory (../shared next to this checkout, or its variable,
                          e.g. BROKKR_TAU2_DATA) is recorded in the kernelspec's environment.
               uninstall  removes it again from the same place.
               run        serves the Jupyter protocol on the sockets of the connection file (what Jupyter starts).""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty()) throw new UsageException("which? install, uninstall or run --connection-file FILE");
        String sub = args.getFirst();
        List<String> rest = args.subList(1, args.size());
        return switch (sub) {
            case "install" -> {
                Path dir = KernelSpec.install(location(rest), env);
                out.println("installed kernelspec " + KernelSpec.NAME + " in " + dir);
                yield 0;
            }
            case "uninstall" -> {
                KernelSpec.Location where = location(rest);
                boolean removed = KernelSpec.uninstall(where, env);
                out.println(
                        removed
                                ? "removed kernelspec " + KernelSpec.NAME + " from " + KernelSpec.kernelsDir(where, env)
                                : "no kernelspec " + KernelSpec.NAME + " in " + KernelSpec.kernelsDir(where, env));
                yield 0;
            }
            case "run" -> serve(connectionFile(rest));
            case "--connection-file" -> serve(connectionFile(args));
            default -> throw new UsageException("unknown subcommand '" + sub + "'");
        };
    }

    static KernelSpec.Location location(List<String> args) {
        if (args.isEmpty()) return new KernelSpec.User();
        return switch (args.getFirst()) {
            case "--user" -> only(args, 1, new KernelSpec.User());
            case "--sys-prefix" -> only(args, 1, new KernelSpec.SysPrefix());
            case "--prefix" -> {
                if (args.size() < 2) throw new UsageException("--prefix needs a directory");
                yield only(args, 2, new KernelSpec.Prefix(Path.of(args.get(1))));
            }
            default -> throw new UsageException("unknown option '" + args.getFirst() + "'");
        };
    }

    private static KernelSpec.Location only(List<String> args, int n, KernelSpec.Location l) {
        if (args.size() > n) throw new UsageException("unexpected argument '" + args.get(n) + "'");
        return l;
    }

    static Path connectionFile(List<String> args) {
        if (args.size() == 2 && args.get(0).equals("--connection-file")) return Path.of(args.get(1));
        if (args.size() == 1 && args.get(0).startsWith("--connection-file="))
            return Path.of(args.get(0).substring(18));
        throw new UsageException("run needs --connection-file FILE");
    }

    /**
     * Serves until a shutdown request or the client's death ({@link KernelServer}); the process then exits
     * (Jupyter restarts by starting a new one).
     */
    int serve(Path connectionFile) throws Exception {
        System.setProperty("java.awt.headless", "true");
        KernelConnectionProperties props = ConnectionFile.read(connectionFile);
        KernelServer.exit(KernelServer.serve(props, BrokkrKernelBuilder.builder(), env));
        return 0;
    }
}
