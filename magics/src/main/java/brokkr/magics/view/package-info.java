/**
 * What a magic shows: values that render themselves ({@link brokkr.magics.view.Rich}: runs, tasks, forks,
 * transcripts, tool-call outcomes, world diffs; {@link brokkr.magics.view.Figure}: a chart with its tables) and
 * Tablesaw tables as the CLI formats them ({@link brokkr.magics.view.Tables}, {@link brokkr.magics.view.TablesawTables},
 * {@link brokkr.magics.view.ExperimentTables}). Depends on no session and no magic.
 */
package brokkr.magics.view;
