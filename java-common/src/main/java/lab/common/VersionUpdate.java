package lab.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The update workload, its parameters validated: one row's version raised by one in autocommit (one
 * statement committed alone, as TechEmpower's updates ran each), then the row read back with its
 * version on the same connection. Never retried: a request that fails may or may not have written.
 */
public final class VersionUpdate {
    private final String table;
    private final int id;

    private VersionUpdate(String table, int id) {
        this.table = table;
        this.id = id;
    }

    /** Checks the id, then the engine, as the single-row query does. */
    public static VersionUpdate of(String id, String engine) throws InvalidRequest {
        int playerId = Contract.playerId(id);
        return new VersionUpdate(Contract.table(engine), playerId);
    }

    /** Raises the version and hands the row over; 0 when no row has the id (nothing was written). */
    public <E extends Exception> int run(PlayerQuery.ConnectionSource source, PlayerQuery.RowHandler<E> handler)
            throws SQLException, E {
        try (Connection connection = source.connect()) {
            try (PreparedStatement update = connection.prepareStatement(Contract.updateSql(table))) {
                update.setInt(1, id);
                if (update.executeUpdate() == 0) {
                    return 0;
                }
            }
            try (PreparedStatement select = connection.prepareStatement(Contract.versionedSingleSql(table))) {
                select.setInt(1, id);
                int count = 0;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        handler.row(rows);
                        count++;
                    }
                }
                return count;
            }
        }
    }
}
