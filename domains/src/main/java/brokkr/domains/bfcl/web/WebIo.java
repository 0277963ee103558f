package brokkr.domains.bfcl.web;

import brokkr.python.PyObjects;

/**
 * Where a {@link WebSearchAPI} instance's IO goes: a {@link WebRecording} replayed ({@link Replay}), or the network
 * recorded as it is used ({@link Recording}, {@code ./brokkr bfcl record-web}). It travels in the task's
 * {@code initial_config} (a Python object of the executor's model, hence {@link PyObjects.Custom}).
 */
public sealed interface WebIo extends PyObjects.Custom {
    WebRecording.Outcome search(WebRecording.Query q);

    WebRecording.Outcome fetch(String url);

    /** The digest that names this IO in an environment's content id. */
    String sha256();

    @Override
    default String pyTypeName() {
        return "WebIo";
    }

    @Override
    default String pyRepr() {
        return "<web io " + sha256() + ">";
    }

    /** Replay: only what the recording holds; anything else an {@link brokkr.domains.bfcl.multiturn.IoFailure}. */
    record Replay(WebRecording recording) implements WebIo {
        @Override
        public WebRecording.Outcome search(WebRecording.Query q) {
            return recording.search(q);
        }

        @Override
        public WebRecording.Outcome fetch(String url) {
            return recording.fetch(url);
        }

        @Override
        public String sha256() {
            return recording.sha256();
        }
    }

    /** Live IO through {@code web}, every request and its outcome kept in {@code into} (the first outcome of each). */
    record Recording(WebRecording.Builder into, LiveWeb web) implements WebIo {
        @Override
        public WebRecording.Outcome search(WebRecording.Query q) {
            return into.search(q, () -> web.search(q));
        }

        @Override
        public WebRecording.Outcome fetch(String url) {
            return into.fetch(url, () -> web.fetch(url));
        }

        @Override
        public String sha256() {
            return "live";
        }
    }
}
