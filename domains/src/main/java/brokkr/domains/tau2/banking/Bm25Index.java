package brokkr.domains.tau2.banking;

import brokkr.python.PyStrings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The knowledge base's BM25 index: Lucene holds the inverted index (each token's documents and
 * frequencies), and scores are computed exactly as rank_bm25 0.2.2's {@code BM25Okapi} does, in double
 * arithmetic and its operation order, so that upstream's top-k and its printed scores are reproduced.
 *
 * <p>Upstream: {@code BM25Indexer.process} (src/tau2/knowledge/document_preprocessors/bm25_indexer.py)
 * tokenises each document's content by {@code text.lower().split()} and builds {@code BM25Okapi(k1=1.5,
 * b=0.75, epsilon=0.25)}; {@code BM25Retriever.retrieve} (knowledge/retrievers/bm25_retriever.py) scores
 * the tokenised query with {@code get_scores} and sorts {@code range(N)} by score, stably, descending.
 * Lucene's own similarity is not used (it has another idf and float norms); the index is one segment
 * whose doc ids are the documents' positions in index order, which decides ties as upstream's
 * {@code glob()} order did. Its postings are read once, at construction, into per-token arrays with each
 * posting's BM25 term precomputed, so a search is one map lookup and a few additions per query token.
 */
public final class Bm25Index {
    static final double K1 = 1.5, B = 0.75, EPSILON = 0.25;
    private static final String FIELD = "content";

    /**
     * Lucene logs a WARNING through java.util.logging when the JDK's vector incubator module is not on the
     * module path (it is not: the index only stores postings, and no vector code runs); that line would
     * reach every CLI user's stderr. Held strongly: JUL keeps loggers weakly, a level set on a collected
     * logger is lost.
     */
    private static final Logger LUCENE_VECTORIZATION =
            Logger.getLogger("org.apache.lucene.internal.vectorization.VectorizationProvider");

    static {
        LUCENE_VECTORIZATION.setLevel(Level.SEVERE);
    }

    private final int n;
    private final int[] docLen;
    private final double avgdl;
    private final double averageIdf;
    private final int vocabularySize;
    private final long totalTokens;
    /**
     * Each token's postings as read from the Lucene index, with the BM25 term of every posting document
     * precomputed: {@code idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * doc_len / avgdl)))} is the same
     * double whenever it is computed, so a query only adds them up, in query-token order.
     */
    private final Map<String, Postings> postings;

    private record Postings(int docFreq, int[] docs, double[] weights) {}

