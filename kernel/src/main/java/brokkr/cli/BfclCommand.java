package brokkr.cli;

import brokkr.domains.bfcl.BfclAgent;
import brokkr.domains.bfcl.BfclCategory;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.BfclRun;
import brokkr.domains.bfcl.BfclTask;
import brokkr.domains.bfcl.GoldAnswers;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.provider.ModelProvider;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./brokkr bfcl run --agent gold|reference|tools [--sample N] [--seed S] ...}: runs a BFCL
 * candidate over a stable seeded slice of every category and prints per-category accuracy with
 * upstream's aggregates.
 */
public record BfclCommand(Map<String, String> env) implements Command {
    @Override public String name() { return "bfcl"; }

    @Override public String summary() { return "run a candidate on BFCL single-turn categories and score it"; }

    @Override public String usage() {
        return """
               usage: ./brokkr bfcl run --agent gold|reference|tools [--sample N] [--seed S]
                                        [--categories C1,C2,...] [--provider P --model M]
                                        [--parallel-tool-calls true|false] [--jobs J]

               Runs the candidate on N tasks per category (a stable slice chosen by the seed; all tasks
               without --sample) and prints tasks, passed and accuracy per category, then upstream's live
               overall (weighted) and irrelevance detection (unweighted) aggregates.
                 gold       a scripted candidate answering every task with an accepted answer
                 reference  one model call with the compiled tools (needs --provider and --model)
                 tools      one step of the agent loop, functions as recorder tools (idem)
               Categories: %s. Keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...).
               The data directory is -Dbrokkr.bfcl.data / BROKKR_BFCL_DATA, else ../shared/upstream/gorilla/..."""
                .formatted(String.join(", ", BfclCategory.ids()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || !args.get(0).equals("run")) throw new UsageException("expected 'run'");
        String agentName = null, provider = null, model = null;
        Integer sample = null;
        long seed = 0;
        int jobs = 4;
        Boolean parallel = null;
        List<BfclCategory> categories = List.of(BfclCategory.values());
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            String v = switch (a) {
                case "--agent", "--sample", "--seed", "--categories", "--provider", "--model", "--parallel-tool-calls", "--jobs" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    yield args.get(++i);
                }
                default -> throw new UsageException("unexpected argument '" + a + "'");
            };
            try {
                switch (a) {
                    case "--agent" -> agentName = v;
                    case "--sample" -> sample = Integer.parseInt(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--jobs" -> jobs = Integer.parseInt(v);
                    case "--provider" -> provider = v;
                    case "--model" -> model = v;
                    case "--parallel-tool-calls" -> {
                        if (!v.equals("true") && !v.equals("false")) throw new UsageException("--parallel-tool-calls takes true or false");
                        parallel = Boolean.parseBoolean(v);
                    }
                    case "--categories" -> {
                        List<BfclCategory> cs = new ArrayList<>();
                        for (String c : v.split(",")) cs.add(BfclCategory.of(c.trim()));
                        categories = cs;
                    }
                    default -> throw new AssertionError(a);
                }
            } catch (NumberFormatException e) {
                throw new UsageException(a + " takes a number, got '" + v + "'");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (agentName == null) throw new UsageException("missing --agent");
        if (sample != null && sample < 1) throw new UsageException("--sample must be at least 1");
        BfclAgent agent = switch (agentName) {
            case "gold" -> new BfclAgent.Gold();
            case "reference", "tools" -> {
                if (provider == null || model == null) throw new UsageException("--agent " + agentName + " needs --provider and --model");
                ModelProvider m = Providers.fromEnvironment(env, provider, model,
                        ProviderOptions.defaults(model).withParallelToolCalls(parallel));
                ToolCompiler.Style style = provider.toLowerCase(Locale.ROOT).equals("anthropic")
                        ? ToolCompiler.Style.ANTHROPIC : ToolCompiler.Style.OPENAI_COMPLETIONS;
                yield agentName.equals("reference") ? new BfclAgent.Reference(m, style, parallel) : new BfclAgent.Tools(m, style, parallel);
            }
            default -> throw new UsageException("unknown agent '" + agentName + "' (gold, reference, tools)");
        };
        BfclData data = BfclData.load();
        List<BfclTask> tasks = BfclRun.sample(data, categories, sample, seed);
        Set<String> unsat = GoldAnswers.unsatisfiableIds(tasks);
        long t0 = System.nanoTime();
        List<BfclRun.TaskResult> results = BfclRun.run(tasks, agent, unsat, jobs);
        out.println("agent " + agent.id() + (agent.parallelToolCalls() == null ? "" : ", parallel_tool_calls " + agent.parallelToolCalls())
                + ", " + tasks.size() + " tasks" + (sample == null ? "" : " (sample " + sample + " per category, seed " + seed + ")"));
        out.print(BfclRun.format(BfclRun.summarize(results)));
        err.println("ran in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        return 0;
    }
}
