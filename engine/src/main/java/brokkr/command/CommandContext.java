package brokkr.command;

import brokkr.experiment.Registry;
import java.util.Map;

/**
 * What a command is made with: the process's one {@link Registry} (benchmarks and model factories,
 * each provider's data loaded once per process) and the environment it reads keys and base URLs
 * from (the process environment, or a map in tests).
 */
public record CommandContext(Registry registry, Map<String, String> env) {
    public CommandContext {
        env = Map.copyOf(env);
    }

    /** The process's registry and environment: what {@code ./brokkr} runs with. */
    public static CommandContext process() {
        return new CommandContext(Registry.process(), System.getenv());
    }
}
