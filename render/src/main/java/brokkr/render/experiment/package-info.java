/**
 * An experiment's numbers as tables: the scorecard, its statistics, tasks, checks, attempts and a
 * benchmark's own reports ({@link brokkr.render.experiment.ScorecardTables}), and a paired comparison of
 * two candidates ({@link brokkr.render.experiment.ComparisonTables}); what {@code ./brokkr experiment}
 * prints, {@code ./brokkr report} writes and the notebook's {@code %scorecard} and {@code %compare} show.
 */
package brokkr.render.experiment;
