package brokkr.domains.tau2.runner;

import static brokkr.domains.tau2.runner.Tau2Benchmark.AGENT_STOP_TOKEN;
import static brokkr.domains.tau2.runner.Tau2Benchmark.ENFORCE_COMMUNICATION_PROTOCOL;
import static brokkr.domains.tau2.runner.Tau2Benchmark.MAX_ERRORS;
import static brokkr.domains.tau2.runner.Tau2Benchmark.MAX_STEPS;
import static brokkr.domains.tau2.runner.Tau2Benchmark.RUN_SEED;

import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.Value;

/**
 * A tau2 environment's options (named on {@link Tau2Benchmark}): upstream's orchestrator defaults, the
 * check of given options, and their reading as the orchestrator's settings.
 */
final class Tau2Options {
    private Tau2Options() {}

    /** Upstream's orchestrator defaults, the options of every EnvironmentDef that sets none. */
    private static final PyDict DEFAULTS = PyDict.builder()
            .put(MAX_STEPS, EpisodeOptions.DEFAULT.maxSteps())
            .put(MAX_ERRORS, EpisodeOptions.DEFAULT.maxErrors())
            .put(ENFORCE_COMMUNICATION_PROTOCOL, PyBool.of(EpisodeOptions.DEFAULT.enforceCommunicationProtocol()))
            .put(RUN_SEED, TrialSeeds.DEFAULT_RUN_SEED)
            .build();

    /** The given options over upstream's defaults, checked; {@value Tau2Benchmark#AGENT_STOP_TOKEN} only when true. */
    static PyDict of(PyDict given) {
        PyDict o = DEFAULTS;
        for (var e : given.entries()) {
            String k = e.getKey();
            Value v = e.getValue();
            switch (k) {
                case MAX_STEPS, MAX_ERRORS -> {
                    if (!(v instanceof PyInt i) || i.longValue() < 1 || i.longValue() > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("option " + k + " must be an integer of at least 1");
                    }
                    o = o.with(k, v);
                }
                case RUN_SEED -> {
                    if (!(v instanceof PyInt i) || i.value().bitLength() > 63)
                        throw new IllegalArgumentException("option " + k + " must be an integer");
                    o = o.with(k, v);
                }
                case ENFORCE_COMMUNICATION_PROTOCOL -> o = o.with(k, flag(k, v));
                case AGENT_STOP_TOKEN -> o = flag(k, v).value() ? o.with(k, PyBool.TRUE) : o.without(k);
                default ->
                    throw new IllegalArgumentException("unknown option '" + k + "' (known: "
                            + String.join(
                                    ", ",
                                    MAX_STEPS,
                                    MAX_ERRORS,
                                    ENFORCE_COMMUNICATION_PROTOCOL,
                                    RUN_SEED,
                                    AGENT_STOP_TOKEN)
                            + ")");
            }
        }
        return o;
    }

    private static PyBool flag(String k, Value v) {
        if (v instanceof PyBool b) return b;
        throw new IllegalArgumentException("option " + k + " must be true or false");
    }

    /** The orchestrator's settings of checked options. */
    static EpisodeOptions episodeOptions(PyDict o) {
        return new EpisodeOptions(
                (int) num(o.get(MAX_STEPS)),
                (int) num(o.get(MAX_ERRORS)),
                ((PyBool) o.get(ENFORCE_COMMUNICATION_PROTOCOL)).value());
    }

    static boolean agentStopToken(PyDict o) {
        return o.get(AGENT_STOP_TOKEN) instanceof PyBool b && b.value();
    }

    static long runSeed(PyDict o) {
        return num(o.get(RUN_SEED));
    }

    private static long num(Value v) {
        return ((PyInt) v).longValue();
    }
}
