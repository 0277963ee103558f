package brokkr.domains.tau2.banking;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyOps;
import brokkr.python.PyStrings;
import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The knowledge base ({@code KnowledgeBase.load}: the 698 documents in index order) and {@code KB_search}
 * over its {@link Bm25Index} ({@code KBSearchMixin.KB_search} → {@code _run_kb_search} →
 * {@code BM25Retriever.retrieve} → {@code _format_kb_search_result}, retrieval_mixins.py).
 */
public final class KnowledgeBase {
    /** A document: {@code {"id", "title", "content"}}. */
    public record Doc(String id, String title, String content) {}

    /**
     * Upstream appends its measured wall-clock times; printed as zeros so that a world stays a pure
     * function of its inputs (the oracle masks every digit run of this suffix to "0", and the reranking
     * part always appeared: its measured time of the empty post-processing loop was always above 0).
     */
    public static final String TIMING = "\n\n[Timing: retrieval=0ms, reranking=0ms, total=0ms]";

    private final List<Doc> docs;
    private final Bm25Index index;

    public KnowledgeBase(List<Doc> docs) {
        this.docs = List.copyOf(docs);
        this.index = new Bm25Index(this.docs.stream().map(Doc::content).toList());
    }

    public List<Doc> docs() {
        return docs;
    }

    public Bm25Index index() {
        return index;
    }

    /** The ranked (index, score) results of {@code BM25Retriever.retrieve} with {@code self.top_k = topK}. */
    public record Hit(int doc, double score) {}

    /**
     * {@code KB_search(query)} with the retriever's {@code top_k}: the result text; raises as upstream
     * for a non-str query ({@code query.strip()}) and for a {@code top_k} that {@code min} or slicing rejects.
     */
    public String kbSearch(Value query, Value topK) {
        return format(retrieve(query, topK));
    }

    public List<Hit> retrieve(Value query, Value topK) {
        // if not query or not query.strip(): return []
        if (!PyBuiltins.truthy(query)) return List.of();
        if (!(query instanceof PyStr q)) throw PyBuiltins.attributeError(query, "strip");
        if (PyStrings.strip(q.value()).isEmpty()) return List.of();
        double[] scores = index.scores(Bm25Index.tokenize(q.value()));
        // top_k = min(self.top_k, len(doc_ids)): min keeps the first unless `len < top_k`
        Value n = PyInt.of(scores.length);
        Value k = PyOps.lt(n, topK) ? n : topK;
        int[] ranking = Bm25Index.ranking(scores);
        int end = sliceEnd(k, ranking.length);
        List<Hit> out = new ArrayList<>(Math.max(end, 0));
        for (int i = 0; i < end; i++) out.add(new Hit(ranking[i], scores[ranking[i]]));
        return out;
    }

    /** {@code seq[:k]}'s end for a list of {@code len} items (bool is an int; other types are TypeError). */
    private static int sliceEnd(Value k, int len) {
        long v;
        if (k instanceof PyBool b) v = b.value() ? 1 : 0;
        else if (k instanceof PyInt i)
            v = i.fitsLong() ? i.longValue() : i.value().signum() * (long) Integer.MAX_VALUE;
        else if (k.isNone()) v = len;
        else throw PyException.typeError("slice indices must be integers or None or have an __index__ method");
        if (v < 0) v = Math.max(0, len + v);
        return (int) Math.min(v, len);
    }

    /** {@code _format_kb_search_result}. */
    public String format(List<Hit> hits) {
        if (hits.isEmpty()) return "No relevant documents found." + TIMING;
        List<String> parts = new ArrayList<>(hits.size());
        int i = 1;
        for (Hit h : hits) {
            Doc d = docs.get(h.doc());
            String title = d.title() == null || d.title().isEmpty() ? "Untitled" : d.title();
            String content = d.content() == null ? "" : d.content();
            parts.add((i++) + ". " + title + "\n   ID: " + d.id() + "\n   Score: "
                    + PyFormat.format(new PyFloat(h.score()), ".4f") + "\n   Content: " + content + "\n");
        }
        return String.join("\n", parts) + TIMING;
    }
}
