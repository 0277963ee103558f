package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The encoder against numbers published from sentence-transformers' all-MiniLM-L6-v2 in Python (PyTorch), with the
 * tolerance each publication's precision allows. What this measures is the whole pipeline (tokenizer, ONNX weights,
 * pooling, normalisation) on these texts; it does not prove equality on other texts.
 */
class MiniLmTest {
    private static final MiniLm M = MiniLm.get();

    private static double cos(String a, String b) {
        return FlatIpIndex.innerProduct(M.embed(a), M.embed(b));
    }

    /**
     * langchain4j-embeddings' AllMiniLmL6V2EmbeddingModelIT
     * ({@code embedding_should_have_the_same_values_as_embedding_produced_by_sentence_transformers_python_lib}): four
     * components of "I love sentence transformers." printed by sentence-transformers to 10 digits. Tolerance 1e-7
     * absolute (the published digits are ~1e-10; float32 components near 0.05 have a resolution of ~4e-9).
     */
    @Test
    void componentsOfILoveSentenceTransformers() {
        float[] v = M.embed("I love sentence transformers.");
        assertEquals(-0.0803190097, v[0], 1e-7);
        assertEquals(-0.0171345081, v[1], 1e-7);
        assertEquals(0.0478825271, v[382], 1e-7);
        assertEquals(-0.0561899580, v[383], 1e-7);
    }

    /**
     * sbert.net, "Computing Embeddings" (docs/sentence_transformer/usage/usage.html): the similarity matrix of its three
     * sentences, printed to 4 decimals, so the tolerance is the rounding's 5e-5 (plus 1e-6).
     */
    @Test
    void similaritiesOfTheUsagePage() {
        assertEquals(0.6660, cos("The weather is lovely today.", "It's so sunny outside!"), 5.1e-5);
        assertEquals(0.1046, cos("The weather is lovely today.", "He drove to the stadium."), 5.1e-5);
        assertEquals(0.1411, cos("It's so sunny outside!", "He drove to the stadium."), 5.1e-5);
    }

    /** sbert.net, "Semantic Textual Similarity": the 3×3 cross-similarities, 4 decimals. */
    @Test
    void similaritiesOfTheStsPage() {
        String[] a = {"The new movie is awesome", "The cat sits outside", "A man is playing guitar"};
        String[] b = {"The dog plays in the garden", "The new movie is so great", "A woman watches TV"};
        double[][] published = {{0.0543, 0.8939, -0.0502}, {0.2838, -0.0029, 0.1310}, {0.2277, -0.0136, -0.0327}};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) assertEquals(published[i][j], cos(a[i], b[j]), 5.1e-5, a[i] + " / " + b[j]);
    }

    /**
     * The model card's widget sentences ("That is a happy person" against three others): scores published to 8 digits
     * in a gist of Sam Partee (gist.github.com/Spartee/52d91a87571f37e5b34555c1db987f5f, "results of semantic
     * similarity search"; the gist does not name the model, its companion Redis article uses sentence-transformers).
     * Tolerance 1e-6.
     */
    @Test
    void similaritiesOfTheWidgetSentences() {
        assertEquals(0.94291496, cos("That is a happy person", "That is a very happy person"), 1e-6);
        assertEquals(0.69457746, cos("That is a happy person", "That is a happy dog"), 1e-6);
        assertEquals(0.25687605, cos("That is a happy person", "Today is a sunny day"), 1e-6);
    }

    @Test
    void unitLengthRememberedAndStrippedAsSentenceTransformersDoes() {
        float[] v = M.embed("A text about nothing in particular.");
        assertEquals(1.0, FlatIpIndex.innerProduct(v, v), 1e-6);
        assertSame(v, M.embed("A text about nothing in particular."));
        // str(s).strip() before the tokenizer, then [CLS] ... [SEP], lower-cased
        assertArrayEquals(new long[] {101, 7592, 1010, 2088, 999, 102}, M.tokenIds(" \n Hello, WORLD!\t "));
        assertArrayEquals(M.embed("hello, world!"), M.embed("\tHello, WORLD! "));
    }

    @Test
    void truncatedAt256TokensNotAveragedOverParts() {
        String longText = "hello ".repeat(600);
        assertEquals(MiniLm.MAX_SEQ_LENGTH, M.tokenIds(longText).length);
        // what lies beyond the 254th word piece does not count
        assertArrayEquals(M.embed("hello ".repeat(254)), M.embed("hello ".repeat(254) + "goodbye ".repeat(100)));
        assertTrue(cos("hello ".repeat(253), "hello ".repeat(253) + "goodbye") < 1.0);
    }

    /**
     * Four threads embedding on one encoder at once (texts it has not seen, each twice) get the vectors the process's
     * encoder gives, bit for bit.
     */
    @Test
    void concurrentUseGivesTheSameVectors() throws Exception {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 12; i++) texts.add("concurrency probe number " + i + " about a shared encoder");
        MiniLm fresh = MiniLm.withOptimisation(ai.onnxruntime.OrtSession.SessionOptions.OptLevel.BASIC_OPT);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<float[]>> futures = new ArrayList<>();
            for (int round = 0; round < 2; round++)
                for (String t : texts) futures.add(pool.submit(() -> fresh.embed(t)));
            for (int i = 0; i < texts.size(); i++)
                assertArrayEquals(
                        futures.get(i).get(), futures.get(i + texts.size()).get(), texts.get(i));
            for (int i = 0; i < texts.size(); i++)
                assertArrayEquals(M.embed(texts.get(i)), futures.get(i).get());
        } finally {
            pool.shutdown();
        }
    }
}