    /** Builds the index of the documents' contents, in the given order. */
    public Bm25Index(List<String> contents) {
        this.n = contents.size();
        this.docLen = new int[n];
        // nd in first-occurrence order: BM25Okapi sums the idfs over this dict's iteration order.
        Set<String> vocabulary = new LinkedHashSet<>();
        long total = 0;
        FieldType type = new FieldType();
        type.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        type.setTokenized(true);
        type.setOmitNorms(true);
        type.freeze();
        Map<String, int[][]> raw = new HashMap<>();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
                IndexWriter w = new IndexWriter(
                        dir,
                        new IndexWriterConfig(new PythonSplitAnalyzer())
                                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                                .setRAMBufferSizeMB(256)
                                .setCommitOnClose(false)
                                .setUseCompoundFile(false)
                                .setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int d = 0; d < n; d++) {
                List<String> tokens = tokenize(contents.get(d));
                docLen[d] = tokens.size();
                total += tokens.size();
                vocabulary.addAll(tokens);
                Document doc = new Document();
                doc.add(new Field(FIELD, new ListTokenStream(tokens), type));
                w.addDocument(doc);
            }
            try (DirectoryReader r = DirectoryReader.open(w)) {
                if (r.leaves().size() > 1)
                    throw new IllegalStateException(
                            "expected one segment, got " + r.leaves().size());
                if (n > 0) {
                    LeafReader leaf = r.leaves().get(0).reader();
                    Terms terms = leaf.terms(FIELD);
                    TermsEnum te = terms == null ? null : terms.iterator();
                    PostingsEnum pe = null;
                    for (BytesRef term; te != null && (term = te.next()) != null; ) {
                        int df = te.docFreq();
                        int[] docs = new int[df], freqs = new int[df];
                        pe = te.postings(pe, PostingsEnum.FREQS);
                        int k = 0;
                        for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc(), k++) {
                            docs[k] = d;
                            freqs[k] = pe.freq();
                        }
                        raw.put(term.utf8ToString(), new int[][] {docs, freqs});
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (raw.size() != vocabulary.size()) {
            throw new IllegalStateException(
                    "the Lucene index has " + raw.size() + " terms, the documents " + vocabulary.size() + " tokens");
        }
        this.avgdl = (double) total / n; // num_doc / self.corpus_size
        // BM25Okapi._calc_idf: idf = log(N - nd + 0.5) - log(nd + 0.5), summed in nd's order; negative
        // idfs are replaced by epsilon * average_idf afterwards.
        double idfSum = 0;
        for (String word : vocabulary) idfSum += rawIdf(raw.get(word)[0].length);
        this.averageIdf = idfSum / vocabulary.size();
        this.vocabularySize = vocabulary.size();
        this.totalTokens = total;
        Map<String, Postings> p = new HashMap<>(raw.size() * 2);
        for (Map.Entry<String, int[][]> e : raw.entrySet()) {
            int[] docs = e.getValue()[0], freqs = e.getValue()[1];
            double idf = floored(rawIdf(docs.length));
            double[] weights = new double[docs.length];
            for (int k = 0; k < docs.length; k++) {
                double f = freqs[k];
                weights[k] = idf * (f * (K1 + 1) / (f + K1 * (1 - B + B * docLen[docs[k]] / avgdl)));
            }
            p.put(e.getKey(), new Postings(docs.length, docs, weights));
        }
        this.postings = p;
    }

    private double floored(double idf) {
        return idf < 0 ? EPSILON * averageIdf : idf;
    }

    /** {@code text.lower().split()}: Python's full lower-case mapping, then runs of Python whitespace. */
    public static List<String> tokenize(String text) {
        return PyStrings.split(PyStrings.lower(text));
    }

    private double rawIdf(int nd) {
        return Math.log(n - nd + 0.5) - Math.log(nd + 0.5);
    }

    /** {@code self.idf[word]}, floored; null for a word not in the index ({@code idf.get(q) or 0}). */
    public Double idf(String word) {
        Postings p = postings.get(word);
        return p == null ? null : floored(rawIdf(p.docFreq()));
    }

    public int size() {
        return n;
    }

    public double avgdl() {
        return avgdl;
    }

    public double averageIdf() {
        return averageIdf;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    public long totalTokens() {
        return totalTokens;
    }

    /**
     * {@code BM25Okapi.get_scores(query.lower().split())}: for each query token in order (duplicates
     * included), {@code score += idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * doc_len / avgdl)))} over
     * every document. Documents without the token add {@code idf * 0.0 = 0.0}, which leaves their
     * score unchanged, so only the token's postings are visited.
     */
    public double[] scores(List<String> queryTokens) {
        double[] score = new double[n];
        for (String q : queryTokens) {
            Postings p = postings.get(q);
            if (p == null) continue;
            int[] docs = p.docs();
            double[] w = p.weights();
            for (int k = 0; k < docs.length; k++) score[docs[k]] += w[k];
        }
        return score;
    }

    /**
     * {@code sorted(range(N), key=lambda i: scores[i], reverse=True)}: all document indexes by score,
     * descending; Python's sort is stable under {@code reverse=True}, so equal scores keep index order.
     */
    public static int[] ranking(double[] scores) {
        Integer[] idx = new Integer[scores.length];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        // Double.compare orders -0.0 below 0.0, Python's < does not: scores are sums of non-negative
        // terms starting at 0.0, so they are never -0.0 (nor NaN).
        Arrays.sort(idx, (a, b) -> Double.compare(scores[b], scores[a]));
        int[] out = new int[idx.length];
        for (int i = 0; i < out.length; i++) out[i] = idx[i];
        return out;
    }

    /** Tokens handed to Lucene as they are: tokenisation is upstream's, done by {@link #tokenize}. */
    private static final class ListTokenStream extends TokenStream {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final List<String> tokens;
        private Iterator<String> it;

        ListTokenStream(List<String> tokens) {
            this.tokens = new ArrayList<>(tokens);
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            it = tokens.iterator();
        }

        @Override
        public boolean incrementToken() {
            if (!it.hasNext()) return false;
            clearAttributes();
            term.setEmpty().append(it.next());
            return true;
        }
    }

    /** The writer's analyzer is never asked to analyse text: every field arrives as a token stream. */
    private static final class PythonSplitAnalyzer extends Analyzer {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            throw new UnsupportedOperationException("fields are pre-tokenised (Bm25Index.tokenize)");
        }
    }
}
