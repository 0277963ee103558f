package brokkr.experiment;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the fleet needs of the PostgreSQL experiment store besides its own queue tables: refusing a
 * store of another schema version, and writing one attempt's rows (its long texts and the attempt) in
 * the caller's transaction, exactly as the store's own writer does.
 */
interface FleetStore {
    /** Fails with a message when the store's schema is not the one this Brokkr writes. */
    void checkSchema(FleetDb db);

    /** The store's model-call cache, shared by every worker of the store. */
    ModelCache openCache();

    /** Inserts the attempts and their blobs on {@code c}, inside the record's transaction (no commit). */
    void writeAttempts(Connection c, List<ExperimentStore.Prepared> batch) throws SQLException;
}
