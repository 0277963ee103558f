package brokkr.experiment;

import brokkr.cost.Budget;
import brokkr.cost.CellBudget;
import brokkr.cost.PriceTable;
import brokkr.eval.AgentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An experiment: which tasks (domains with a split or explicit task ids), which candidates, how many
 * repetitions, and how to run them (parallelism, provider limits, retries, timeout). The user
 * simulator and judge models are part of every task's EnvironmentDef (by role, in {@link #models}).
 * Read from JSON or YAML with {@link #read}; unknown keys are errors so a typo cannot silently change
 * an experiment.
 */
public record ExperimentSpec(
        String name,
        List<DomainSpec> domains,
        List<CandidateSpec> candidates,
        int repetitions,
        int parallelism,
        Map<String, ProviderLimit> providerLimits,
        Map<String, ModelRef> models,
        int maxInfraRetries,
        Duration cellTimeout,
        boolean progress,
        CacheSpec cache,
        CostSpec costs) {

    /**
     * What the experiment may spend and the prices it is charged at: {@code budget:} ({@link Budget}, and each
     * cell's candidate {@code budget.per_cell}: {@link CellBudget}) and
     * {@code prices:} (entries over the standard price table, {@link PriceTable#with}). Operational, like
     * parallelism: neither is part of the stored spec or of a cell's identity, so a larger budget or a new
     * price resumes the same cells.
     */
    public record CostSpec(Budget budget, PyDict prices, CellBudget perCell) {
        public static final CostSpec NONE = new CostSpec(Budget.NONE, PyDict.empty());

        public CostSpec {
            budget = budget == null ? Budget.NONE : budget;
            prices = prices == null ? PyDict.empty() : prices;
            perCell = perCell == null ? CellBudget.NONE : perCell;
        }

        /** No budget per cell. */
        public CostSpec(Budget budget, PyDict prices) {
            this(budget, prices, CellBudget.NONE);
        }

        /**
         * The standard price table with the prices of a stored spec ({@link #toJson}) over it: what a store's
         * scorecard, report and comparison price with. The standard table when the spec gives none or is not JSON.
         */
        public static PriceTable storedPrices(String specJson) {
            if (specJson == null || specJson.isEmpty() || !specJson.contains("\"prices\""))
                return PriceTable.standard();
            Value v = Json.parse(specJson);
            if (!(v instanceof PyDict d) || !(d.get("prices") instanceof PyDict p)) return PriceTable.standard();
            return new CostSpec(Budget.NONE, p).prices(PriceTable.standard());
        }

        /** {@code base} with this experiment's prices over it. */
        public PriceTable prices(PriceTable base) {
            if (prices.isEmpty()) return base;
            try {
                return base.with(
                        new com.fasterxml.jackson.databind.ObjectMapper().readTree(PyJson.dumps(prices)), "prices:");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** An experiment without a budget or prices of its own. */
    public ExperimentSpec(
            String name,
            List<DomainSpec> domains,
            List<CandidateSpec> candidates,
            int repetitions,
            int parallelism,
            Map<String, ProviderLimit> providerLimits,
            Map<String, ModelRef> models,
            int maxInfraRetries,
            Duration cellTimeout,
            boolean progress,
            CacheSpec cache) {
        this(
                name,
                domains,
                candidates,
                repetitions,
                parallelism,
                providerLimits,
                models,
                maxInfraRetries,
                cellTimeout,
                progress,
                cache,
                CostSpec.NONE);
    }

    /** An experiment without a model-call cache (the spec's shape before {@code cache} existed). */
    public ExperimentSpec(
            String name,
            List<DomainSpec> domains,
            List<CandidateSpec> candidates,
            int repetitions,
            int parallelism,
            Map<String, ProviderLimit> providerLimits,
            Map<String, ModelRef> models,
            int maxInfraRetries,
            Duration cellTimeout,
            boolean progress) {
        this(
                name,
                domains,
                candidates,
                repetitions,
                parallelism,
                providerLimits,
                models,
                maxInfraRetries,
                cellTimeout,
                progress,
                CacheSpec.NONE);
    }

    /**
     * Which model calls the model-call cache serves ({@code cache: true} on a candidate, by its label,
     * or on a role's model: {@code user}, {@code judge}, ...) and where the cache is kept: the
     * experiment's store, or the shared cache {@code file} when given (a path, resolved against the
     * experiment file's folder). The cache changes no definition: a call it serves is recorded as a hit.
     */
    public record CacheSpec(Set<String> candidates, Set<String> roles, Path file) {
        public static final CacheSpec NONE = new CacheSpec(Set.of(), Set.of(), null);

        public CacheSpec {
            candidates = Set.copyOf(candidates);
            roles = Set.copyOf(roles);
        }

        /** Whether any call is served from the cache. */
        public boolean enabled() {
            return !candidates.isEmpty() || !roles.isEmpty();
        }

        /** Whether the calls of {@code role} in a cell of candidate {@code candidate} (its label) are served from the cache. */
        public boolean covers(String role, String candidate) {
            return role.equals(Evidence.AGENT) ? candidates.contains(candidate) : roles.contains(role);
        }
    }

    /**
     * A benchmark, either a split or explicit task ids, and the benchmark's settings ({@code options},
     * over its defaults; part of every task's EnvironmentDef, see {@link brokkr.eval.BenchmarkProvider}).
     */
    public record DomainSpec(String name, String split, List<String> taskIds, PyDict options) {
        public DomainSpec {
            taskIds = taskIds == null ? null : List.copyOf(taskIds);
            options = options == null ? PyDict.empty() : options;
            if ((split == null) == (taskIds == null))
                throw new SpecException("domain " + name + ": give exactly one of split or tasks");
        }

        public DomainSpec(String name, String split, List<String> taskIds) {
            this(name, split, taskIds, PyDict.empty());
        }
    }

    /** A candidate: a label for display, its model, its action space and optionally its own system prompt. */
    public record CandidateSpec(
            String label, ModelRef model, String actionSpace, String systemPrompt, Harness harness) {
        public CandidateSpec {
            checkCandidateId(label);
            harness = harness == null ? Harness.DEFAULT_REFERENCE : harness;
        }

        public CandidateSpec(String label, ModelRef model, String actionSpace, String systemPrompt) {
            this(label, model, actionSpace, systemPrompt, null);
        }

        public AgentDef agentDef() {
            return AgentDef.of(model, actionSpace, systemPrompt).withHarness(harness.toValue());
        }
    }

    /** Limits of one model provider across the whole experiment: concurrent calls and calls per second (0 = none). */
    public record ProviderLimit(int concurrency, double ratePerSecond) {}

    /** A malformed experiment file or spec. */
    public static final class SpecException extends IllegalArgumentException {
        public SpecException(String message) {
            super(message);
        }
    }

    /** Upper bounds of the counts and the cell timeout: beyond them a value is a typo or a unit mistake, not a plan. */
    public static final int MAX_REPETITIONS = 10_000;

    public static final int MAX_PARALLELISM = 10_000;
    public static final int MAX_INFRA_RETRIES = 100;
    public static final Duration MAX_CELL_TIMEOUT = Duration.ofDays(7);
    /** A name is a directory name ({@code .brokkr/experiments/NAME}); longer ones are refused by some file systems. */
    public static final int MAX_NAME_LENGTH = 128;

    public ExperimentSpec {
        checkName(name);
        domains = List.copyOf(domains);
        candidates = List.copyOf(candidates);
        providerLimits = Map.copyOf(providerLimits == null ? Map.of() : providerLimits);
        cache = cache == null ? CacheSpec.NONE : cache;
        models = Map.copyOf(models == null ? Map.of() : models);
        if (domains.isEmpty()) throw new SpecException("no domains");
        if (candidates.isEmpty()) throw new SpecException("no candidates");
        checkRange("repetitions", repetitions, 1, MAX_REPETITIONS);
        checkRange("parallelism", parallelism, 1, MAX_PARALLELISM);
        costs = costs == null ? CostSpec.NONE : costs;
        checkRange("max_infra_retries", maxInfraRetries, 0, MAX_INFRA_RETRIES);
        if (cellTimeout == null || cellTimeout.isNegative() || cellTimeout.isZero())
            throw new SpecException("'cell_timeout_seconds' must be greater than 0");
        if (cellTimeout.compareTo(MAX_CELL_TIMEOUT) > 0)
            throw new SpecException("'cell_timeout_seconds' must be at most " + MAX_CELL_TIMEOUT.toSeconds());
        Set<String> labels = new HashSet<>();
        Map<String, String> ids = new LinkedHashMap<>();
        for (CandidateSpec c : candidates) {
            if (!labels.add(c.label())) throw new SpecException("duplicate candidate id " + c.label());
            String prev = ids.put(c.agentDef().id(), c.label());
            if (prev != null)
                throw new SpecException("candidates " + prev + " and " + c.label() + " are the same definition");
        }
    }

    /** Candidate ids longer than this are refused: an id is a table column, a file name part and a report heading. */
    public static final int MAX_CANDIDATE_ID_LENGTH = 256;

    /**
     * A candidate id (a spec's {@code id}, an imported file's agent) is shown in tables, reports and file names:
     * it must be non-blank, at most {@value #MAX_CANDIDATE_ID_LENGTH} characters, without control or invisible
     * formatting characters (NUL, newlines, bidi overrides), which would make two ids look alike or garble
     * what shows them. A SpecException (an IllegalArgumentException) otherwise.
     */
    public static void checkCandidateId(String id) {
        if (id == null || id.isBlank()) throw new SpecException("a candidate id must not be blank");
        if (id.length() > MAX_CANDIDATE_ID_LENGTH)
            throw new SpecException(
                    "candidate id must be at most " + MAX_CANDIDATE_ID_LENGTH + " characters, got " + id.length());
        int bad = id.codePoints()
                .filter(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)
                .findFirst()
                .orElse(-1);
        if (bad >= 0)
            throw new SpecException(String.format(
                    "candidate id '%s' holds the control or formatting character U+%04X",
                    id.codePoints()
                            .map(c -> c == bad ? '?' : c)
                            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append),
                    bad));
    }

    /**
     * The name becomes the directory {@code .brokkr/experiments/NAME}: it must be one directory name,
     * so that no name can reach outside that folder ({@code ../x}, {@code a/b}, an absolute path).
     */
    private static void checkName(String name) {
        if (name == null || name.isBlank()) throw new SpecException("name is required");
        if (name.equals(".")
                || name.contains("/")
                || name.contains("\\")
                || name.contains("..")
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new SpecException("name '" + name
                    + "' must be usable as one directory name: no '/', '\\', '..' or control characters");
        }
        if (name.length() > MAX_NAME_LENGTH)
            throw new SpecException("name must be at most " + MAX_NAME_LENGTH + " characters, got " + name.length());
    }

    /** Same experiment with the progress bar switched on or off. */
    public ExperimentSpec withProgress(boolean on) {
        return new ExperimentSpec(
                name,
                domains,
                candidates,
                repetitions,
                parallelism,
                providerLimits,
                models,
                maxInfraRetries,
                cellTimeout,
                on,
                cache,
                costs);
    }

    /** Same experiment with another budget and prices (the cells are the same: neither is part of their identity). */
    public ExperimentSpec withCosts(CostSpec c) {
        return new ExperimentSpec(
                name,
                domains,
                candidates,
                repetitions,
                parallelism,
                providerLimits,
                models,
                maxInfraRetries,
                cellTimeout,
                progress,
                cache,
                c);
    }

    // ---------------------------------------------------------------- reading

    /** The keys of an experiment file's top level (anything else is an error). */
    public static final Set<String> TOP = Set.of(
            "name",
            "domain",
            "domains",
            "split",
            "tasks",
            "options",
            "candidates",
            "repetitions",
            "parallelism",
            "providers",
            "user",
            "judge",
            "models",
            "max_infra_retries",
            "cell_timeout_seconds",
            "progress",
            "cache_file",
            "budget",
            "prices",
            "store");

    /**
     * Reads an experiment file: YAML when it ends in .yaml/.yml, JSON otherwise. The file holds exactly
     * one mapping: a key given twice and anything after the mapping (a second YAML document, trailing
     * text after the JSON object) are errors, not "last one wins" or "ignored".
     */
    public static ExperimentSpec read(Path file) {
        String n = file.getFileName().toString();
        boolean yaml = n.endsWith(".yaml") || n.endsWith(".yml");
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new SpecException(file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
        String stem = n.contains(".") ? n.substring(0, n.lastIndexOf('.')) : n;
        return parse(text, yaml, file.toString(), stem, file.toAbsolutePath().getParent());
    }

    /**
     * The {@code store:} of an experiment file: where its results are kept when the command line names no store
     * ({@code postgresql://HOST[:PORT]/DB[?schema=S]}, or a directory), or null. Not part of the experiment
     * itself (its spec JSON, stored with its results, leaves it out): the same experiment may be kept anywhere.
     * The file must be one {@link #read} accepts.
     */
    public static String store(Path file) {
        read(file); // the file's own errors first, as a run reports them
        String n = file.getFileName().toString();
        ObjectMapper mapper = n.endsWith(".yaml") || n.endsWith(".yml") ? YAML : JSON;
        try {
            JsonNode store = mapper.readTree(Files.readString(file)).get("store");
            if (store == null || store.isNull()) return null;
            if (!store.isTextual()) throw new SpecException(file + ": store must be a text (a URL or a directory)");
            return store.asText();
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }

    /**
     * Parses an experiment from text, YAML (which also reads JSON) or JSON, as strictly as {@link #read}
     * does; {@code source} names the text in error messages (a file, a notebook cell).
     */
    public static ExperimentSpec parse(String text, boolean yaml, String source, String defaultName, Path baseDir) {
        ObjectMapper mapper = yaml ? YAML : JSON;
        JsonNode node;
        try (JsonParser p = mapper.createParser(text)) {
            node = mapper.readTree(p);
            try {
                if (p.nextToken() != null) throw new SpecException(at(source, p.currentTokenLocation()) + TRAILING);
            } catch (JsonProcessingException e) {
                throw new SpecException(at(source, e.getLocation()) + TRAILING);
            }
        } catch (JsonProcessingException e) {
            String m = e.getOriginalMessage();
            // Jackson says "field"; a YAML or JSON author knows them as keys.
            if (m.startsWith("Duplicate field ")) m = "duplicate key " + m.substring("Duplicate field ".length());
            throw new SpecException(at(source, e.getLocation()) + m);
        } catch (IOException e) {
            throw new UncheckedIOException(source, e);
        }
        if (node == null || !node.isObject()) throw new SpecException(source + ": an experiment file is a mapping");
        return fromValue(toValue(node).asDict(), defaultName, baseDir);
    }

    private static final String TRAILING = "trailing content after the experiment (a file holds one mapping)";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static String at(String source, JsonLocation where) {
        return where == null || where.getLineNr() < 1 ? source + ": " : source + ":" + where.getLineNr() + ": ";
    }

    /** The most bytes a {@code system_prompt_file} may hold: far more than any prompt, and no device's endless stream. */
    public static final int MAX_PROMPT_BYTES = 4 << 20;

    /**
     * A system prompt file's text (UTF-8, strictly, as {@link Files#readString} reads it), read no
     * further than {@link #MAX_PROMPT_BYTES}: {@code /dev/zero} or a huge file is refused, not read
     * until the heap is full.
     */
    static String promptText(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_PROMPT_BYTES + 1);
        }
        if (bytes.length > MAX_PROMPT_BYTES)
            throw new IOException("larger than " + (MAX_PROMPT_BYTES >> 20) + " MiB, the most a system prompt may be");
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    /** Parses a spec from its data; {@code baseDir} resolves {@code system_prompt_file}. */
    public static ExperimentSpec fromValue(PyDict d, String defaultName, Path baseDir) {
        checkKeys(d, "experiment", TOP);
        List<DomainSpec> domains = new ArrayList<>();
        if (d.containsKey("domain")) {
            if (d.containsKey("domains")) throw new SpecException("give domain or domains, not both");
            domains.add(new DomainSpec(
                    str(d, "domain"), optStr(d, "split"), optStrList(d, "tasks"), optDict(d, "options")));
        } else {
            if (d.containsKey("split") || d.containsKey("tasks") || d.containsKey("options")) {
                throw new SpecException("split/tasks/options at the top level go with 'domain'");
            }
            for (Value v : list(d, "domains")) {
                PyDict dd = dict(v, "domains[]");
                checkKeys(dd, "domain", Set.of("name", "split", "tasks", "options"));
                domains.add(new DomainSpec(
                        str(dd, "name"), optStr(dd, "split"), optStrList(dd, "tasks"), optDict(dd, "options")));
            }
        }
        List<CandidateSpec> candidates = new ArrayList<>();
        Set<String> cachedCandidates = new HashSet<>(), cachedRoles = new HashSet<>();
        for (Value v : list(d, "candidates")) {
            PyDict c = dict(v, "candidates[]");
            checkKeys(c, "candidate", CANDIDATE_KEYS);
            if (c.containsKey("cache") && bool(c.get("cache"), "candidate " + str(c, "id") + ": cache"))
                cachedCandidates.add(str(c, "id"));
            String prompt = optStr(c, "system_prompt");
            String promptFile = optStr(c, "system_prompt_file");
            if (prompt != null && promptFile != null)
                throw new SpecException(
                        "candidate " + str(c, "id") + ": system_prompt or system_prompt_file, not both");
            if (promptFile != null) {
                try {
                    prompt = promptText(baseDir == null ? Path.of(promptFile) : baseDir.resolve(promptFile));
                } catch (IOException e) {
                    throw new SpecException("candidate " + str(c, "id") + ": cannot read system_prompt_file "
                            + promptFile + ": " + e.getMessage());
                }
            }
            Value opts = c.get("options");
            String actionSpace = c.containsKey("action_space") ? str(c, "action_space") : "tools";
            Harness harness;
            try {
                harness = Harness.of(
                        optStr(c, "harness"), actionSpace, optStr(c, "repl_guidance"), optDict(c, "harness_options"));
            } catch (IllegalArgumentException e) {
                throw new SpecException("candidate " + str(c, "id") + ": " + e.getMessage());
            }
            candidates.add(new CandidateSpec(
                    str(c, "id"),
                    new ModelRef(
                            str(c, "provider"), str(c, "model"), opts == null ? PyDict.empty() : dict(opts, "options")),
                    actionSpace,
                    prompt,
                    harness));
        }
        Map<String, ProviderLimit> limits = new TreeMap<>();
        if (d.containsKey("providers")) {
            for (var e : dict(d.get("providers"), "providers").entries()) {
                PyDict p = dict(e.getValue(), "providers." + e.getKey());
                checkKeys(p, "provider " + e.getKey(), Set.of("concurrency", "rate_per_second"));
                String key = "providers." + e.getKey() + ".";
                limits.put(
                        e.getKey(),
                        new ProviderLimit(
                                count(p, "concurrency", key, 0, 0, MAX_PARALLELISM), rate(p, "rate_per_second", key)));
            }
        }
        Map<String, ModelRef> models = new TreeMap<>();
        for (String role : List.of("user", "judge")) {
            if (!d.containsKey(role)) continue;
            models.put(role, model(d.get(role), role));
            if (cached(d.get(role), role)) cachedRoles.add(role);
        }
        if (d.containsKey("models")) {
            for (var e : dict(d.get("models"), "models").entries()) {
                if (models.containsKey(e.getKey()))
                    throw new SpecException("model role " + e.getKey() + " given twice");
                models.put(e.getKey(), model(e.getValue(), e.getKey()));
                if (cached(e.getValue(), e.getKey())) cachedRoles.add(e.getKey());
            }
        }
        String cacheFile = optStr(d, "cache_file");
        if (cacheFile != null && cachedCandidates.isEmpty() && cachedRoles.isEmpty()) {
            throw new SpecException("cache_file is given but no candidate or role says cache: true");
        }
        CacheSpec cache = new CacheSpec(
                cachedCandidates,
                cachedRoles,
                cacheFile == null
                        ? null
                        : (baseDir == null ? Path.of(cacheFile) : baseDir.resolve(cacheFile))
                                .toAbsolutePath()
                                .normalize());
        return new ExperimentSpec(
                d.containsKey("name") ? str(d, "name") : defaultName,
                domains,
                candidates,
                count(d, "repetitions", "", 1, 1, MAX_REPETITIONS),
                count(d, "parallelism", "", 4, 1, MAX_PARALLELISM),
                limits,
                models,
                count(d, "max_infra_retries", "", 3, 0, MAX_INFRA_RETRIES),
                cellTimeout(d, "cell_timeout_seconds", 1800),
                !d.containsKey("progress") || bool(d.get("progress"), "progress"),
                cache,
                costs(d));
    }

    /** {@code budget: {max_cost_usd, max_tokens, on_budget}} and {@code prices:}, checked here (a bad price names its key). */
    private static CostSpec costs(PyDict d) {
        PyDict b = optDict(d, "budget");
        checkKeys(b, "budget", Set.of("max_cost_usd", "max_tokens", "on_budget", "per_cell"));
        PyDict pc = optDict(b, "per_cell");
        checkKeys(pc, "budget.per_cell", Set.of("max_cost_usd", "max_tokens"));
        Budget budget;
        CellBudget perCell;
        try {
            Double cellTokens = number(pc, "max_tokens", "budget.per_cell.");
            if (cellTokens != null && cellTokens != Math.rint(cellTokens))
                throw new SpecException("'budget.per_cell.max_tokens' must be a whole number, got "
                        + PyJson.dumps(pc.get("max_tokens")));
            perCell = new CellBudget(
                    number(pc, "max_cost_usd", "budget.per_cell."), cellTokens == null ? null : cellTokens.longValue());
            Double tokens = number(b, "max_tokens", "budget.");
            if (tokens != null && tokens != Math.rint(tokens))
                throw new SpecException(
                        "'budget.max_tokens' must be a whole number, got " + PyJson.dumps(b.get("max_tokens")));
            budget = new Budget(
                    number(b, "max_cost_usd", "budget."),
                    tokens == null ? null : tokens.longValue(),
                    b.containsKey("on_budget") ? Budget.OnBudget.parse(str(b, "on_budget")) : Budget.OnBudget.FINISH);
        } catch (IllegalArgumentException e) {
            if (e instanceof SpecException) throw e;
            throw new SpecException("budget: " + e.getMessage());
        }
        CostSpec c = new CostSpec(budget, optDict(d, "prices"), perCell);
        try {
            if (!c.prices().isEmpty()) c.prices(PriceTable.pinned());
        } catch (IllegalArgumentException e) {
            throw new SpecException(e.getMessage());
        }
        return c;
    }

    /** The keys of a candidate (anything else is an error). */
    public static final Set<String> CANDIDATE_KEYS = Set.of(
            "id",
            "provider",
            "model",
            "action_space",
            "options",
            "system_prompt",
            "system_prompt_file",
            "cache",
            "harness",
            "repl_guidance",
            "harness_options");

    /** The spec as data (stored with the experiment); system prompts appear by sha256 only. */
    public PyDict toValue() {
        List<Value> ds = new ArrayList<>();
        for (DomainSpec x : domains) {
            PyDict.Builder b = PyDict.builder().put("name", x.name());
            if (x.split() != null) b.put("split", x.split());
            else b.put("tasks", x.taskIds());
            if (!x.options().isEmpty()) b.put("options", x.options());
            ds.add(b.build());
        }
        List<Value> cs = new ArrayList<>();
        for (CandidateSpec c : candidates) {
            AgentDef a = c.agentDef();
            cs.add(PyDict.builder()
                    .put("id", c.label())
                    .put("agent_id", a.id())
                    .put("definition", a.toValue())
                    .build());
        }
        PyDict.Builder lim = PyDict.builder();
        new TreeMap<>(providerLimits)
                .forEach((k, v) ->
                        lim.put(k, PyDict.of("concurrency", v.concurrency(), "rate_per_second", v.ratePerSecond())));
        PyDict.Builder ms = PyDict.builder();
        new TreeMap<>(models).forEach((k, v) -> ms.put(k, v.toValue()));
        PyDict.Builder b = PyDict.builder()
                .put("name", name)
                .put("domains", PyList.of(ds))
                .put("candidates", PyList.of(cs))
                .put("repetitions", repetitions)
                .put("parallelism", parallelism)
                .put("providers", lim.build())
                .put("models", ms.build())
                .put("max_infra_retries", maxInfraRetries)
                .put("cell_timeout_seconds", cellTimeout.toMillis() / 1000.0);
        // Prices and a budget are kept in the stored spec (the latest run's, for the report and experiment show to
        // price with) only when given; neither enters a cell's identity.
        if (!costs.prices().isEmpty()) b.put("prices", costs.prices());
        if (costs.budget().limited() || costs.perCell().limited()) {
            PyDict.Builder bb = PyDict.builder();
            if (costs.perCell().limited()) {
                PyDict.Builder pc = PyDict.builder();
                if (costs.perCell().maxCostUsd() != null)
                    pc.put("max_cost_usd", costs.perCell().maxCostUsd());
                if (costs.perCell().maxTokens() != null)
                    pc.put("max_tokens", costs.perCell().maxTokens());
                bb.put("per_cell", pc.build());
            }
            if (costs.budget().maxCostUsd() != null)
                bb.put("max_cost_usd", costs.budget().maxCostUsd());
            if (costs.budget().maxTokens() != null)
                bb.put("max_tokens", costs.budget().maxTokens());
            b.put(
                    "budget",
                    bb.put("on_budget", costs.budget().onBudget().wire()).build());
        }
        // Only a spec with a cache says so, so that the stored spec of every other experiment reads as before.
        if (cache.enabled()) {
            b.put(
                    "cache",
                    PyDict.builder()
                            .put(
                                    "candidates",
                                    PyList.of(new TreeSet<>(cache.candidates())
                                            .stream().map(Value::str).toList()))
                            .put(
                                    "roles",
                                    PyList.of(new TreeSet<>(cache.roles())
                                            .stream().map(Value::str).toList()))
                            .put(
                                    "file",
                                    cache.file() == null
                                            ? PyNone.NONE
                                            : Value.str(cache.file().toString()))
                            .build());
        }
        return b.build();
    }

    public String toJson() {
        return PyJson.dumps(toValue(), PyJson.DumpOptions.SORTED.withEnsureAscii(false));
    }

    // ---------------------------------------------------------------- helpers

    private static ModelRef model(Value v, String role) {
        PyDict m = dict(v, role);
        checkKeys(m, role, Set.of("provider", "model", "options", "cache"));
        Value o = m.get("options");
        return new ModelRef(
                str(m, "provider"), str(m, "model"), o == null ? PyDict.empty() : dict(o, role + ".options"));
    }

    /** A role's {@code cache: true}: its calls are served from the model-call cache (not part of the model's definition). */
    private static boolean cached(Value v, String role) {
        PyDict m = dict(v, role);
        return m.containsKey("cache") && bool(m.get("cache"), role + ".cache");
    }

    private static void checkKeys(PyDict d, String what, Set<String> known) {
        for (String k : d.keys())
            if (!known.contains(k))
                throw new SpecException(what + ": unknown key '" + k + "' (known: "
                        + String.join(", ", new java.util.TreeSet<>(known)) + ")");
    }

    private static PyDict dict(Value v, String what) {
        if (v instanceof PyDict d) return d;
        throw new SpecException(what + " must be a mapping");
    }

    private static List<Value> list(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new SpecException("'" + k + "' is required");
        if (v instanceof PyList l) return l.items();
        throw new SpecException("'" + k + "' must be a list");
    }

    private static String str(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new SpecException("'" + k + "' is required");
        return scalar(v, k);
    }

    private static String optStr(PyDict d, String k) {
        Value v = d.get(k);
        return v == null || v.isNone() ? null : scalar(v, k);
    }

    /** YAML turns {@code tasks: [0, 1]} into numbers; task ids are strings, so scalars are accepted as text. */
    private static String scalar(Value v, String k) {
        return switch (v) {
            case PyStr s -> s.value();
            case PyInt i -> i.value().toString();
            case PyBool b ->
                throw new SpecException("'" + k + "' must be a string, got " + b.value()
                        + " (YAML reads unquoted yes/no/on/off as booleans: quote it)");
            default -> throw new SpecException("'" + k + "' must be a string");
        };
    }

    private static List<String> optStrList(PyDict d, String k) {
        if (!d.containsKey(k)) return null;
        List<String> out = new ArrayList<>();
        for (Value v : list(d, k)) out.add(scalar(v, k + "[]"));
        return out;
    }

    private static PyDict optDict(PyDict d, String k) {
        return d.containsKey(k) ? dict(d.get(k), k) : PyDict.empty();
    }

    /**
     * A count: a whole number (an integral float such as {@code 4.0} too) in [min, max]. The range is
     * checked before any narrowing, so {@code 1e12} or a 30-digit integer is an error, not a wrapped int.
     */
    private static int count(PyDict d, String k, String prefix, int dflt, int min, int max) {
        Value v = d.get(k);
        String key = prefix + k;
        BigInteger n = switch (v) {
            case null -> BigInteger.valueOf(dflt);
            case PyInt i -> i.value();
            case PyFloat f
            when Double.isFinite(f.value()) && f.value() == Math.rint(f.value()) ->
                new BigDecimal(f.value()).toBigInteger();
            case PyFloat f -> throw new SpecException("'" + key + "' must be a whole number, got " + PyJson.dumps(f));
            default -> throw new SpecException("'" + key + "' must be a number, got " + PyJson.dumps(v));
        };
        String shown = v == null ? String.valueOf(dflt) : PyJson.dumps(v);
        if (n.compareTo(BigInteger.valueOf(min)) < 0)
            throw new SpecException("'" + key + "' must be at least " + min + ", got " + shown);
        if (n.compareTo(BigInteger.valueOf(max)) > 0)
            throw new SpecException("'" + key + "' must be at most " + max + ", got " + shown);
        return n.intValueExact();
    }

    /** The constructor's check of a count, for specs built in Java. */
    private static void checkRange(String key, long v, long min, long max) {
        if (v < min) throw new SpecException("'" + key + "' must be at least " + min + ", got " + v);
        if (v > max) throw new SpecException("'" + key + "' must be at most " + max + ", got " + v);
    }

    /** A finite number; null when absent. */
    private static Double number(PyDict d, String k, String prefix) {
        Value v = d.get(k);
        String key = prefix + k;
        double x = switch (v) {
            case null -> Double.NaN;
            case PyInt i -> i.value().doubleValue();
            case PyFloat f -> f.value();
            default -> throw new SpecException("'" + key + "' must be a number, got " + PyJson.dumps(v));
        };
        if (v == null) return null;
        if (!Double.isFinite(x))
            throw new SpecException("'" + key + "' must be a finite number, got " + PyJson.dumps(v));
        return x;
    }

    /** Calls per second, 0 for no limit. */
    private static double rate(PyDict d, String k, String prefix) {
        Double r = number(d, k, prefix);
        if (r == null) return 0;
        if (r < 0) throw new SpecException("'" + prefix + k + "' must be at least 0, got " + PyJson.dumps(d.get(k)));
        return r;
    }

    /** Seconds, as given in the file, to a duration of whole milliseconds in (0, {@link #MAX_CELL_TIMEOUT}]. */
    private static Duration cellTimeout(PyDict d, String k, double dflt) {
        Double s = number(d, k, "");
        double seconds = s == null ? dflt : s;
        String shown = s == null ? String.valueOf(dflt) : PyJson.dumps(d.get(k));
        if (seconds <= 0) throw new SpecException("'" + k + "' must be greater than 0, got " + shown);
        if (seconds > MAX_CELL_TIMEOUT.toSeconds())
            throw new SpecException("'" + k + "' must be at most " + MAX_CELL_TIMEOUT.toSeconds() + " ("
                    + MAX_CELL_TIMEOUT.toDays() + " days), got " + shown);
        long millis = Math.round(seconds * 1000);
        if (millis < 1) throw new SpecException("'" + k + "' must be at least 0.001 (one millisecond), got " + shown);
        return Duration.ofMillis(millis);
    }

    private static boolean bool(Value v, String k) {
        if (v instanceof PyBool b) return b.value();
        throw new SpecException("'" + k + "' must be true or false");
    }

    private static Value toValue(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return PyNone.NONE;
        if (n.isObject()) {
            PyDict.Builder b = PyDict.builder();
            n.properties().forEach(e -> b.put(e.getKey(), toValue(e.getValue())));
            return b.build();
        }
        if (n.isArray()) {
            List<Value> items = new ArrayList<>();
            n.forEach(x -> items.add(toValue(x)));
            return PyList.of(items);
        }
        if (n.isBoolean()) return PyBool.of(n.booleanValue());
        if (n.isIntegralNumber()) return new PyInt(n.bigIntegerValue());
        if (n.isNumber()) return new PyFloat(n.doubleValue());
        return new PyStr(n.asText());
    }
}
