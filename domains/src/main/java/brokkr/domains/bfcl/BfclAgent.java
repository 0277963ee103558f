package brokkr.domains.bfcl;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.agent.claudecode.ClaudeCodeLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxPool;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A BFCL candidate: answers one task with one model step. {@code reference} is the model behind one
 * call with the compiled tools (upstream's function-calling handler shape); {@code tools} is one step
 * of Brokkr's agent loop whose functions are recorders (they note the call and return a stub; the
 * step is never followed by a second one). The scripted gold candidate ({@link GoldCandidate})
 * answers every task with an accepted answer built from its possible answers, as a model behind
 * {@code reference}. {@code parallelToolCalls} is the provider option the model was configured with
 * (null: not sent), recorded with the results.
 */
public sealed interface BfclAgent {
    Boolean parallelToolCalls();

    Attempt attempt(BfclTask task);

    /** One task's outcome: the decoded answer, or an infrastructure failure (excluded from scores). */
    record Attempt(
            BfclHarness.Answer answer,
            List<Message> messages,
            List<ModelCall> calls,
            Usage usage,
            List<ToolCall> recorded,
            InfrastructureFailure failure) {
        public Attempt {
            messages = List.copyOf(messages);
            calls = List.copyOf(calls);
            recorded = List.copyOf(recorded);
        }

        static Attempt failed(List<Message> opening, InfrastructureFailure f) {
            return new Attempt(null, opening, f.attempts(), Usage.ZERO, List.of(), f);
        }
    }

    private static List<Message> plus(List<Message> opening, Message m) {
        List<Message> out = new ArrayList<>(opening);
        out.add(m);
        return out;
    }

    /** The stub every recorder function returns. */
    String STUB = "{\"status\": \"recorded\"}";

    /** {@code systemPrompt}: the candidate's own system prompt (null: the task's messages only). */
    record Reference(Candidate model, ToolCompiler.Style style, Boolean parallelToolCalls, String systemPrompt)
            implements BfclAgent {
        public Reference(Candidate model, ToolCompiler.Style style, Boolean parallelToolCalls) {
            this(model, style, parallelToolCalls, null);
        }

        @Override
        public Attempt attempt(BfclTask task) {
            List<Message> opening = BfclHarness.opening(task, systemPrompt);
            Turn turn;
            try {
                turn = model.next(opening, BfclHarness.tools(task, style));
            } catch (InfrastructureFailure f) {
                return Attempt.failed(opening, f);
            }
            Message.Assistant m = turn.message();
            return new Attempt(
                    BfclHarness.decode(m),
                    plus(opening, m),
                    turn.calls(),
                    m.usage() == null ? Usage.ZERO : m.usage(),
                    List.of(),
                    null);
        }
    }

    record Tools(Candidate model, ToolCompiler.Style style, Boolean parallelToolCalls, String systemPrompt)
            implements BfclAgent {
        public Tools(Candidate model, ToolCompiler.Style style, Boolean parallelToolCalls) {
            this(model, style, parallelToolCalls, null);
        }

        @Override
        public Attempt attempt(BfclTask task) {
            List<ToolCall> recorded = Collections.synchronizedList(new ArrayList<>());
            ToolExecutor recorder = calls -> {
                List<Message.Tool> out = new ArrayList<>(calls.size());
                for (ToolCall c : calls) {
                    recorded.add(c);
                    out.add(new Message.Tool(c.id(), c.name(), STUB, false));
                }
                return out;
            };
            List<Message> opening = BfclHarness.opening(task, systemPrompt);
            Transcript t = new AgentLoop(1).run(model, opening, BfclHarness.tools(task, style), recorder);
            if (t.stop() == Transcript.Stop.INFRASTRUCTURE_FAILURE) {
                InfrastructureFailure f = t.failure();
                return Attempt.failed(
                        t.messages(),
                        new InfrastructureFailure(
                                f == null ? "infrastructure failure" : f.getMessage(), t.modelCalls(), f));
            }
            Message.Assistant first = t.assistantMessages().getFirst();
            return new Attempt(BfclHarness.decode(first), t.messages(), t.modelCalls(), t.usage(), recorded, null);
        }
    }

