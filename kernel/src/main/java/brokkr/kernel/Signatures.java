package brokkr.kernel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashSet;
import java.util.SequencedSet;
import org.dflib.jjava.jupyter.messages.HMACGenerator;

/**
 * The message signatures of one kernel session (one connection key), for its shell and control channels
 * together: a signature is compared in constant time ({@link MessageDigest#isEqual}, so the time taken does
 * not tell how much of a forged signature was right), and a signature seen before is a replay and refused, as
 * jupyter_client's {@code Session} does with its digest history. The history keeps the latest
 * {@value #HISTORY} signatures (jupyter_client's size too); a replay of an older message is not caught.
 * Without a key (an unauthenticated connection file) every message passes and none is remembered.
 */
final class Signatures {
    static final int HISTORY = 1 << 16;

    enum Verdict {
        OK,
        BAD_SIGNATURE,
        REPLAYED
    }

    private final HMACGenerator hmac;
    private final boolean signed;
    private final SequencedSet<String> seen = new LinkedHashSet<>();

    Signatures(HMACGenerator hmac) {
        this.hmac = hmac;
        this.signed = hmac != HMACGenerator.NO_AUTH_INSTANCE;
    }

    /** Checks a received signature against the message parts (header, parent header, metadata, content). */
    Verdict check(String received, byte[] header, byte[] parent, byte[] metadata, byte[] content) {
        if (!signed) return Verdict.OK;
        byte[] expected =
                hmac.calculateSignature(header, parent, metadata, content).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, received.getBytes(StandardCharsets.US_ASCII)))
            return Verdict.BAD_SIGNATURE;
        synchronized (seen) {
            if (!seen.add(received)) return Verdict.REPLAYED;
            if (seen.size() > HISTORY) seen.removeFirst();
        }
        return Verdict.OK;
    }
}
