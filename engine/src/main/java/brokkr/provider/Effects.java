package brokkr.provider;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The side effects a provider needs besides its HTTP client: the wall clock (call timestamps, HTTP-date
 * {@code Retry-After}), sleeping between attempts and the jitter source. Tests inject a fixed clock, a
 * recording sleeper and a fixed jitter so no test sleeps for real.
 */
public record Effects(InstantSource clock, Sleeper sleeper, DoubleSupplier jitter) {

    /** Waits between attempts; blocking is fine on a virtual thread. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    public static Effects system() {
        return new Effects(
                InstantSource.system(),
                d -> Thread.sleep(d),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /** A client for {@code timeout} connects; redirects are not followed (a redirect is an error to see). */
    public static HttpClient httpClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }
}
