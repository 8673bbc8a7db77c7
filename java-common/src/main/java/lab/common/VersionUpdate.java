package lab.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The write workloads, their parameters validated: each row's version raised by one in autocommit
 * (one statement committed alone, as TechEmpower's updates ran each; its rules allow a transaction of
 * one read and one write at most), then the row read back with its version on the same connection.
 * update names one row; updates draws distinct random ones. Never retried: a request that fails may
 * or may not have written.
 */
public final class VersionUpdate {
    private final String table;
    private final int[] ids;

    private VersionUpdate(String table, int[] ids) {
        this.table = table;
        this.ids = ids;
    }

    /** The update workload's row: checks the id, then the engine, as the single-row query does. */
    public static VersionUpdate of(String id, String engine) throws InvalidRequest {
        int playerId = Contract.playerId(id);
        return new VersionUpdate(Contract.table(engine), new int[] {playerId});
    }

    /** The updates workload's rows: checks the count, then the engine, and draws that many distinct ids. */
    public static VersionUpdate drawn(String queries, String engine) throws InvalidRequest {
        int count = Contract.updateCount(queries);
        String table = Contract.table(engine);
        return new VersionUpdate(table,
            ThreadLocalRandom.current().ints(1, Contract.MAX_ROW_COUNT + 1).distinct().limit(count).toArray());
    }

    /**
     * Raises each row's version and hands the row over, in the order drawn; returns the rows handed
     * (a row no id has is skipped, and nothing was written for it).
     */
    public <E extends Exception> int run(PlayerQuery.ConnectionSource source, PlayerQuery.RowHandler<E> handler)
            throws SQLException, E {
        int count = 0;
        try (Connection connection = source.connect();
             PreparedStatement update = connection.prepareStatement(Contract.updateSql(table));
             PreparedStatement select = connection.prepareStatement(Contract.versionedSingleSql(table))) {
            for (int id : ids) {
                update.setInt(1, id);
                if (update.executeUpdate() == 0) {
                    continue;
                }
                select.setInt(1, id);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        handler.row(rows);
                        count++;
                    }
                }
            }
        }
        return count;
    }
}
