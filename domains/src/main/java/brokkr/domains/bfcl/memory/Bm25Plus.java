package brokkr.domains.bfcl.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * rank_bm25 0.2.2's {@code BM25Plus} (upstream's pin; k1 = 1.5, b = 0.75, delta = 1, idf {@code log((N+1)/df)}):
 * the scores of a tokenized query against a tokenized corpus, each operation in rank_bm25's order so the doubles
 * are the same bits as numpy's float64 elementwise arithmetic.
 */
final class Bm25Plus {
    private static final double K1 = 1.5, B = 0.75, DELTA = 1;

    private final List<Map<String, Integer>> docFreqs = new ArrayList<>();
    private final int[] docLen;
    private final double avgdl;
    private final Map<String, Double> idf = new HashMap<>();

    /** {@code BM25.__init__}: an empty corpus divides by its size ({@code ZeroDivisionError: division by zero}). */
    Bm25Plus(List<List<String>> corpus) {
        docLen = new int[corpus.size()];
        Map<String, Integer> nd = new LinkedHashMap<>();
        long numDoc = 0;
        for (int i = 0; i < corpus.size(); i++) {
            List<String> document = corpus.get(i);
            docLen[i] = document.size();
            numDoc += document.size();
            Map<String, Integer> frequencies = new HashMap<>();
            for (String w : document) frequencies.merge(w, 1, Integer::sum);
            docFreqs.add(frequencies);
            for (String w : frequencies.keySet()) nd.merge(w, 1, Integer::sum);
        }
        if (corpus.isEmpty()) throw new brokkr.python.PyException("ZeroDivisionError", "division by zero");
        avgdl = (double) numDoc / corpus.size();
        for (Map.Entry<String, Integer> e : nd.entrySet())
            idf.put(e.getKey(), Math.log((double) (corpus.size() + 1) / e.getValue()));
    }

    /** {@code get_scores(query)}. */
    double[] scores(List<String> query) {
        double[] score = new double[docLen.length];
        for (String q : query) {
            double qIdf = idf.getOrDefault(q, 0.0);
            for (int i = 0; i < score.length; i++) {
                double qFreq = docFreqs.get(i).getOrDefault(q, 0);
                score[i] += qIdf * (DELTA + (qFreq * (K1 + 1)) / (K1 * (1 - B + B * docLen[i] / avgdl) + qFreq));
            }
        }
        return score;
    }
}
