package brokkr.experiment;

import java.nio.file.Path;

/**
 * Where an experiment's store is: an experiment directory, whose store is the embedded SQLite file
 * {@code DIR/experiment.db} (the default, needing nothing installed), or a schema of a PostgreSQL database
 * ({@link PostgresLocation}: {@code postgresql://HOST[:PORT]/DB[?schema=S]}), which holds exactly what one
 * experiment directory's file holds (same tables, views, content ids and resume semantics) and which many
 * machines reach at once. Every command that takes a DIR takes such a URL in its place ({@link #parse}).
 */
public sealed interface StoreLocation permits StoreLocation.Directory, PostgresLocation {
    /** An experiment directory: its store is {@code dir/experiment.db}. */
    record Directory(Path dir) implements StoreLocation {
        @Override
        public String display() {
            return dir.toString();
        }
    }

    /** What to print for this store: the directory, or the URL (which never carries a password). */
    String display();

    /**
     * {@code arg} as a store that must hold an experiment: a directory without {@code experiment.db}, a malformed URL
     * or one carrying a password is an IllegalArgumentException naming it (a PostgreSQL store is checked when it is
     * opened: unreachable, refused credentials, no store in the schema, another schema version).
     */
    static StoreLocation existing(String arg) {
        StoreLocation loc = parse(arg);
        if (loc instanceof Directory d && !java.nio.file.Files.isRegularFile(ExperimentStore.file(d.dir())))
            throw new IllegalArgumentException(d.dir() + " holds no experiment (no " + ExperimentStore.FILE + ")");
        return loc;
    }

    /** A directory's store. */
    static StoreLocation of(Path dir) {
        return new Directory(dir);
    }

    /**
     * {@code arg} as a store: a PostgreSQL URL ({@code postgresql://} or {@code postgres://}; one carrying a
     * password is refused, see {@link PostgresLocation#parse}), else a directory. IllegalArgumentException for a
     * malformed URL.
     */
    static StoreLocation parse(String arg) {
        if (PostgresLocation.isUrl(arg)) return PostgresLocation.parse(arg);
        return new Directory(Path.of(arg));
    }
}
