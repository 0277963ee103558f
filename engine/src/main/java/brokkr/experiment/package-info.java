/**
 * Experiments: {@link brokkr.experiment.Planner} turns an {@link brokkr.experiment.ExperimentSpec}
 * (from JSON or YAML), a command's preset or a magic's arguments into a {@code brokkr.run.Plan} (the
 * one place names become cells and model references are resolved and checked);
 * {@link brokkr.experiment.Experiments#run} runs an experiment's plan through the one
 * {@code brokkr.run.Runner} into a directory's SQLite store ({@link brokkr.experiment.StoreSink}),
 * written through {@link brokkr.experiment.ExperimentStore} and read through
 * {@link brokkr.experiment.ExperimentQuery}; a {@link brokkr.experiment.ProgressListener} hears of each
 * committed attempt and a {@code brokkr.run.Cancellation} stops a run half-way. Re-running resumes (completed cells are skipped, infrastructure failures retried
 * up to a limit, changed definitions are new cells). {@link brokkr.experiment.Scorecard} computes
 * average reward and upstream tau2's pass^k ({@link brokkr.experiment.PassHatK}) with per-task and
 * per-check breakdowns and what an episode costs each candidate ({@link brokkr.experiment.EpisodeCost}:
 * tokens, model steps, tool calls, request characters), as plain data, with standard errors and
 * intervals from {@code brokkr.stats};
 * {@link brokkr.experiment.Comparison} pairs two candidates (of one store or two) task by task;
 * {@link brokkr.experiment.Inspect} lists attempts, prints
 * transcripts, and replays a record's world. Benchmarks and model providers plug in through
 * {@link brokkr.experiment.Registry} ({@code ServiceLoader}). Tables, text and progress bars are drawn
 * where they are shown ({@code brokkr.magics}, the CLI).
 *
 * <p>The store's guarantees (crash safety, no cell lost, read-only inspection, damaged and vanished
 * files, long texts stored once through {@link brokkr.experiment.EvidenceCodec}) are listed with their
 * tests in the repository's {@code RELIABILITY.md}.
 *
 * <p>One experiment per directory: running a different spec in the same directory makes its cells the
 * current ones (earlier cells and attempts stay in the store, inactive).
 */
package brokkr.experiment;
