package brokkr.domains.bfcl.multiturn;

import brokkr.conversation.ToolSpec;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The function docs a multi-turn task offers a model, as upstream builds them: {@code
 * populate_test_cases_with_predefined_functions} (the involved classes' {@code multi_turn_func_doc} entries in
 * {@code involved_classes} order, the held-out {@code missed_function} docs moved out), then the Python-3 hint
 * on what is left ({@code _func_doc_language_specific_pre_processing}); held-out docs are appended at their
 * turn without the hint. Files read from {@code multi_turn_func_doc/} in the BFCL data directory, digests pinned.
 */
public final class MultiTurnTools {
    /** {@code MULTI_TURN_FUNC_DOC_FILE_MAPPING} (constants/executable_backend_config.py) with the upstream MANIFEST's digests. */
    static final Map<String, String[]> FILES = Map.of(
            "GorillaFileSystem",
                    new String[] {
                        "gorilla_file_system.json", "c4c1b741c71e2a17c97a5dc9c4a91d89978c4eaece56494d14272d5df6c650e9"
                    },
            "MathAPI",
                    new String[] {"math_api.json", "83fa31708c89442bdcf12ac4dfbe3be8663ec9183a1b1524a9fda98164bc7e0b"},
            "MessageAPI",
                    new String[] {"message_api.json", "4d58ea933a5d2b280d7a52366617fb47fecd333d7b0e08e724db6fa12fb5f847"
                    },
            "TwitterAPI",
                    new String[] {"posting_api.json", "87f9fc404a06e4107d7c366f1399c596440e84c16cb119faf374b2f532d86e8b"
                    },
            "TicketAPI",
                    new String[] {"ticket_api.json", "31324e0380782664fe82ba05bd23517808ad55692b45a5fe7c3d4d395fe4f0f8"
                    },
            "TradingBot",
                    new String[] {"trading_bot.json", "1a7933fd8f0cb8fbec38aeae05cb8c24132747cad4904fe1c13ac3d01fc22c2d"
                    },
            "TravelAPI",
                    new String[] {
                        "travel_booking.json", "f17b950c13adddf41d0848077df58788252e4c2e7cad5cfa71c8c4bf04f57b26"
                    },
            "VehicleControlAPI",
                    new String[] {
                        "vehicle_control.json", "0c8a66292844874ef7b168f343bc394d8615d2d9e1f4387999a9ee23011eac78"
                    });

    private final Map<String, List<PyDict>> docs;

    private MultiTurnTools(Map<String, List<PyDict>> docs) {
        this.docs = docs;
    }

    /** Over docs read elsewhere (by class name; the memory categories' {@code multi_turn_func_doc/memory_*.json}). */
    public static MultiTurnTools of(Map<String, List<PyDict>> docs) {
        return new MultiTurnTools(Map.copyOf(docs));
    }

    public static MultiTurnTools load() {
        return load(BfclData.locate());
    }

    public static MultiTurnTools load(Path dataDir) {
        Map<String, List<PyDict>> docs = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> e : FILES.entrySet()) {
            Path file = dataDir.resolve("multi_turn_func_doc").resolve(e.getValue()[0]);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException ex) {
                throw new BfclData.BfclDataException("cannot read BFCL data file " + file, ex);
            }
            String actual = sha256(bytes);
            if (!actual.equals(e.getValue()[1])) {
                throw new BfclData.BfclDataException(
                        "BFCL data file " + file + " has sha256 " + actual + ", expected " + e.getValue()[1]);
            }
            List<PyDict> list = new ArrayList<>();
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n"))
                if (!line.isBlank()) list.add(Json.parse(line).asDict());
            docs.put(e.getKey(), List.copyOf(list));
        }
        return new MultiTurnTools(docs);
    }

    /** No class's docs (a start for {@link #withDocs}). */
    public static MultiTurnTools empty() {
        return new MultiTurnTools(Map.of());
    }

    /**
     * These docs and {@code cls}'s: a class whose doc file is read elsewhere (the agentic categories' own data, e.g.
     * {@code WebSearchAPI}'s {@code web_search.json}) joins the tools a task's inference offers.
     */
    public MultiTurnTools withDocs(String cls, List<PyDict> classDocs) {
        Map<String, List<PyDict>> d = new LinkedHashMap<>(docs);
        d.put(cls, List.copyOf(classDocs));
        return new MultiTurnTools(d);
    }

    /** What the model is offered before any held-out turn: the model functions (hint appended). */
    public PyList initial(MultiTurnData.Task task) {
        List<Value> functions = new ArrayList<>();
        for (String cls : task.involvedClasses()) functions.addAll(docs(cls));
        for (List<String> names : task.missedFunction().values()) {
            for (String name : names) {
                for (int i = 0; i < functions.size(); i++) {
                    if (functions.get(i).asDict().get("name").asStr().equals(name)) {
                        functions.remove(i);
                        break;
                    }
                }
            }
        }
        return ToolCompiler.modelFunctions(PyList.of(functions));
    }

    /**
     * Every function of the task's classes as a function-calling model is offered it ({@link #specs}, the hint
     * appended), held-out ones included: upstream's executor runs any function a model names, offered yet or not.
     */
    public List<ToolSpec> every(MultiTurnData.Task task, ToolCompiler.Style style) {
        List<Value> functions = new ArrayList<>();
        for (String cls : task.involvedClasses()) functions.addAll(docs(cls));
        return specs(ToolCompiler.modelFunctions(PyList.of(functions)), style);
    }

    /** The docs appended at {@code turn} of a miss_func task (no hint: upstream moved them out before adding it); empty elsewhere. */
    public PyList added(MultiTurnData.Task task, int turn) {
        List<Value> out = new ArrayList<>();
        List<Value> all = new ArrayList<>();
        for (String cls : task.involvedClasses()) all.addAll(docs(cls));
        for (String name : task.missedFunction().getOrDefault(turn, List.of())) {
            for (Value f : all)
                if (f.asDict().get("name").asStr().equals(name)) {
                    out.add(f);
                    break;
                }
        }
        return PyList.of(out);
    }

    private List<PyDict> docs(String cls) {
        List<PyDict> d = docs.get(cls);
        if (d == null) throw new IllegalArgumentException("no multi_turn_func_doc for class " + cls);
        return d;
    }

    /** The model functions compiled for a function-calling model ({@code convert_to_tool}). */
    public static List<ToolSpec> specs(PyList modelFunctions, ToolCompiler.Style style) {
        PyList compiled = ToolCompiler.compile(modelFunctions, style);
        List<ToolSpec> out = new ArrayList<>(compiled.size());
        for (Value v : compiled) {
            PyDict f = v.asDict();
            if (style == ToolCompiler.Style.OPENAI_COMPLETIONS)
                f = f.get("function").asDict();
            PyDict schema =
                    (style == ToolCompiler.Style.ANTHROPIC ? f.get("input_schema") : f.get("parameters")).asDict();
            out.add(new ToolSpec(f.get("name").asStr(), f.get("description").asStr(), schema));
        }
        return out;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
