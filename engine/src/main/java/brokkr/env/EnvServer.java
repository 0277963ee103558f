package brokkr.env;

import brokkr.http.LoopbackHttp;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * An {@link Env} over HTTP, on {@link LoopbackHttp} (loopback unless asked otherwise, a bearer token on every
 * request, a virtual thread per request so many sessions step at once). JSON in and out:
 *
 * <ul>
 *   <li>{@code POST /reset {"task": ID, "seed": N}} → an observation with its {@code session}
 *   <li>{@code POST /step {"session": S, "action": MESSAGE}} → the next observation, reward, done, info
 *   <li>{@code POST /close {"session": S}} → {@code {"closed": true|false}}
 * </ul>
 *
 * Every refusal is a JSON {@code {"error": {"kind", "message"}}} with a 4xx status ({@link Observation.Kind}): a
 * body that is not JSON or too large, a malformed action, an unknown task or session, a session that ended or is
 * busy, the session cap. A request is never answered with a stack trace.
 */
public final class EnvServer implements AutoCloseable {
    /** The largest request body read (an action with long tool arguments fits many times over). */
    public static final int MAX_BODY_BYTES = 4 << 20;

    private final Env env;
    private final LoopbackHttp http;

    private EnvServer(Env env, LoopbackHttp http) {
        this.env = env;
        this.http = http;
    }

    /** Serves {@code env} at {@code options}; every request must carry {@code Authorization: Bearer TOKEN}. */
    public static EnvServer start(Env env, String token, LoopbackHttp.Options options) throws IOException {
        return new EnvServer(
                env, LoopbackHttp.start("env", new Api(env), token, options, LoopbackHttp.Threads.VIRTUAL));
    }

    /** {@code http://HOST:PORT}. */
    public URI url() {
        return http.base();
    }

    public Env env() {
        return env;
    }

    /** Stops serving (the environment itself stays open: its owner closes it). */
    @Override
    public void close() {
        http.close();
    }

    private static final class Api extends Handler.Abstract {
        private final Env env;

        Api(Env env) {
            this.env = env;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            int status;
            PyDict answer;
            try {
                if (!path.equals("/reset") && !path.equals("/step") && !path.equals("/close")) {
                    status = 404;
                    answer = refusal("not_found", "no endpoint " + path + " (POST /reset, /step, /close)");
                } else if (!request.getMethod().equals("POST")) {
                    status = 405;
                    answer = refusal("method_not_allowed", path + " takes POST, not " + request.getMethod());
                } else {
                    Value body = body(request);
                    if (!(body instanceof PyDict d)) {
                        status = 400;
                        answer = refusal("malformed", "the request body is a JSON object");
                    } else {
                        Observation o = switch (path) {
                            case "/reset" -> reset(d);
                            case "/step" -> env.step(string(d, "session"), d.get("action"));
                            default -> null;
                        };
                        if (o == null) {
                            status = 200;
                            answer = PyDict.of("closed", env.close(string(d, "session")));
                        } else {
                            status = o.isError() ? o.error().kind().httpStatus : 200;
                            answer = o.toValue();
                        }
                    }
                }
            } catch (Refused r) {
                status = r.status;
                answer = refusal(r.kind, r.getMessage());
            } catch (RuntimeException e) {
                // A fault of the environment's own, not of the request: said as JSON, the server serving on.
                status = 500;
                answer = refusal(
                        "internal", "the environment failed: " + e.getClass().getSimpleName());
            }
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(response, true, PyJson.dumps(answer) + "\n", callback);
            return true;
        }

        private Observation reset(PyDict d) {
            Value seed = d.get("seed");
            int trial = 0;
            if (seed != null && !seed.isNone()) {
                if (!(seed instanceof PyInt i) || i.longValue() < 0 || i.longValue() > Env.MAX_SEED)
                    throw new Refused(400, "malformed", "seed is an integer 0.." + Env.MAX_SEED);
                trial = (int) i.longValue();
            }
            return env.reset(string(d, "task"), trial);
        }

        private static String string(PyDict d, String key) {
            Value v = d.get(key);
            if (v == null || v.isNone()) return null;
            if (v instanceof PyStr s) return s.value();
            if (v instanceof PyInt i) return Long.toString(i.longValue()); // a task id given as a number
            throw new Refused(400, "malformed", key + " is a string");
        }

        private static Value body(Request request) {
            long declared = request.getLength();
            if (declared > MAX_BODY_BYTES) throw tooLarge();
            byte[] bytes;
            try (InputStream in = Request.asInputStream(request)) {
                bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            } catch (IOException e) {
                throw new Refused(400, "malformed", "the request body could not be read: " + e.getMessage());
            }
            if (bytes.length > MAX_BODY_BYTES) throw tooLarge();
            try {
                return Json.parse(new String(bytes, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                throw new Refused(400, "malformed", "the request body is not JSON: " + e.getMessage());
            }
        }

        private static Refused tooLarge() {
            return new Refused(413, "too_large", "the request body is over " + MAX_BODY_BYTES + " bytes");
        }

        private static PyDict refusal(String kind, String message) {
            return PyDict.of("error", PyDict.of("kind", kind, "message", message));
        }
    }

    /** A request refused before it reached the environment. */
    private static final class Refused extends RuntimeException {
        final int status;
        final String kind;

        Refused(int status, String kind, String message) {
            super(message, null, false, false);
            this.status = status;
            this.kind = kind;
        }
    }
}
