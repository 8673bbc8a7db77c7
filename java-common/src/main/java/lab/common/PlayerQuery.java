package lab.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One of the contract's queries (single, large, rows), its parameters validated: the one place
 * where the apps connect, prepare and execute. The apps differ only in where the connection comes
 * from and in what they make of the rows.
 */
public final class PlayerQuery {
    /** Where a connection comes from: a new one per request, or a pool. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection connect() throws SQLException;
    }

    /** Receives each result row, in id order. */
    @FunctionalInterface
    public interface RowHandler<E extends Exception> {
        void row(ResultSet row) throws SQLException, E;
    }

    /** Makes a query from a request's parameters, validating them (the SOAP engines' operations). */
    @FunctionalInterface
    public interface Maker {
        PlayerQuery make() throws InvalidRequest;
    }

    /** Turns a result row into an engine's own type of player. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private final String sql;
    private final Object parameter;
    private final boolean streamed;

    private PlayerQuery(String sql, Object parameter, boolean streamed) {
        this.sql = sql;
        this.parameter = parameter;
        this.streamed = streamed;
    }

    /** The single-row query; checks the id, then the engine. */
    public static PlayerQuery single(String id, String engine) throws InvalidRequest {
        int playerId = Contract.playerId(id);
        return new PlayerQuery(Contract.singleSql(Contract.table(engine)), playerId, false);
    }

    /** The LIKE query on the last name; checks the name, then the engine. */
    public static PlayerQuery large(String name, String engine) throws InvalidRequest {
        String pattern = Contract.namePattern(name);
        return new PlayerQuery(Contract.largeSql(Contract.table(engine)), pattern, true);
    }

    /** The first rows by id (the payload workload); checks the count, then the engine. */
    public static PlayerQuery rows(String count, String engine) throws InvalidRequest {
        int rowCount = Contract.rowCount(count);
        return new PlayerQuery(Contract.rowsSql(Contract.table(engine)), rowCount, true);
    }

    /** Runs the query and maps every row, in id order. */
    public <T> List<T> collect(ConnectionSource source, RowMapper<T> mapper) throws SQLException {
        List<T> rows = new ArrayList<>();
        run(source, row -> rows.add(mapper.map(row)));
        return rows;
    }

    /** Runs the query on a connection from the source and hands every row over; the row count. */
    public <E extends Exception> int run(ConnectionSource source, RowHandler<E> handler) throws SQLException, E {
        try (Connection connection = source.connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, parameter);
            if (streamed) {
                // Stream rows from the server in batches instead of holding up to 16,000 in memory.
                statement.setFetchSize(Contract.LARGE_FETCH_SIZE);
            }
            int count = 0;
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    handler.row(rows);
                    count++;
                }
            }
            return count;
        }
    }
}
