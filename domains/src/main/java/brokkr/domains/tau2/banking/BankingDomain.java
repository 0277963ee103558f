package brokkr.domains.tau2.banking;

import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.Tau2EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Tau2Prompts;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tau2-bench's banking_knowledge domain with the {@code bm25} retrieval variant
 * (src/tau2/domains/banking_knowledge/environment.py {@code get_environment(retrieval_variant="bm25")}):
 * the {@code TransactionalDB} (db.json, every table pydantic fills in), the 698-document knowledge base and
 * its BM25 index, the agent toolkit {@code KnowledgeToolsWithKBSearch} and the user toolkit sharing one
 * DB, the 97 tasks ({@code tasks/task_*.json}, not the stale combined tasks.json), the
 * {@code classic_rag_bm25_no_grep} policy and the environments.
 */
public final class BankingDomain {
    public static final String DOMAIN = "banking_knowledge";
    /** The retrieval variant Brokkr transcribed (upstream's {@code retrieval_variant}, its results' {@code retrieval_config}). */
    public static final String RETRIEVAL_VARIANT = "bm25";

    private static final String DIR = "data/tau2/domains/banking_knowledge/";

    /** {@code TransactionalDB}'s fields in class order: model_dump() writes every one (absent ones as defaults). */
    static final List<String> TABLES = List.of(
            "users",
            "accounts",
            "debit_cards",
            "referrals",
            "credit_card_applications",
            "user_discoverable_tools",
            "user_discoverable_tool_calls",
            "verification_history",
            "credit_card_transaction_history",
            "cash_back_disputes",
            "bank_account_transaction_history",
            "credit_card_accounts",
            "agent_discoverable_tools",
            "task_config",
            "human_transfer_requests",
            "transaction_disputes",
            "credit_card_orders",
            "debit_card_orders",
            "credit_card_closure_reasons",
            "credit_card_account_flags",
            "credit_limit_increase_requests",
            "payment_history",
            "debit_card_disputes");

    /** sha256 of every upstream file read, by path; the documents in knowledge-base index order. */
    public static final Map<String, String> DIGESTS;
    /** The documents' paths in index order (the oracle's {@code glob()} order). */
    static final List<String> DOCUMENT_ORDER;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        List<String> docs = new ArrayList<>();
        try (InputStream in = BankingDomain.class.getResourceAsStream("upstream-files.sha256")) {
            if (in == null) throw new IllegalStateException("upstream-files.sha256 missing from the class path");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String sha = line.substring(0, 64), path = line.substring(66);
                m.put(path, sha);
                if (path.startsWith(DIR + "documents/")) docs.add(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DIGESTS = Map.copyOf(m);
        DOCUMENT_ORDER = List.copyOf(docs);
    }

    private final Tau2Data data;
    private final PyDict db;
    private final KnowledgeBase kb;
    private final String policy;
    private final Map<String, PyDict> tasks = new LinkedHashMap<>();
    private final String userGuidelines;
    private final String userGuidelinesNoTools;
    private final Tau2Toolkit userToolkit;
    /** Agent toolkits by retriever {@code top_k} (upstream's default 10, or a {@code retrieval_kwargs} override). */
    private final Map<Value, Tau2Toolkit> toolkits = new ConcurrentHashMap<>();

    public BankingDomain(Tau2Data data) {
        this.data = data;
        this.db = validateDb(Json.read(bytes(DIR + "db.json")).asDict(), "db.json");
        List<KnowledgeBase.Doc> docs = new ArrayList<>();
        for (String path : DOCUMENT_ORDER) {
            PyDict d = Json.read(bytes(path)).asDict();
            docs.add(new KnowledgeBase.Doc(
                    d.get("id").asStr(),
                    d.get("title").asStr(),
                    d.get("content").asStr()));
        }
        this.kb = new KnowledgeBase(docs);
        this.policy = policy(text(DIR + "prompts/classic_rag_bm25_no_grep.md"));
        Map<String, String> taskFiles = new TreeMap<>(); // sorted(tasks_dir.glob("task_*.json"))
        for (String p : DIGESTS.keySet())
            if (p.matches(Pattern.quote(DIR) + "tasks/task_.*\\.json")) taskFiles.put(p, p);
        for (String p : taskFiles.keySet()) {
            PyDict t = Json.read(bytes(p)).asDict();
            tasks.put(t.get("id").asStr(), t);
        }
        String g = "data/tau2/user_simulator/simulation_guidelines_tools.md";
        this.userGuidelines = data.readText(g, Tau2Data.USER_SIMULATOR_DIGESTS.get(g));
        String plain = "data/tau2/user_simulator/simulation_guidelines.md";
        this.userGuidelinesNoTools = data.readText(plain, Tau2Data.USER_SIMULATOR_DIGESTS.get(plain));
        this.userToolkit = BankingUserTools.toolkit();
    }

    public static BankingDomain load() {
        return new BankingDomain(Tau2Data.locate());
    }

    private byte[] bytes(String rel) {
        String sha = DIGESTS.get(rel);
        if (sha == null) throw new IllegalStateException("no pinned digest for " + rel);
        return data.read(rel, sha);
    }

    private String text(String rel) {
        return new String(bytes(rel), StandardCharsets.UTF_8);
    }

    /** {@code load_prompt_template}: {@code {{component:NAME}}} replaced by {@code components/NAME.md}. */
    private String policy(String template) {
        Matcher m = Pattern.compile("\\{\\{component:(\\w+)\\}\\}").matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find())
            m.appendReplacement(sb, Matcher.quoteReplacement(text(DIR + "prompts/components/" + m.group(1) + ".md")));
        m.appendTail(sb);
        return sb.toString();
    }

