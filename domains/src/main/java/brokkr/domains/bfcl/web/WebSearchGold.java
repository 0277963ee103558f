package brokkr.domains.bfcl.web;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted {@code gold} candidate of {@code bfcl-web-search}: for each subquestion of the possible answer's
 * sources, {@code search_engine_query(keywords=subquestion, max_results=3)} and, when that returned results,
 * {@code fetch_url_content(url=<first result's href>, mode="raw")}; then the first accepted answer in the agentic
 * response format. Its IO depends on what the searches return, so recording it exercises what a model's run does.
 */
public record WebSearchGold(WebSearchData.Question question) implements Candidate {
    /** The first {@code 'href': '...'} of a result list's {@code str()} (either quote, as repr picks). */
    private static final Pattern HREF = Pattern.compile("'href': (['\"])(.*?)\\1");

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        List<String> results = history.stream()
                .filter(m -> m instanceof Message.Tool)
                .map(m -> ((Message.Tool) m).content())
                .toList();
        // the position in the plan, from the results seen so far: results[i] is subquestion sub's search, followed
        // by its fetch when the search gave a result
        int i = 0, sub = 0;
        while (i < results.size()) {
            Matcher h = HREF.matcher(results.get(i++));
            if (h.find()) {
                if (i == results.size())
                    return call(
                            "call_fetch_" + sub,
                            "fetch_url_content",
                            PyDict.of("url", new PyStr(h.group(2)), "mode", new PyStr("raw")));
                i++;
            }
            sub++;
        }
        if (sub < question.subquestions().size())
            return call(
                    "call_search_" + sub,
                    "search_engine_query",
                    PyDict.of("keywords", new PyStr(question.subquestions().get(sub)), "max_results", PyInt.of(3)));
        String answer = question.groundTruth().getFirst().replace("'", "\\'");
        return Turn.of(new Message.Assistant(
                "{'answer': '" + answer + "', 'context': 'From the pages fetched for each subquestion.'}"));
    }

    private static Turn call(String id, String name, PyDict args) {
        return Turn.of(new Message.Assistant(null, List.of(new ToolCall(id, name, args))));
    }
}
