package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Benchmark providers by domain name and model factories by provider name: the one place a domain
 * name is resolved. {@link #load()} finds them with {@link ServiceLoader}, so a domain or a model
 * provider plugs in by shipping a {@code META-INF/services} entry; {@link #of} builds an explicit
 * registry (tests, embedding). Benchmarks keep the order they were registered in (services files in
 * class-path order), which is the order listings show.
 */
public record Registry(Map<String, BenchmarkProvider> benchmarks, Map<String, ModelFactory> models) {
    public Registry {
        benchmarks = Collections.unmodifiableMap(new LinkedHashMap<>(benchmarks));
        models = Map.copyOf(models);
    }

    public static Registry of(List<? extends BenchmarkProvider> benchmarks, List<? extends ModelFactory> models) {
        Map<String, BenchmarkProvider> b = new LinkedHashMap<>();
        for (BenchmarkProvider p : benchmarks) {
            if (b.putIfAbsent(p.name(), p) != null)
                throw new IllegalArgumentException("two benchmark providers named " + p.name());
        }
        Map<String, ModelFactory> m = new TreeMap<>();
        for (ModelFactory f : models) {
            if (f.provider().equals(BenchmarkProvider.SCRIPTED)) {
                throw new IllegalArgumentException("'" + BenchmarkProvider.SCRIPTED
                        + "' names benchmarks' own scripted models; a model factory cannot take it");
            }
            if (m.putIfAbsent(f.provider(), f) != null)
                throw new IllegalArgumentException("two model factories for provider " + f.provider());
        }
        // Aliases after every own name, so a factory's own name always wins over another's alias.
        for (ModelFactory f : models) {
            for (String alias : f.aliases()) {
                if (alias.equals(BenchmarkProvider.SCRIPTED))
                    throw new IllegalArgumentException("a model factory cannot take the alias '" + alias + "'");
                ModelFactory other = m.putIfAbsent(alias, f);
                if (other != null && other != f && !other.provider().equals(alias)) {
                    throw new IllegalArgumentException("two model factories answer to provider " + alias);
                }
            }
        }
        return new Registry(b, m);
    }

    /**
     * The registry of this process: loaded once on first use ({@link #load()}), then the same object for
     * every face in the JVM (the CLI's commands, the kernel's session and its magics), so each provider's
     * data is loaded and verified once per process. Entry points take it here and pass it on; nothing
     * else calls {@link #load()}.
     */
    public static Registry process() {
        return ProcessHolder.REGISTRY;
    }

    private static final class ProcessHolder {
        static final Registry REGISTRY = load();
    }

    public static Registry load() {
        List<BenchmarkProvider> b = new ArrayList<>();
        ServiceLoader.load(BenchmarkProvider.class).forEach(b::add);
        List<ModelFactory> m = new ArrayList<>();
        ServiceLoader.load(ModelFactory.class).forEach(m::add);
        return of(b, m);
    }

    /** This registry plus {@code more} (theirs win on a name clash: an explicit override). */
    public Registry with(List<? extends BenchmarkProvider> more, List<? extends ModelFactory> moreModels) {
        Map<String, BenchmarkProvider> b = new LinkedHashMap<>(benchmarks);
        more.forEach(p -> b.put(p.name(), p));
        List<ModelFactory> m = new ArrayList<>(factories());
        m.removeIf(f -> moreModels.stream().anyMatch(x -> x.provider().equals(f.provider())));
        m.addAll(moreModels);
        return of(new ArrayList<>(b.values()), m);
    }

    public BenchmarkProvider benchmark(String name) {
        BenchmarkProvider p = benchmarks.get(name);
        if (p == null)
            throw new ExperimentSpec.SpecException("unknown domain '" + name + "' (registered: "
                    + String.join(", ", new TreeMap<>(benchmarks).keySet()) + ")");
        return p;
    }

    /**
     * The one model resolver: a model reference to a candidate of its provider's factory (by name or
     * alias), as the factory is configured (the registered HTTP factories read keys and base URLs from
     * the process environment). Every face resolves models here (experiment files, commands, magics,
     * probes, regrades), so a provider name means the same everywhere.
     */
    public Function<ModelRef, Candidate> resolver() {
        return ref -> model(ref.provider()).create(ref);
    }

    /** As {@link #resolver()}, keys and base URLs read from {@code env} (a command's environment, a test's map). */
    public Function<ModelRef, Candidate> resolver(Map<String, String> env) {
        Map<String, String> e = Map.copyOf(env);
        return ref -> model(ref.provider()).create(ref, e);
    }

    /**
     * As {@link #resolver()}, for an experiment stored in the directory {@code dir}: each reference as its factory
     * opens it there ({@link ModelFactory#inExperiment}).
     */
    public Function<ModelRef, Candidate> resolverIn(java.nio.file.Path dir) {
        return ref -> {
            ModelFactory f = model(ref.provider());
            return f.create(f.inExperiment(ref, dir));
        };
    }

    public ModelFactory model(String provider) {
        ModelFactory f = models.get(provider);
        if (f == null) {
            List<String> aliases = new ArrayList<>();
            for (ModelFactory m : factories()) {
                List<String> own = m.aliases().stream()
                        .filter(a -> models.get(a) == m)
                        .sorted()
                        .toList();
                if (!own.isEmpty()) aliases.add(m.provider() + " also as " + String.join(", ", own));
            }
            throw new ExperimentSpec.SpecException("unknown model provider '" + provider + "' (registered: "
                    + String.join(
                            ", ",
                            factories().stream()
                                    .map(ModelFactory::provider)
                                    .sorted()
                                    .toList())
                    + (aliases.isEmpty() ? "" : "; " + String.join("; ", aliases)) + ")");
        }
        return f;
    }

    /** Each model factory once (the map holds a factory under its aliases too), in registration order. */
    public List<ModelFactory> factories() {
        List<ModelFactory> out = new ArrayList<>();
        for (ModelFactory f : models.values()) if (out.stream().noneMatch(x -> x == f)) out.add(f);
        return out;
    }
}
