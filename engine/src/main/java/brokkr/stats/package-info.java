/**
 * The statistics every scorecard and comparison reports, in one place and as pure functions over plain
 * numbers (no store, no UI): estimates over tasks with their standard errors and 95% intervals
 * ({@link brokkr.stats.Estimate}, {@link brokkr.stats.OverTasks}), Wilson-type intervals for rates
 * ({@link brokkr.stats.Wilson}), and paired comparisons of two candidates on the same tasks
 * ({@link brokkr.stats.Paired}: paired t, an exact or seeded Monte-Carlo sign-flip test, and the
 * minimum detectable effect). Student's t comes from Apache Commons Math ({@link brokkr.stats.Student}).
 *
 * <p>Tasks are the unit of every standard error: trials of one task share the task's difficulty, so
 * they are not independent draws (tau2's own users saw a third of tasks flip verdict between
 * identical runs); treating attempts as independent would understate the error by up to a factor
 * of the square root of the trials per task.
 */
package brokkr.stats;
