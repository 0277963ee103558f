package brokkr.domains.tau2.banking;

import brokkr.tool.Args;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A discoverable tool (upstream {@code @is_discoverable_tool}): its signature, its {@code mutates_state}
 * flag and its {@code parse_discoverable_tool_docstring} info, which {@code unlock_discoverable_agent_tool}
 * and {@code give_discoverable_user_tool} print. The 44 agent tools (43 and the placeholder
 * {@code example_agent_tool_0000}) and the 4 user tools are listed in {@code discoverable-tools.json},
 * extracted from tools.py's signatures and docstrings with upstream's own parsing rules.
 */
record Discoverable(String name, String owner, boolean mutates, List<Param> params, PyDict toolInfo) {
    private static final Map<String, Discoverable> AGENT = new LinkedHashMap<>(), USER = new LinkedHashMap<>();

    static {
        try (InputStream in = Discoverable.class.getResourceAsStream("discoverable-tools.json")) {
            if (in == null) throw new IllegalStateException("discoverable-tools.json missing from the class path");
            PyDict all = Json.read(in.readAllBytes()).asDict();
            for (Map.Entry<String, Value> e : all.entries()) {
                PyDict t = e.getValue().asDict();
                List<Param> ps = new ArrayList<>();
                for (Value p : t.get("params").asList()) {
                    PyDict pd = p.asDict();
                    String n = pd.get("name").asStr();
                    ps.add(
                            pd.get("has_default") == PyBool.TRUE
                                    ? Param.optional(n, pd.get("default"))
                                    : Param.required(n));
                }
                Discoverable d = new Discoverable(
                        e.getKey(),
                        t.get("owner").asStr(),
                        t.get("mutates") == PyBool.TRUE,
                        List.copyOf(ps),
                        t.get("tool_info").asDict());
                (d.owner().equals("agent") ? AGENT : USER).put(d.name(), d);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Discoverable> agent() {
        return List.copyOf(AGENT.values());
    }

    static List<Discoverable> users() {
        return List.copyOf(USER.values());
    }

    static Discoverable agent(String name) {
        return AGENT.get(name);
    }

    static Discoverable user(String name) {
        return USER.get(name);
    }

    String qualname() {
        return (owner.equals("agent") ? "KnowledgeTools." : "KnowledgeUserTools.") + name;
    }

    ToolDef def(ToolFunction body) {
        return new ToolDef(name, qualname(), params, body, mutates);
    }

    boolean hasParam(Value key) {
        return key instanceof PyStr s && params.stream().anyMatch(p -> p.name().equals(s.value()));
    }

    String description() {
        return toolInfo.get("description").asStr();
    }

    /** {@code method(**args)} on the cell: binding errors and the body's exceptions propagate. */
    Value invoke(ToolFunction body, WorldCell c, Value args) {
        Args bound = BankingTools.bindJson(qualname(), params, args);
        return body.call(c, bound);
    }

    /** {@code format_discoverable_tool_for_agent(tool_info)}. */
    String formatForAgent() {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Value> e : toolInfo.get("parameters").asDict().entries()) {
            PyDict p = e.getValue().asDict();
            String req = p.get("required") == PyBool.TRUE ? " (required)" : " (optional)";
            lines.add("  - " + e.getKey() + ": " + p.get("type").asStr() + req + " - "
                    + p.get("description").asStr());
        }
        String params = lines.isEmpty() ? "  (no parameters)" : String.join("\n", lines);
        return "Tool: " + name + "\nDescription: " + description() + "\nParameters:\n" + params;
    }
}