    /**
     * Claude Code as the agent ({@code harness: claude-code}, {@link ClaudeCodeLoop}): the task's functions
     * are served to the CLI over MCP as recorders (each call noted, answered with the stub), the CLI may take
     * one model step ({@code --max-turns 1}), and the calls of that first response, in the order the CLI made
     * them, are the answer, as for the loop harness. The task's system message, with the candidate's own
     * prompt before it, replaces Claude Code's system prompt; a task without one keeps the CLI's. The tools
     * are compiled in the Anthropic style (Claude Code speaks the Messages API).
     */
    record ClaudeCode(Candidate model, Boolean parallelToolCalls, String systemPrompt) implements BfclAgent {
        @Override
        public Attempt attempt(BfclTask task) {
            List<Message> opening = BfclHarness.opening(task, systemPrompt);
            String system = null;
            List<Message> conversation = new ArrayList<>();
            for (Message m : opening) {
                if (m instanceof Message.System s)
                    system = system == null ? s.content() : system + "\n\n" + s.content();
                else conversation.add(m);
            }
            List<brokkr.conversation.ToolSpec> tools = BfclHarness.tools(task, ToolCompiler.Style.ANTHROPIC);
            List<ToolCall> recorded = new ArrayList<>();
            try (ClaudeCodeLoop cc = ClaudeCodeLoop.of(model, system, 1, n -> {})) {
                Turn t = cc.next(conversation, tools);
                while (t.message().hasToolCalls()) {
                    ToolCall c = t.message().toolCalls().getFirst();
                    recorded.add(c);
                    conversation.add(t.message());
                    conversation.add(new Message.Tool(c.id(), c.name(), STUB, false));
                    t = cc.next(conversation, tools);
                }
                Message.Assistant first = recorded.isEmpty() ? t.message() : new Message.Assistant(null, recorded);
                Usage usage =
                        t.message().usage() == null ? Usage.ZERO : t.message().usage();
                return new Attempt(BfclHarness.decode(first), plus(opening, first), t.calls(), usage, recorded, null);
            } catch (InfrastructureFailure f) {
                return Attempt.failed(opening, f);
            }
        }
    }

    /**
     * The REPL action space ({@code harness: loop, action_space: repl}): one step of the agent loop whose
     * only tool is {@value JavaRepl#TOOL}; the task's functions are recorder methods taking one map of
     * keyword arguments ({@code math_factorial(map("number", 5))}), and every call made during that one
     * evaluation is one emitted call, in order (so parallel calls are one snippet). The snippet's result
     * goes back to nobody: the step is the answer.
     */
    record Repl(
            Candidate model, ToolCompiler.Style style, Boolean parallelToolCalls, String systemPrompt, Harness harness)
            implements BfclAgent {
        @Override
        public Attempt attempt(BfclTask task) {
            List<ToolCall> recorded = Collections.synchronizedList(new ArrayList<>());
            List<brokkr.conversation.ToolSpec> functions = BfclHarness.tools(task, style);
            JavaApi api = JavaApi.recorders(functions);
            String prompt = replPrompt(harness, api) + (systemPrompt == null ? "" : "\n\n" + systemPrompt);
            try (Sandbox sandbox = SandboxPool.shared(harness.sandboxConfig()).acquire()) {
                JavaRepl repl = JavaRepl.open(sandbox, api, functions, harness.outputLimit(), STUB, recorded::add);
                ToolExecutor executor = calls -> repl.execute(calls, null, m -> {
                    throw new IllegalStateException("BFCL has no protocol calls");
                });
                List<Message> opening = BfclHarness.opening(task, prompt);
                Transcript t = new AgentLoop(1).run(model, opening, List.of(JavaRepl.SPEC), executor);
                if (t.stop() == Transcript.Stop.INFRASTRUCTURE_FAILURE) {
                    InfrastructureFailure f = t.failure();
                    return Attempt.failed(
                            t.messages(),
                            new InfrastructureFailure(
                                    f == null ? "infrastructure failure" : f.getMessage(), t.modelCalls(), f));
                }
                Message.Assistant first = t.assistantMessages().getFirst();
                List<ToolCall> emitted = List.copyOf(recorded);
                BfclHarness.Answer answer = first.hasToolCalls()
                        ? BfclHarness.decode(new Message.Assistant(null, emitted))
                        : BfclHarness.decode(first);
                return new Attempt(answer, t.messages(), t.modelCalls(), t.usage(), emitted, null);
            }
        }

        static String replPrompt(Harness h, JavaApi api) {
            return "You answer by calling " + JavaRepl.TOOL + "(code) once with Java code (JShell snippets). "
                    + JavaApi.RECORDER_CALLS
                    + " Every method call your code makes is one function call of your answer, in order: several calls are parallel calls. "
                    + JavaApi.RECORDER_LITERALS + " If no function fits the request, answer with text instead.\n\n"
                    + "## Guidance\n" + h.replGuidance().untypedText("", "BFCL's functions") + "\n\n## Functions\n"
                    + api.reference();
        }
    }

