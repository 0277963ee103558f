package brokkr.domains.bfcl.memory;

import java.util.Map;

/**
 * The system prompt of a memory entry: constants/default_prompts.py's {@code MEMORY_AGENT_SETTINGS} and the two
 * instruction templates, put together as model_handler/utils.py {@code add_memory_instruction_system_prompt} does.
 */
public final class MemoryPrompts {
    private MemoryPrompts() {}

    static final Map<String, String> AGENT_SETTINGS = Map.of(
            "student",
            "You are an academic-support assistant for college student. Remember key personal and academic details discussed across sessions, and draw on them to answer questions or give guidance.",
            "customer",
            "You are a general customer support assistant for an e-commerce platform. Your task is to understand and remember information that can be used to provide information about user inquiries, preferences, and offer consistent, helpful assistance over multiple interactions.",
            "finance",
            "You are a high-level executive assistant supporting a senior finance professional. Retain and synthesize both personal and professional information including facts, goals, prior decisions, and family life across sessions to provide strategic, context-rich guidance and continuity.",
            "healthcare",
            "You are a healthcare assistant supporting a patient across appointments. Retain essential medical history, treatment plans, and personal preferences to offer coherent, context-aware guidance and reminders.",
            "notetaker",
            "You are a personal organization assistant. Capture key information from conversations, like tasks, deadlines, and preferences, and use it to give reliable reminders and answers in future sessions.");

    static final String CORE_ARCHIVAL = """
            {scenario_setting}

            You have access to an advanced memory system, consisting of two memory types 'Core Memory' and 'Archival Memory'. Both type of memory is persistent across multiple conversations with the user, and can be accessed in a later interactions. You should actively manage your memory data to keep track of important information, ensure that it is up-to-date and easy to retrieve to provide personalized responses to the user later.

            The Core memory is limited in size, but always visible to you in context. The Archival Memory has a much larger capacity, but will be held outside of your immediate context due to its size.

            Here is the content of your Core Memory from previous interactions:
            {memory_content}
            """;

    static final String UNIFIED = """
            {scenario_setting}

            You have access to an advanced memory system, which is persistent across multiple conversations with the user, and can be accessed in a later interactions. You should actively manage your memory data to keep track of important information, ensure that it is up-to-date and easy to retrieve to provide personalized responses to the user later.

            Here is the content of your memory system from previous interactions:
            {memory_content}
            """;

    /** {@code ADDITIONAL_SYSTEM_PROMPT_FOR_AGENTIC_RESPONSE_FORMAT}: the system message a question (not a prerequisite) starts with. */
    public static final String AGENTIC_RESPONSE_FORMAT = """
            For your final answer to the user, you must respond in this format: {'answer': A short and precise answer to the question, 'context': A brief explanation of how you arrived at this answer or why it is correct}. If you do not know the answer, respond with {'answer': 'I do not know', 'context': 'I do not know'}. If you think the question cannot be properly answered, response with {'answer': 'I cannot answer this question', 'context': A short reason explaining why this question cannot be answered}.
            """;

    /**
     * The first system message of an entry of {@code category} and {@code scenario} whose backend's context dump is
     * {@code memoryContent}: the template ({@code "rec_sum" in test_category}: the unified one) formatted, then, for a
     * question, {@code "\n\n"} and the agentic answer format that {@code process_agentic_test_case} had put first.
     */
    public static String systemMessage(String category, String scenario, String memoryContent, boolean question) {
        String setting = AGENT_SETTINGS.get(scenario);
        if (setting == null) throw new IllegalArgumentException("unknown memory scenario '" + scenario + "'");
        String template = category.contains("rec_sum") ? UNIFIED : CORE_ARCHIVAL;
        // str.format on a template whose only fields are these two: each replaced once, in one pass
        int a = template.indexOf("{scenario_setting}"), b = template.indexOf("{memory_content}");
        String prompt = template.substring(0, a)
                + setting
                + template.substring(a + "{scenario_setting}".length(), b)
                + memoryContent
                + template.substring(b + "{memory_content}".length());
        return question ? prompt + "\n\n" + AGENTIC_RESPONSE_FORMAT : prompt;
    }
}
