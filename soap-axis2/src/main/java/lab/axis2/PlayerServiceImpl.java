package lab.axis2;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.logging.Logger;
import lab.axis2.wire.FindPlayers;
import lab.axis2.wire.FindPlayersResponse;
import lab.axis2.wire.FirstPlayers;
import lab.axis2.wire.FirstPlayersResponse;
import lab.axis2.wire.GetPlayer;
import lab.axis2.wire.GetPlayerResponse;
import lab.axis2.wire.Player;
import lab.axis2.wire.PlayerServiceSkeletonInterface;
import lab.common.Database;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;

/**
 * The contract's operations behind the skeleton wsdl2code generated from contract/PlayerService.wsdl
 * (ADB types): a new connection per call (as the Axis 1.4 app), the Java apps' validation and
 * queries; refusals are Client faults with the contract's message.
 */
public class PlayerServiceImpl implements PlayerServiceSkeletonInterface {
    private static final Logger LOG = Logger.getLogger(PlayerServiceImpl.class.getName());
    private static final Database DATABASE = Database.fromConfig();

    @Override
    public GetPlayerResponse getPlayer(GetPlayer request) {
        Player[] found = players(() -> PlayerQuery.single(request.getId(), request.getEngine()));
        GetPlayerResponse response = new GetPlayerResponse();
        response.setGetPlayerReturn(found.length == 0 ? null : found[0]);
        return response;
    }

    @Override
    public FindPlayersResponse findPlayers(FindPlayers request) {
        FindPlayersResponse response = new FindPlayersResponse();
        response.setFindPlayersReturn(players(() -> PlayerQuery.large(request.getName(), request.getEngine())));
        return response;
    }

    @Override
    public FirstPlayersResponse firstPlayers(FirstPlayers request) {
        FirstPlayersResponse response = new FirstPlayersResponse();
        response.setFirstPlayersReturn(players(() -> PlayerQuery.rows(request.getCount(), request.getEngine())));
        return response;
    }

    private static Player[] players(PlayerQuery.Maker query) {
        try {
            return query.make().collect(DATABASE, PlayerServiceImpl::player).toArray(new Player[0]);
        } catch (InvalidRequest e) {
            throw ContractFault.client(e.getMessage());
        } catch (SQLException e) {
            LOG.warning("database error: " + e.getMessage());
            throw ContractFault.server("database unavailable");
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
        player.set_throws(row.getString(11));
        return player;
    }
}