    /**
     * A prompting-mode candidate ({@code action_space: prompting}, harness reference or loop): no tools; upstream's
     * system prompt of {@code config} over the task's docs ({@code system_prompt_pre_processing_chat_model}: before the
     * task's system message, or a new first message), the candidate's own prompt before it if any; one model step
     * (the reference harness: one call; the loop: one step of the agent loop with no tools), whose text is decoded
     * as upstream decodes a prompting model's answer ({@link PromptingDecoder}, in {@code decodeAs} with the
     * config's tool-call tag).
     */
    record Prompting(
            Candidate model,
            PromptFormat config,
            PromptingDecoder.ReturnFormat decodeAs,
            String upstreamPrompt,
            String systemPrompt,
            boolean loop)
            implements BfclAgent {
        @Override
        public Boolean parallelToolCalls() {
            return null;
        }

        @Override
        public Attempt attempt(BfclTask task) {
            String prompt = systemPrompt == null ? upstreamPrompt : systemPrompt + "\n\n" + upstreamPrompt;
            List<Message> opening = BfclHarness.opening(task, prompt);
            Message.Assistant m;
            List<Message> messages;
            List<ModelCall> calls;
            Usage usage;
            if (loop) {
                ToolExecutor none = c -> {
                    throw new IllegalStateException("a prompting-mode candidate has no tools");
                };
                Transcript t = new AgentLoop(1).run(model, opening, List.of(), none);
                if (t.stop() == Transcript.Stop.INFRASTRUCTURE_FAILURE) {
                    InfrastructureFailure f = t.failure();
                    return Attempt.failed(
                            t.messages(),
                            new InfrastructureFailure(
                                    f == null ? "infrastructure failure" : f.getMessage(), t.modelCalls(), f));
                }
                m = t.assistantMessages().getFirst();
                messages = t.messages();
                calls = t.modelCalls();
                usage = t.usage();
            } else {
                Turn turn;
                try {
                    turn = model.next(opening, List.of());
                } catch (InfrastructureFailure f) {
                    return Attempt.failed(opening, f);
                }
                m = turn.message();
                messages = plus(opening, m);
                calls = turn.calls();
                usage = m.usage() == null ? Usage.ZERO : m.usage();
            }
            String text = m.content() == null ? "" : m.content();
            return new Attempt(
                    PromptingDecoder.answer(text, decodeAs, config.toolCallTag()),
                    messages,
                    calls,
                    usage,
                    List.of(),
                    null);
        }
    }

    /**
     * A scripted model answering {@code task} with an accepted answer (names as a function-calling
     * model sends them: {@code .} replaced by {@code _}); no call for irrelevance tasks. For an
     * unsatisfiable task it sends its best construction, which the checker rejects.
     */
    record GoldCandidate(BfclTask task) implements Candidate {
        @Override
        public Turn next(List<Message> history, List<brokkr.conversation.ToolSpec> tools) {
            if (!task.category().expectsCall()) return Turn.of(new Message.Assistant("None of the functions applies."));
            if (tools.isEmpty() && promptingSystem(history) != null)
                return Turn.of(new Message.Assistant(promptingAnswer(promptingSystem(history))));
            PyObj answer = GoldAnswers.accepted(task, true)
                    .orElseGet(() -> GoldAnswers.candidates(task, true).getFirst());
            if (tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL)) {
                // The REPL action space: the same calls as Java, one recorder method call each.
                StringBuilder code = new StringBuilder();
                for (PyObj call : ((PyObj.Seq) answer).items()) {
                    Map.Entry<String, PyObj> e =
                            ((PyObj.Dict) call).entries().entrySet().iterator().next();
                    code.append(JavaApi.recorderCall(e.getKey(), (PyDict) PyObj.toJson(e.getValue())))
                            .append(";\n");
                }
                return Turn.of(new Message.Assistant(
                        null, List.of(new ToolCall("call_0", JavaRepl.TOOL, PyDict.of("code", code.toString())))));
            }
            List<ToolCall> calls = new ArrayList<>();
            int i = 0;
            for (PyObj call : ((PyObj.Seq) answer).items()) {
                Map.Entry<String, PyObj> e =
                        ((PyObj.Dict) call).entries().entrySet().iterator().next();
                calls.add(new ToolCall("call_" + i++, e.getKey(), (PyDict) PyObj.toJson(e.getValue())));
            }
            return Turn.of(new Message.Assistant(null, calls));
        }

        /** The system message of a prompting-mode request (one that shows an output format of upstream's), or null. */
        private static String promptingSystem(List<Message> history) {
            for (Message m : history) {
                if (!(m instanceof Message.System s)) continue;
                for (PromptingDecoder.ReturnFormat f : PromptingDecoder.ReturnFormat.values())
                    if (s.content().contains(PromptFormat.outputFormat(f))) return s.content();
            }
            return null;
        }

        /**
         * A prompting-mode answer: the format the system prompt asks for (its output-format example, a
         * {@code <TOOLCALL>} tag), the language's for Java/JS tasks (which upstream decodes as Java/JS whatever the
         * prompt says), written by {@link PromptingAnswers}.
         */
        private String promptingAnswer(String system) {
            boolean tag = system.contains("<TOOLCALL>");
            PromptingDecoder.ReturnFormat format = PromptingDecoder.ReturnFormat.PYTHON;
            for (PromptingDecoder.ReturnFormat f : List.of(
                    PromptingDecoder.ReturnFormat.JSON,
                    PromptingDecoder.ReturnFormat.VERBOSE_XML,
                    PromptingDecoder.ReturnFormat.CONCISE_XML))
                if (system.contains(PromptFormat.outputFormat(f))) format = f;
            if (format == PromptingDecoder.ReturnFormat.PYTHON)
                format = PromptingDecoder.ReturnFormat.of(task.category().language());
            PromptingDecoder.ReturnFormat f = format;
            return PromptingAnswers.accepted(task, f, tag)
                    .orElseGet(() -> PromptingAnswers.render(
                            GoldAnswers.candidates(task, false).getFirst(), f, tag, java.util.Set.of()));
        }
    }
}
