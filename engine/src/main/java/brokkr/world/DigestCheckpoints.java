package brokkr.world;

import brokkr.value.Value;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * SHA-256 checkpoints for {@link WorldHash}: a large world's text is a sequence of <em>entries</em>
 * (the memoized small children of its large containers, as {@code byte[]} memos), each preceded by a
 * <em>gap</em> (the skeleton runs since the previous entry: brackets, separators, keys, leaf values).
 * A {@link Trace} records, per entry, the gap and the child node, and every
 * {@value #CHECKPOINT_EVERY} bytes or so the digest state after an entry (a checkpoint).
 *
 * <p>SHA-256 is sequential, so while a new world's entries are the same nodes after equal gaps as a
 * recorded trace's, its text so far is the same and so is the digest state: feeding starts at the
 * first entry that differs, from the last checkpoint before it (re-digesting the few entries between
 * them, whose nodes and gaps the trace holds). A persistent update shares every
 * untouched node, so a world one tool call away from a hashed one digests only the text from the
 * changed entry on (in sorted tau2 retail, a changed order re-digests the orders after it, the
 * products and the users: SHA-256 cannot skip those).
 *
 * <p>Each thread keeps two traces per key order: an anchor, the first world of the current lineage
 * (typically the pristine db every episode or replayed sequence starts from), and the last world
 * hashed (its previous step). A world unrelated to the anchor (neither its first nor its last entry
 * is the anchor's: another db, a deep copy) becomes the new anchor, so a thread moving on to another
 * domain does not keep an anchor nothing resumes from (and an emptied third, the last trace replaced,
 * whose arrays the next hash fills: a trace's arrays per hash were much of a replay's garbage). States are
 * never updated after they are recorded (only cloned), so traces share them freely. Memory: per entry
 * one reference to the node and the gap (shared with the skeleton when it is one run), and one cloned
 * digest state per checkpoint (shared between traces while their texts agree); see
 * {@link #retainedBytes()}.
 */
final class DigestCheckpoints {
    private DigestCheckpoints() {}

    /**
     * Per key order (memo slot): {anchor, last, spare} traces of this thread; the spare is a last trace
     * that was replaced (referenced by nothing), whose arrays the next trace reuses.
     */
    private static final ThreadLocal<Trace[][]> TRACES = ThreadLocal.withInitial(() -> new Trace[2][3]);

    private static final byte[] EMPTY = new byte[0];

    /**
     * Bytes digested between checkpoints. A checkpoint costs a clone of the digest (225 bytes of heap,
     * JDK 25, and an allocation) and saves re-digesting up to this many bytes when a later world
     * diverges after it (SHA-256 with SHA-NI on this project's machine: 1.6-1.8 GB/s, so 16 KiB is
     * about 10 us). The former Tau2Hash cloned after every entry (~1 KiB in tau2 retail); at 16 KiB the
     * retail fuzz replay (bench replay, 2,069 full hashes) makes 89k clones and re-digests 16 MB from
     * checkpoints, 1% of the 1.53 GB it digests, and runs about 10% faster.
     */
    static final int CHECKPOINT_EVERY = 16 * 1024;

    /** One hashed text: per entry, the gap before it, its node, and the digest state after it or null (no checkpoint). */
    static final class Trace {
        byte[][] gaps;
        Value[] nodes;
        /** The entries' text memos, the bytes the nodes stood for when digested. */
        byte[][] texts;

        MessageDigest[] states;
        int n;
        /**
         * Spans, in the order their skeletons were entered: a nested (large container's) skeleton, the
         * entries {@code [spanStart, spanEnd)} it stood for, and the pending gap text before it and after
         * it. A later world that reaches the same skeleton array (an untouched table: persistent updates
         * share it) at the same entry after the same gap copies the span's entries instead of walking them.
         */
        Object[][] spanSkeletons = new Object[8][];

        int[] spanStart = new int[8];
        int[] spanEnd = new int[8];
        byte[][] spanBefore = new byte[8][];
        byte[][] spanAfter = new byte[8][];
        /** Bytes of the text of a span's entries, gaps included (what copying it stands for). */
        long[] spanText = new long[8];

        int spans;

        Trace() {
            this(64);
        }

        /** Empty, holding no node, gap or state, to be filled again (only this thread held it). */
        Trace reset() {
            Arrays.fill(gaps, 0, n, null);
            Arrays.fill(nodes, 0, n, null);
            Arrays.fill(texts, 0, n, null);
            Arrays.fill(states, 0, n, null);
            n = 0;
            Arrays.fill(spanSkeletons, 0, spans, null);
            Arrays.fill(spanBefore, 0, spans, null);
            Arrays.fill(spanAfter, 0, spans, null);
            spans = 0;
            return this;
        }

        /** Sized for {@code capacity} entries: a world's trace has about as many as the trace before it. */
        Trace(int capacity) {
            int c = Math.max(16, capacity);
            gaps = new byte[c][];
            nodes = new Value[c];
            texts = new byte[c][];
            states = new MessageDigest[c];
        }

        void add(byte[] gap, Value node, byte[] text, MessageDigest state) {
            if (n == nodes.length) {
                int m = n * 2;
                gaps = Arrays.copyOf(gaps, m);
                nodes = Arrays.copyOf(nodes, m);
                texts = Arrays.copyOf(texts, m);
                states = Arrays.copyOf(states, m);
            }
            gaps[n] = gap;
            nodes[n] = node;
            texts[n] = text;
            states[n] = state;
            n++;
        }

        /** Opens a span (its end and the gap after it are set by {@link #closeSpan}); returns its index. */
        int openSpan(Object[] skeleton, int start, byte[] before) {
            if (spans == spanSkeletons.length) {
                int m = spans * 2;
                spanSkeletons = Arrays.copyOf(spanSkeletons, m);
                spanStart = Arrays.copyOf(spanStart, m);
                spanEnd = Arrays.copyOf(spanEnd, m);
                spanBefore = Arrays.copyOf(spanBefore, m);
                spanAfter = Arrays.copyOf(spanAfter, m);
                spanText = Arrays.copyOf(spanText, m);
            }
            spanSkeletons[spans] = skeleton;
            spanStart[spans] = start;
            spanEnd[spans] = -1; // open
            spanBefore[spans] = before;
            spanAfter[spans] = null;
            return spans++;
        }

        void closeSpan(int s, int end, byte[] after, long text) {
            spanEnd[s] = end;
            spanAfter[s] = after;
            spanText[s] = text;
        }

        /** The closed span of {@code skeleton} starting at entry {@code start} after gap text {@code before}, or -1. */
        int span(Object[] skeleton, int start, byte[] before) {
            for (int s = 0; s < spans; s++) {
                if (spanSkeletons[s] == skeleton
                        && spanStart[s] == start
                        && spanEnd[s] >= 0
                        && (spanBefore[s] == before || Arrays.equals(spanBefore[s], before))) return s;
            }
            return -1;
        }

        /** Appends {@code from}'s entries of its span {@code s} and the spans nested in it (the same text). */
        void copySpan(Trace from, int s) {
            int a = from.spanStart[s], b = from.spanEnd[s], m = b - a;
            if (n + m > nodes.length) {
                int c = Math.max(nodes.length * 2, n + m);
                gaps = Arrays.copyOf(gaps, c);
                nodes = Arrays.copyOf(nodes, c);
                texts = Arrays.copyOf(texts, c);
                states = Arrays.copyOf(states, c);
            }
            System.arraycopy(from.gaps, a, gaps, n, m);
            System.arraycopy(from.nodes, a, nodes, n, m);
            System.arraycopy(from.texts, a, texts, n, m);
            System.arraycopy(from.states, a, states, n, m);
            int shift = n - a;
            n += m;
            // Spans are recorded in the order they open, so s and those nested in it are consecutive.
            for (int t = s; t < from.spans && from.spanStart[t] < b && (t == s || from.spanEnd[t] <= b); t++) {
                if (from.spanEnd[t] < 0) break;
                int k = openSpan(from.spanSkeletons[t], from.spanStart[t] + shift, from.spanBefore[t]);
                closeSpan(k, from.spanEnd[t] + shift, from.spanAfter[t], from.spanText[t]);
            }
        }

        boolean matches(int j, Value node, byte[] gap) {
            return j < n && nodes[j] == node && (gaps[j] == gap || Arrays.equals(gaps[j], gap));
        }
    }

    /**
     * The digest of the text a root skeleton stands for (memo slot {@code slot}); {@code memoize} fills
     * the memos of a child that has none (only a child whose memo another thread is replacing at this
     * moment could be without, see {@link WorldHash}).
     */
    static byte[] digest(Object[] rootSkeleton, int slot, Consumer<Value> memoize) {
        Trace[] mine = TRACES.get()[slot];
        Trace spare = mine[2];
        mine[2] = null;
        Feed feed = new Feed(
                mine[0] == null
                        ? new Trace[0]
                        : mine[1] == null || mine[1] == mine[0]
                                ? new Trace[] {mine[0]}
                                : new Trace[] {mine[1], mine[0]},
                spare);
        feed.skeleton(rootSkeleton, slot, memoize);
        byte[] digest = feed.finish();
        Trace dropped = mine[1];
        if (mine[0] == null || !related(mine[0], feed.trace)) mine[0] = feed.trace;
        mine[1] = feed.trace;
        if (dropped != null && dropped != mine[0]) mine[2] = dropped.reset(); // neither anchor nor last any more
        return digest;
    }

    /**
     * Whether two traces are of one lineage: one update leaves the first or the last entry of the text
     * the same node (an inserted or removed key shifts the indices between them, not the ends).
     */
    private static boolean related(Trace a, Trace b) {
        return a.n > 0 && b.n > 0 && (a.nodes[0] == b.nodes[0] || a.nodes[a.n - 1] == b.nodes[b.n - 1]);
    }

    /**
     * Estimated heap bytes of this thread's traces (both key orders), each trace's arrays and each
     * distinct recorded state once; the nodes themselves belong to the worlds.
     */
    static long retainedBytes() {
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        long total = 0;
        for (Trace[] pair : TRACES.get()) {
            for (Trace t : pair) {
                if (t == null || !seen.add(t)) continue;
                total += 32 + 4 * (16 + 4L * t.nodes.length);
                for (int i = 0; i < t.n; i++) {
                    if (seen.add(t.gaps[i])) total += (16L + t.gaps[i].length + 7) & ~7L;
                    if (t.states[i] != null && seen.add(t.states[i])) total += STATE_BYTES;
                }
            }
        }
        return total;
    }

    /**
     * Heap of one cloned SHA-256 {@link MessageDigest} (JDK 25: the provider delegate and the SHA2
     * engine with its block buffer and state), measured by allocating 200,000 used clones.
     */
    static final int STATE_BYTES = 225;

    /** This thread's {first, last} traces of a key order (tests). */
    static Trace[] traces(int slot) {
        return Arrays.copyOf(TRACES.get()[slot], 2);
    }

    /** Drops this thread's traces (tests; a thread hashing unrelated worlds keeps at most two per order). */
    static void forget() {
        TRACES.remove();
    }

    private static final class Feed {
        final Trace trace;
        /** Traces whose text equals this one's so far (the first {@code aliveCount}). */
        final Trace[] alive;

        int aliveCount;
        /** Null while some trace's text equals this one's so far. */
        MessageDigest md;
        /** Bytes digested since the last checkpoint. */
        long sinceCheckpoint;
        /** Bytes digested by this feed (resumed entries included), for {@link WorldHash#digestedBytes()}. */
        long digested;
        /** Bytes of this feed's text so far, shared or digested, for {@link WorldHash#hashedTextBytes()}. */
        long text;

        /** The current gap: a single run as it is, or several runs concatenated. */
        byte[] single;

        byte[] gap = new byte[256];
        int gapLen;
        int gapRuns;

        Feed(Trace[] candidates, Trace spare) {
            // Growing the arrays by doubling from a small size, per hash, was a sixth of a tau2 replay's allocation.
            int capacity = candidates.length == 0 ? 64 : candidates[0].n + candidates[0].n / 8 + 8;
            trace = spare != null && spare.nodes.length >= capacity ? spare : new Trace(capacity);
            alive = candidates;
            aliveCount = candidates.length;
            if (aliveCount == 0) md = WorldHash.newSha256();
        }

        void skeleton(Object[] skeleton, int slot, Consumer<Value> memoize) {
            for (Object part : skeleton) {
                if (part instanceof byte[] run) {
                    run(run);
                    continue;
                }
                Value child = (Value) part;
                Object memo = WorldHash.text(WorldHash.memo(child, slot));
                if (memo == null) {
                    memoize.accept(child);
                    memo = WorldHash.text(WorldHash.memo(child, slot));
                }
                // instanceof rather than a type switch: once per entry of every hash.
                if (memo instanceof byte[] text) entry(child, text);
                else if (memo instanceof Object[] nested) nested(nested, slot, memoize);
                else throw new IllegalStateException("not a world hash memo: " + memo.getClass());
            }
        }

        /**
         * A large child's skeleton: copied as a span of a trace whose text so far equals this one's and
         * which reached the same skeleton at this entry after the same gap, else walked (and recorded as
         * a span for later worlds).
         */
        private void nested(Object[] nested, int slot, Consumer<Value> memoize) {
            byte[] before = pendingGap();
            int start = trace.n;
            if (md == null) {
                Trace from = null;
                int fromSpan = -1;
                int k = 0;
                for (int i = 0; i < aliveCount; i++) {
                    int s = alive[i].n >= start ? alive[i].span(nested, start, before) : -1;
                    if (s < 0) continue;
                    if (from == null) {
                        from = alive[i];
                        fromSpan = s;
                    }
                    alive[k++] = alive[i]; // the same skeleton after the same text: the same entries
                }
                if (from != null) {
                    aliveCount = k;
                    byte[] after = from.spanAfter[fromSpan];
                    trace.copySpan(from, fromSpan);
                    text += from.spanText[fromSpan];
                    single = null;
                    gapLen = 0;
                    gapRuns = 0;
                    if (after.length > 0) {
                        single = after;
                        gapRuns = 1;
                    }
                    return;
                }
            }
            int s = trace.openSpan(nested, start, before);
            long textBefore =
                    text; // the pending gaps before and after the span are counted with the entries that take them
            skeleton(nested, slot, memoize);
            trace.closeSpan(s, trace.n, pendingGap(), text - textBefore);
        }

        /** The current gap's text (not taken). */
        private byte[] pendingGap() {
            return gapRuns == 0 ? EMPTY : gapRuns == 1 ? single : Arrays.copyOf(gap, gapLen);
        }

        private void run(byte[] run) {
            if (run.length == 0) return;
            if (gapRuns == 0) {
                single = run;
            } else {
                if (gapRuns == 1) append(single);
                append(run);
            }
            gapRuns++;
        }

        private void append(byte[] b) {
            if (gapLen + b.length > gap.length) gap = Arrays.copyOf(gap, Math.max(gap.length * 2, gapLen + b.length));
            System.arraycopy(b, 0, gap, gapLen, b.length);
            gapLen += b.length;
        }

        private byte[] takeGap() {
            byte[] g = gapRuns == 0 ? EMPTY : gapRuns == 1 ? single : Arrays.copyOf(gap, gapLen);
            single = null;
            gapLen = 0;
            gapRuns = 0;
            return g;
        }

        private void entry(Value node, byte[] text) {
            byte[] g = takeGap();
            int j = trace.n;
            if (md == null) {
                int k = 0;
                for (int i = 0; i < aliveCount; i++) if (alive[i].matches(j, node, g)) alive[k++] = alive[i];
                if (k > 0) {
                    aliveCount = k;
                    this.text += g.length + text.length;
                    // Same text so far: share the recorded gap and state.
                    trace.add(alive[0].gaps[j], node, alive[0].texts[j], alive[0].states[j]);
                    return;
                }
                aliveCount = 0;
                resume();
            }
            md.update(g);
            md.update(text);
            sinceCheckpoint += g.length + text.length;
            digested += g.length + text.length;
            this.text += g.length + text.length;
            MessageDigest state = null;
            if (sinceCheckpoint >= CHECKPOINT_EVERY) {
                state = copy(md);
                sinceCheckpoint = 0;
            }
            trace.add(g, node, text, state);
        }

        /**
         * The digest state after this trace's entries so far (all shared with a recorded trace): the last
         * checkpoint, then the entries after it digested again from their gaps and memos.
         */
        private void resume() {
            int c = trace.n - 1;
            while (c >= 0 && trace.states[c] == null) c--;
            md = c < 0 ? WorldHash.newSha256() : copy(trace.states[c]);
            for (int i = c + 1; i < trace.n; i++) {
                md.update(trace.gaps[i]);
                md.update(trace.texts[i]);
                sinceCheckpoint += trace.gaps[i].length + trace.texts[i].length;
                digested += trace.gaps[i].length + trace.texts[i].length;
            }
        }

        byte[] finish() {
            byte[] g = takeGap();
            if (md == null) resume();
            md.update(g);
            WorldHash.countDigested(digested + g.length, text + g.length);
            return md.digest();
        }
    }

    private static MessageDigest copy(MessageDigest md) {
        try {
            return (MessageDigest) md.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError("SHA-256 digests of every Java platform are cloneable", e);
        }
    }
}
