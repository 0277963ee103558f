/**
 * Where upstream data lives and how to get it. {@link brokkr.data.DataDirs} is the one rule every benchmark
 * uses to find its data directory (a system property, else an environment variable, else {@code shared/...}
 * beside the project, looked for upwards from the installation and the working directory);
 * {@link brokkr.data.UpstreamData} describes a family's source (git repository, the commit the transcription was
 * proven against, every file it reads with its pinned sha256), and {@link brokkr.data.DataFetch} fetches exactly
 * those files with git for {@code ./brokkr data fetch} and reports each as verified, different or missing.
 * The families supply their {@code UpstreamData}; this package names none of them.
 */
package brokkr.data;
