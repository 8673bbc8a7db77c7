package lab.soap;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import lab.common.Database;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;
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
        Player[] found = players(() -> PlayerQuery.single(id, engine));
        return found.length == 0 ? null : found[0];
    }

    /** Every player whose last name matches the LIKE pattern, in id order. */
    public Player[] findPlayers(String name, String engine) throws AxisFault {
        return players(() -> PlayerQuery.large(name, engine));
    }

    /** A query validated, then run on a new connection; refusals and outages become faults. */
    private static Player[] players(QueryFactory factory) throws AxisFault {
        try {
            PlayerQuery query = factory.query();
            List<Player> players = new ArrayList<Player>();
            query.run(DATABASE::connect, rows -> players.add(Player.from(rows)));
            return players.toArray(new Player[0]);
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        } catch (SQLException e) {
            throw databaseFault(e);
        }
    }

    @FunctionalInterface
    private interface QueryFactory {
        PlayerQuery query() throws InvalidRequest;
    }

    private static AxisFault databaseFault(SQLException e) {
        LOG.warning("database error: " + e.getMessage());
        return Faults.fault(Faults.SERVER, "database unavailable");
    }
}
