package lab.cxf;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.logging.Logger;
import javax.jws.WebService;
import lab.common.Database;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;
import lab.cxf.wire.Player;
import lab.cxf.wire.PlayerService;

/**
 * The contract's operations behind the interface wsdl2java generated from contract/PlayerService.wsdl:
 * a new connection per call (as the Axis 1.4 app), the Java apps' validation and queries; refusals are
 * Client faults with the contract's message.
 */
@WebService(endpointInterface = "lab.cxf.wire.PlayerService", targetNamespace = "urn:lab",
    serviceName = "PlayerService", portName = "PlayerService",
    wsdlLocation = "classpath:wsdl/PlayerService.wsdl")
public class PlayerServiceImpl implements PlayerService {
    private static final Logger LOG = Logger.getLogger(PlayerServiceImpl.class.getName());
    private final Database database = Database.fromConfig();

    @Override
    public Player getPlayer(String id, String engine) {
        List<Player> found = players(() -> PlayerQuery.single(id, engine));
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public List<Player> findPlayers(String name, String engine) {
        return players(() -> PlayerQuery.large(name, engine));
    }

    @Override
    public List<Player> firstPlayers(String count, String engine) {
        return players(() -> PlayerQuery.rows(count, engine));
    }

    private List<Player> players(PlayerQuery.Maker query) {
        try {
            return query.make().collect(database, PlayerServiceImpl::player);
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        } catch (SQLException e) {
            LOG.warning("database error: " + e.getMessage());
            throw ContractFaults.server("database unavailable");
        }
    }

    private static Player player(ResultSet row) throws SQLException {
        Player player = new Player();
        player.setId(row.getInt(1));
        player.setPlayerID(row.getString(2));
        player.setNameFirst(row.getString(3));
        player.setNameLast(row.getString(4));
        player.setBirthYear(row.getInt(5));
        player.setBirthMonth(row.getInt(6));
        player.setBirthDay(row.getInt(7));
        player.setWeight(row.getInt(8));
        player.setHeight(row.getInt(9));
        player.setBats(row.getString(10));
        player.setThrows(row.getString(11));
        return player;
    }
}
