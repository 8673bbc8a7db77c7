package lab.soap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import lab.common.Contract;
import lab.common.Database;
import lab.common.InvalidRequest;
import org.apache.axis.AxisFault;

/**
 * The SOAP face of the contract: getPlayer (single) and findPlayers (large), a new connection per
 * call. Parameters arrive as text and go through the same validation as the HTML apps; refusals are
 * Client faults with the contract's message and no details.
 */
public class PlayerService {
    private static final Logger LOG = Logger.getLogger(PlayerService.class.getName());
    private static final Database DATABASE = Database.fromConfig();

    /** The player with this id, or null (an xsi:nil result) when there is none. */
    public Player getPlayer(String id, String engine) throws AxisFault {
        try {
            int playerId = Contract.playerId(id);
            String table = Contract.table(engine);
            try (Connection connection = DATABASE.connect();
                 PreparedStatement statement = connection.prepareStatement(Contract.singleSql(table))) {
                statement.setInt(1, playerId);
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next() ? Player.from(rows) : null;
                }
            }
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        } catch (SQLException e) {
            throw databaseFault(e);
        }
    }

    /** Every player whose last name matches the LIKE pattern, in id order. */
    public Player[] findPlayers(String name, String engine) throws AxisFault {
        try {
            String pattern = Contract.namePattern(name);
            String table = Contract.table(engine);
            try (Connection connection = DATABASE.connect();
                 PreparedStatement statement = connection.prepareStatement(Contract.largeSql(table))) {
                statement.setString(1, pattern);
                statement.setFetchSize(Contract.LARGE_FETCH_SIZE);
                List<Player> players = new ArrayList<Player>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        players.add(Player.from(rows));
                    }
                }
                return players.toArray(new Player[0]);
            }
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        } catch (SQLException e) {
            throw databaseFault(e);
        }
    }

    private static AxisFault databaseFault(SQLException e) {
        LOG.warning("database error: " + e.getMessage());
        return Faults.fault(Faults.SERVER, "database unavailable");
    }
}