    /** {@code TransactionalDB.model_validate(d).model_dump()}: every table as {@code {data, notes}}, in field order. */
    static PyDict validateDb(PyDict d, String what) {
        PyDict.Builder b = PyDict.builder();
        for (String t : TABLES) {
            Value table = d.get(t);
            PyDict data = PyDict.empty();
            Value notes = new PyStr("");
            if (table != null) {
                PyDict td = table.asDict();
                if (td.containsKey("data")) data = td.get("data").asDict();
                if (td.containsKey("notes")) notes = td.get("notes");
                if (!(notes instanceof PyStr))
                    throw new IllegalArgumentException(what + ": " + t + ".notes is not a string");
                for (Value rec : data.asMap().values()) {
                    if (!(rec instanceof PyDict))
                        throw new IllegalArgumentException(what + ": a record of " + t + " is not an object");
                }
            }
            b.put(t, PyDict.of("data", data, "notes", notes));
        }
        return b.build();
    }

    /** addict's recursive {@code Dict.update}: nested dicts merge, anything else replaces. */
    static PyDict merge(PyDict base, PyDict update) {
        PyDict out = base;
        for (Map.Entry<String, Value> e : update.entries()) {
            Value old = out.get(e.getKey());
            if (old instanceof PyDict od && e.getValue() instanceof PyDict nd)
                out = out.with(e.getKey(), merge(od, nd));
            else out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }

    public PyDict db() {
        return db;
    }

    public KnowledgeBase knowledgeBase() {
        return kb;
    }

    public String policy() {
        return policy;
    }

    public Map<String, PyDict> tasks() {
        return tasks;
    }

    public Tau2Toolkit userToolkit() {
        return userToolkit;
    }

    /** The agent toolkit with the retriever's {@code top_k} (null: upstream's default, 10). */
    public Tau2Toolkit toolkit(Value topK) {
        return toolkits.computeIfAbsent(
                topK == null || topK.isNone() ? PyInt.of(10) : topK, k -> BankingTools.toolkit(kb, k));
    }

    public PyDict task(String id) {
        PyDict t = tasks.get(id);
        if (t == null) throw new IllegalArgumentException("no banking_knowledge task " + id);
        return t;
    }

    /**
     * The DB after a task's initial state ({@code set_state}): {@code update_db(agent_data)} then
     * {@code update_db(user_data)} on the shared DB (addict merge, then validation); the tasks have no
     * initialization actions. Keys of {@code initialization_data} other than the two are ignored, as
     * pydantic ignores unknown fields.
     */
    PyDict initialDb(String taskId) {
        if (taskId == null) return db;
        // a pure function of the task: sharing its value shares the hash memos of its DB nodes between environments
        return initialDbs.computeIfAbsent(taskId, this::computeInitialDb);
    }

    private final Map<String, PyDict> initialDbs = new ConcurrentHashMap<>();

    private PyDict computeInitialDb(String taskId) {
        Value init = task(taskId).get("initial_state");
        if (init == null || init.isNone()) return db;
        PyDict state = init.asDict();
        PyDict out = db;
        Value data = state.get("initialization_data");
        if (data != null && !data.isNone()) {
            for (String side : List.of("agent_data", "user_data")) {
                Value upd = data.asDict().get(side);
                if (upd != null && !upd.isNone()) out = validateDb(merge(out, upd.asDict()), taskId + " " + side);
            }
        }
        Value actions = state.get("initialization_actions");
        if (actions != null && !actions.isNone() && !actions.asList().isEmpty()) {
            throw new UnsupportedOperationException(
                    "banking_knowledge task " + taskId + " has initialization_actions; not transcribed");
        }
        return out;
    }

    /** A fresh environment ({@code get_environment(retrieval_variant="bm25", ...)}) with the task's initial state. */
    public Tau2Environment environment(String initTaskId, Value topK, List<String> readLogAllowlist) {
        return new Tau2Environment(
                toolkit(topK),
                userToolkit,
                null,
                new Worlds(initialDb(initTaskId), null, BankingTools.session(readLogAllowlist)));
    }

    /**
     * Conformance environments: no read-log allowlist (the oracle's {@code get_environment} calls pass
     * none), the retriever's {@code top_k} from a record's {@code env_kwargs_extra.retrieval_kwargs}.
     */
    public Tau2Conformance.EnvironmentFactory factory() {
        return new Tau2Conformance.EnvironmentFactory() {
            @Override
            public Tau2Environment create(String initTaskId) {
                return environment(initTaskId, null, List.of());
            }

            @Override
            public Tau2Environment create(String initTaskId, Value process, PyDict envKwargs) {
                Value topK = null;
                if (envKwargs != null && envKwargs.get("retrieval_kwargs") instanceof PyDict rk) topK = rk.get("top_k");
                return environment(initTaskId, topK, List.of());
            }
        };
    }

    /** The tasks as the episode protocol reads them, in task-file order. */
    public Map<String, TaskSpec> taskSpecs() {
        Map<String, TaskSpec> out = new LinkedHashMap<>();
        for (PyDict t : tasks.values()) {
            TaskSpec spec = TaskSpec.parse(t);
            out.put(spec.id(), spec);
        }
        return out;
    }

    /**
     * {@code read_log_allowlist} as upstream's runner builds it ({@code _build_env_kwargs}): the
     * {@code agent_tool_name} of the task's gold {@code call_discoverable_agent_tool} actions.
     */
    static List<String> readLogAllowlist(TaskSpec task) {
        List<String> out = new ArrayList<>();
        if (task.criteria() == null) return out;
        for (GoldAction a : task.criteria().actionsOrEmpty()) {
            if (a.name().equals("call_discoverable_agent_tool")
                    && a.arguments().get("agent_tool_name") instanceof PyStr s
                    && !out.contains(s.value())) {
                out.add(s.value());
            }
        }
        return out;
    }

    /** The environment as episodes run it: each episode (and its grading) builds the task's environment afresh. */
    public EpisodeEnvironment<Worlds> episodeEnvironment() {
        return new Tau2EpisodeEnvironment(
                toolkit(null),
                userToolkit,
                null,
                (task, process) -> environment(task.id(), null, readLogAllowlist(task)),
                this::userToolSpecs);
    }

    /** {@code env.get_user_tools(include=task.user_tools)}: the task's named user tools, in toolkit order. */
    public List<ToolSpec> userToolSpecs(TaskSpec task) {
        return Tau2EpisodeEnvironment.toolSpecs(userToolSchemas(task.raw()));
    }

    public List<Value> userToolSchemas(PyDict task) {
        Value include = task.get("user_tools");
        List<Value> all = userToolkit.openaiSchemas();
        if (include == null || include.isNone()) return all;
        List<String> names = include.asList().stream().map(Value::asStr).toList();
        return all.stream()
                .filter(s -> names.contains(
                        s.asDict().get("function").asDict().get("name").asStr()))
                .toList();
    }

    public String agentSystemPrompt() {
        return Tau2Prompts.agentSystemPrompt(policy);
    }

    public List<Value> agentToolSchemas() {
        return toolkit(null).openaiSchemas();
    }

    /**
     * {@code UserSimulator.system_prompt}: the guidelines for users with tools when the task gives the user
     * any ({@code get_user_tools(include=task.user_tools) or None}), else the plain ones.
     */
    public String userSystemPrompt(PyDict task) {
        String guidelines = userToolSchemas(task).isEmpty() ? userGuidelinesNoTools : userGuidelines;
        return Tau2Prompts.userSystemPrompt(guidelines, task.get("user_scenario"));
    }

    /** Every task (upstream's {@code get_tasks} ignores the split name). */
    public List<String> split(String name) {
        return new ArrayList<>(tasks.keySet());
    }
}
