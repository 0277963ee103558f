/**
 * tau2-bench's retail domain, benchmark {@code tau2-retail}, transcribed from upstream's
 * {@code src/tau2/domains/retail/}: the data model ({@code RetailModel}, data_model.py: {@code RetailDB.model_validate}
 * then {@code model_dump}), the 16 agent tools ({@link brokkr.domains.tau2.retail.RetailTools}, tools.py, with
 * their docstrings in {@code RetailToolDocs}) and the environment ({@link brokkr.domains.tau2.retail.RetailDomain},
 * environment.py: the pinned DB, policy, tasks, splits and prompts). Tools run on raw keyword arguments with
 * CPython's semantics and write through a {@code brokkr.tool.WorldCell} where the Python code mutates, so a call
 * that raises half way keeps what it wrote, as upstream does. Users have no tools.
 * {@link brokkr.domains.tau2.retail.RetailBenchmark} puts the domain on the shared tau2 runner.
 */
package brokkr.domains.tau2.retail;
