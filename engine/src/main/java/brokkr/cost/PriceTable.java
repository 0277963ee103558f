package brokkr.cost;

import brokkr.conversation.Usage;
import brokkr.eval.ContentHash;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Prices of models per provider, the one place a price is read: the pinned copy of LiteLLM's
 * {@code model_prices_and_context_window.json} shipped beside this class (its digest checked against its
 * provenance file on every load), then the user's {@code prices.yaml} ({@code $XDG_CONFIG_HOME/brokkr/}, else
 * {@code ~/.config/brokkr/}), then an experiment file's {@code prices:} ({@link #with}), each layer overriding or
 * adding entries.
 *
 * <p>An override is keyed {@code PROVIDER:MODEL} (Brokkr's provider names) and gives US dollars per million
 * tokens, with the date it holds from: <pre>
 * prices:
 *   openai:gpt-4o: {input: 2.5, output: 10, cache_read: 1.25, since: 2025-06-01}
 *   openai:my-model:                     # dated entries: the latest one in force on the call's date
 *     - {input: 1, output: 2, since: 2026-01-01}
 *     - {input: 0.5, output: 1, since: 2026-06-01}
 * </pre>
 *
 * A price is looked up for the date of the call ({@link #find}): the entry with the latest {@code since} on or
 * before that date, the pinned entries (no date) holding only where no dated entry does; on a tie the later
 * layer wins. A model with no entry has no price: {@link #usd} returns NaN, shown as a dash, never 0.
 */
public final class PriceTable {
    /** The pinned table and its provenance, resources beside this class. */
    static final String PINNED = "model_prices_and_context_window.json";

    static final String PROVENANCE = "model_prices_and_context_window.provenance.properties";
    /** Where a price came from when it is the pinned table's. */
    public static final String PINNED_SOURCE = "litellm";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** Entries by {@code provider:model}, each list in layer order (pinned first). */
    private final Map<String, List<Price>> entries;

    private final String pinnedAsOf;

    private PriceTable(Map<String, List<Price>> entries, String pinnedAsOf) {
        this.entries = entries;
        this.pinnedAsOf = pinnedAsOf;
    }

    private static final class Standard {
        static final PriceTable TABLE = standard(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /** The pinned table with the user's file over it, loaded once per process. */
    public static PriceTable standard() {
        return Standard.TABLE;
    }

    /** The pinned table with the user's file (found through {@code env} and {@code home}) over it. */
    public static PriceTable standard(Map<String, String> env, Path home) {
        PriceTable t = pinned();
        Path user = userFile(env, home);
        return Files.isRegularFile(user) ? t.with(readYaml(user), user.toString()) : t;
    }

    /** {@code $XDG_CONFIG_HOME/brokkr/prices.yaml}, else {@code ~/.config/brokkr/prices.yaml}. */
    public static Path userFile(Map<String, String> env, Path home) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path config = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".config");
        return config.resolve("brokkr").resolve("prices.yaml");
    }

    /** The date the pinned table's prices hold from (its provenance's {@code as_of}). */
    public String pinnedAsOf() {
        return pinnedAsOf;
    }

    private static final class Pinned {
        static final PriceTable TABLE = readPinned();
    }

    /** The pinned table alone, its digest checked against its provenance file (read once per process). */
    public static PriceTable pinned() {
        return Pinned.TABLE;
    }

    private static PriceTable readPinned() {
        byte[] bytes = resource(PINNED);
        Properties provenance = new Properties();
        try (InputStream in = new java.io.ByteArrayInputStream(resource(PROVENANCE))) {
            provenance.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String expected = provenance.getProperty("sha256");
        String actual = ContentHash.sha256(bytes);
        if (!actual.equals(expected))
            throw new IllegalStateException(
                    "the pinned price table " + PINNED + " has sha256 " + actual + ", its provenance says " + expected);
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, List<Price>> entries = new LinkedHashMap<>();
        for (var e : root.properties()) {
            JsonNode n = e.getValue();
            if (!n.isObject() || !n.path("litellm_provider").isTextual()) continue; // sample_spec and the like
            if (!n.has("input_cost_per_token") && !n.has("output_cost_per_token")) continue; // images, searches
            String provider = n.get("litellm_provider").asText();
            String model =
                    e.getKey().startsWith(provider + "/") ? e.getKey().substring(provider.length() + 1) : e.getKey();
            entries.computeIfAbsent(provider + ":" + model, k -> new ArrayList<>())
                    .add(new Price(
                            provider,
                            model,
                            perMillion(n.get("input_cost_per_token")),
                            perMillion(n.get("output_cost_per_token")),
                            perMillion(n.get("cache_read_input_token_cost")),
                            perMillion(n.get("cache_creation_input_token_cost")),
                            null,
                            PINNED_SOURCE));
        }
        return new PriceTable(entries, provenance.getProperty("as_of"));
    }

    /**
     * This table with {@code overrides} over it: a map of {@code PROVIDER:MODEL} to an entry or a list of dated
     * entries (a YAML or JSON tree, or the {@code prices} key of one), read from {@code source}.
     */
    public PriceTable with(JsonNode overrides, String source) {
        if (overrides == null || overrides.isNull() || overrides.isMissingNode()) return this;
        if (overrides.has("prices") && overrides.size() == 1) overrides = overrides.get("prices");
        if (!overrides.isObject())
            throw new IllegalArgumentException(source + ": prices must be a map of PROVIDER:MODEL to prices");
        Map<String, List<Price>> out = new LinkedHashMap<>();
        entries.forEach((k, v) -> out.put(k, new ArrayList<>(v)));
        for (var e : overrides.properties()) {
            String key = e.getKey();
            int colon = key.indexOf(':');
            if (colon <= 0 || colon == key.length() - 1)
                throw new IllegalArgumentException(source + ": price key '" + key + "' is not PROVIDER:MODEL");
            List<JsonNode> items = new ArrayList<>();
            if (e.getValue().isArray()) e.getValue().forEach(items::add);
            else items.add(e.getValue());
            for (JsonNode n : items) {
                if (!n.isObject())
                    throw new IllegalArgumentException(source + ": " + key + ": a price is a map (input, output, ...)");
                for (var f : n.properties())
                    if (!List.of("input", "output", "cache_read", "cache_write", "since")
                            .contains(f.getKey()))
                        throw new IllegalArgumentException(
                                source + ": " + key + ": unknown price field '" + f.getKey()
                                        + "' (input, output, cache_read, cache_write: USD per million tokens; since: YYYY-MM-DD)");
                out.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Price(
                                key.substring(0, colon),
                                key.substring(colon + 1),
                                usd(n.get("input"), source, key),
                                usd(n.get("output"), source, key),
                                usd(n.get("cache_read"), source, key),
                                usd(n.get("cache_write"), source, key),
                                date(n.get("since"), source, key),
                                source));
            }
        }
        return new PriceTable(out, pinnedAsOf);
    }

    /**
     * The price of {@code provider}'s {@code model} in force on {@code on}: Brokkr's own entries first (overrides
     * of that provider), then the pinned table's under LiteLLM's name of the provider ({@code claude-code} is
     * priced as {@code anthropic}: the CLI calls Anthropic's API; {@code openai-responses} as {@code openai}). Empty
     * when none holds.
     */
    public Optional<Price> find(String provider, String model, LocalDate on) {
        Optional<Price> own = inForce(entries.get(provider + ":" + model), on);
        if (own.isPresent()) return own;
        String litellm = litellmProvider(provider);
        return litellm.equals(provider) ? own : inForce(entries.get(litellm + ":" + model), on);
    }

    /** US dollars for {@code usage} of {@code provider}'s {@code model} on {@code on}; NaN when it has no price. */
    public double usd(String provider, String model, Usage usage, LocalDate on) {
        return find(provider, model, on).map(p -> p.usd(usage)).orElse(Double.NaN);
    }

    private static Optional<Price> inForce(List<Price> prices, LocalDate on) {
        if (prices == null) return Optional.empty();
        Price best = null;
        for (Price p : prices) {
            if (p.since() != null && (on == null || p.since().isAfter(on))) continue; // not yet in force
            // A dated entry beats an undated one, a later date an earlier; on a tie the later layer (listed later)
            // wins.
            if (best == null
                    || best.since() == null
                    || (p.since() != null && !p.since().isBefore(best.since()))) best = p;
        }
        return Optional.ofNullable(best);
    }

    /** LiteLLM's name of a Brokkr provider. */
    static String litellmProvider(String provider) {
        return switch (provider) {
            case "claude-code" -> "anthropic";
            // The same models and prices as chat completions; only the wire differs.
            case "openai-responses" -> "openai";
            default -> provider;
        };
    }

    private static Double perMillion(JsonNode n) {
        return n == null || !n.isNumber()
                ? null
                : n.decimalValue().movePointRight(6).doubleValue();
    }

    private static Double usd(JsonNode n, String source, String key) {
        if (n == null || n.isNull()) return null;
        if (!n.isNumber() || n.decimalValue().signum() < 0)
            throw new IllegalArgumentException(
                    source + ": " + key + ": a price is a number >= 0 (USD per million tokens), not " + n);
        return n.decimalValue().doubleValue();
    }

    private static LocalDate date(JsonNode n, String source, String key) {
        if (n == null || n.isNull()) return null;
        try {
            return LocalDate.parse(n.asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(source + ": " + key + ": since must be a date YYYY-MM-DD, not " + n);
        }
    }

    /** A YAML file's tree (a clear error naming the file when it is not YAML). */
    public static JsonNode readYaml(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not a readable prices file: " + e.getMessage(), e);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = PriceTable.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing resource brokkr/cost/" + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
