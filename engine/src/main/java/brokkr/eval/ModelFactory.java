package brokkr.eval;

import brokkr.conversation.Candidate;
import java.util.List;
import java.util.Map;

/**
 * Makes a {@link Candidate} for a model of one provider ({@code openai}, {@code anthropic}, a scripted
 * policy). Found by {@link #provider()} through {@code ServiceLoader<ModelFactory>} or an explicit
 * registry. A candidate may be used from several threads at once and must be safe for that.
 */
public interface ModelFactory {
    String provider();

    /**
     * Other provider names this factory answers to ({@code vllm}, {@code ollama}, ... for the
     * OpenAI-compatible wire): the registry resolves them to this factory everywhere a model reference
     * is resolved, so an alias works in an experiment file exactly as on the command line. A model
     * reference keeps the name it was given (it is part of the candidate's identity).
     */
    default List<String> aliases() {
        return List.of();
    }

    Candidate create(ModelRef model);

    /** One line on what this provider speaks and where it reads its configuration, for {@code ./brokkr help}. */
    default String summary() {
        return "";
    }

    /**
     * {@code model} with what its provider adds to its identity: facts about the model that its name and
     * options do not fix (the Claude Code CLI's version, a prompt note's digest), so that a change of them
     * starts fresh cells. The planner pins every reference before it makes content ids. By default the
     * reference itself.
     */
    default ModelRef pinned(ModelRef model) {
        return model;
    }

    /**
     * A candidate configured from {@code env} (keys and base URLs: the process environment, or a map a
     * test or a command was given) instead of the process environment; by default the same as
     * {@link #create(ModelRef)}, for factories that read no environment.
     */
    default Candidate create(ModelRef model, Map<String, String> env) {
        return create(model);
    }

    /**
     * {@code model} as an experiment stored in the directory {@code dir} opens it: a factory whose candidates keep
     * files of their own (the Claude Code CLI's config directories) puts them under the experiment's directory
     * unless the reference says where (an operational option, which changes no id). By default the reference itself.
     */
    default ModelRef inExperiment(ModelRef model, java.nio.file.Path dir) {
        return model;
    }
}
