/**
 * OpenTelemetry GenAI traces of a run ({@link brokkr.telemetry.GenAiTrace}): the spans are made through
 * the OpenTelemetry API alone; which SDK and exporter receive them is the entry point's choice (the
 * kernel's {@code --otel}), and without one they cost nothing.
 */
package brokkr.telemetry;
