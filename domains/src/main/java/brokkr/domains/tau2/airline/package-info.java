/**
 * tau2-bench's airline domain, benchmark {@code tau2-airline}, transcribed from upstream's
 * {@code src/tau2/domains/airline/}: the pydantic models of data_model.py field for field ({@code AirlineModel}),
 * the 14 agent tools of tools.py ({@link brokkr.domains.tau2.airline.AirlineTools}, their docstrings and schema
 * types in {@code AirlineToolDocs}) and environment.py ({@link brokkr.domains.tau2.airline.AirlineDomain}: DB,
 * policy, tasks, splits, prompts). Tools validate only where upstream builds a pydantic model; everything else
 * follows CPython on the value as given. The pinned db.json is a documented reconstruction from tau-bench v1
 * (shared/upstream/tau2-bench/MANIFEST.md), so upstream's own file is refused. Users have no tools.
 * {@link brokkr.domains.tau2.airline.AirlineBenchmark} puts the domain on the shared tau2 runner.
 */
package brokkr.domains.tau2.airline;
