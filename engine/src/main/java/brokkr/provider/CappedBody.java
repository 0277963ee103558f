package brokkr.provider;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read as UTF-8 text up to a cap. A body over the cap (by its {@code Content-Length},
 * or as it arrives) is not read further: the subscription is cancelled, which closes the connection,
 * and the body is {@link Body#overCap()}. The JDK's {@code ofString} would buffer whatever the server
 * sends (a runaway 100 MB body was held, stored three times and lost cells to the heap).
 */
final class CappedBody implements HttpResponse.BodySubscriber<CappedBody.Body> {
    /** The text (null when over the cap) and whether the cap was passed. */
    record Body(String text, boolean overCap) {}

    private final long cap;
    private final boolean declaredOverCap;
    private final ByteArrayOutputStream buf;
    private final CompletableFuture<Body> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private long seen;

    private CappedBody(long cap, OptionalLong declared) {
        this.cap = cap;
        this.declaredOverCap = declared.isPresent() && declared.getAsLong() > cap;
        this.buf = new ByteArrayOutputStream((int) Math.min(cap, declared.orElse(8192)));
    }

    static HttpResponse.BodyHandler<Body> handler(long cap) {
        return info -> new CappedBody(cap, info.headers().firstValueAsLong("content-length"));
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declaredOverCap) {
            s.cancel();
            result.complete(new Body(null, true));
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) return;
        for (ByteBuffer b : items) {
            seen += b.remaining();
            if (seen > cap) {
                subscription.cancel();
                result.complete(new Body(null, true));
                return;
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            buf.writeBytes(chunk);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        if (!result.isDone()) result.complete(new Body(buf.toString(StandardCharsets.UTF_8), false));
    }

    @Override
    public CompletionStage<Body> getBody() {
        return result;
    }
}
