package brokkr.conversation;

import brokkr.value.PyDict;

/** A tool as a model sees it: name, description and JSON-schema parameters (an OpenAI "function"). */
public record ToolSpec(String name, String description, PyDict parameters) {}
