package brokkr.domains.synthetic.loop;

import brokkr.domains.synthetic.SyntheticTools;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The hidden world of pointer chasing: {@code depth} hops from {@code start}, each hop a key that
 * reveals one fragment of the secret and the next key, the last hop's next key being {@link #END}.
 * {@code hops} is the world the tool reads: key → {"fragment": f, "next": k}.
 */
public record PointerChain(int depth, String start, String secret, PyDict hops) {
    public static final String END = "END";
    public static final int KEY_LENGTH = 6;
    public static final int FRAGMENT_LENGTH = 4;

    /**
     * The chain of a depth: seeded by the depth alone, so a depth is the same task on every run and
     * machine ({@link SplittableRandom} is specified bit for bit). Keys are {@code k} + 6 tokens and
     * never repeat (a repeated key would make the walk ambiguous); fragments are 4 tokens.
     */
    public static PointerChain of(int depth) {
        if (depth < 1) throw new IllegalArgumentException("depth must be at least 1, got " + depth);
        SplittableRandom random = new SplittableRandom(depth * 1_000_003L);
        Set<String> keys = new LinkedHashSet<>();
        while (keys.size() < depth) keys.add("k" + SyntheticTools.token(random, KEY_LENGTH));
        List<String> order = new ArrayList<>(keys);
        PyDict.Builder hops = PyDict.builder();
        StringBuilder secret = new StringBuilder(depth * FRAGMENT_LENGTH);
        for (int i = 0; i < depth; i++) {
            String fragment = SyntheticTools.token(random, FRAGMENT_LENGTH);
            secret.append(fragment);
            hops.put(order.get(i), PyDict.of("fragment", fragment, "next", i + 1 < depth ? order.get(i + 1) : END));
        }
        return new PointerChain(depth, order.getFirst(), secret.toString(), hops.build());
    }

    /** The hop at a key: its fragment and next key; null for a key not in the chain. */
    public PyDict hop(String key) {
        return hops.get(key) instanceof PyDict d ? d : null;
    }
}
