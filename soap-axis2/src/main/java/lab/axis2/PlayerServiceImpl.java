package lab.axis2;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.logging.Logger;
import lab.axis2.wire.EchoDoubles;
import lab.axis2.wire.EchoEmployees;
import lab.axis2.wire.EchoEmployeesResponse;
import lab.axis2.wire.EchoDoublesResponse;
import javax.activation.DataHandler;
import lab.axis2.wire.EchoImage;
import lab.axis2.wire.EchoImageResponse;
import lab.axis2.wire.EchoInts;
import lab.axis2.wire.EchoVoid;
import lab.axis2.wire.EchoVoidResponse;
import lab.axis2.wire.EchoIntsResponse;
import lab.axis2.wire.EchoList;
import lab.axis2.wire.EchoListResponse;
import lab.axis2.wire.EchoStrings;
import lab.axis2.wire.EchoStringsResponse;
import lab.axis2.wire.EchoStructs;
import lab.axis2.wire.EchoStructsResponse;
import lab.axis2.wire.Employee;
import lab.axis2.wire.FindPlayers;
import lab.axis2.wire.FindPlayersResponse;
import lab.axis2.wire.FirstPlayers;
import lab.axis2.wire.FirstPlayersResponse;
import lab.axis2.wire.GetPlayer;
import lab.axis2.wire.GetPlayerResponse;
import lab.axis2.wire.GetQuote;
import lab.axis2.wire.GetQuoteResponse;
import lab.axis2.wire.Item;
import lab.axis2.wire.ListNode;
import lab.axis2.wire.Player;
import lab.axis2.wire.PlayerServiceSkeletonInterface;
import lab.axis2.wire.Quote;
import lab.axis2.wire.UpdatePlayer;
import lab.axis2.wire.UpdatePlayerResponse;
import lab.axis2.wire.VersionedPlayer;
import lab.common.Contract;
import lab.common.Database;
import lab.common.Echoes;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;
import lab.common.VersionUpdate;

/**
 * The contract's operations behind the skeleton wsdl2code generated from contract/PlayerService.wsdl
 * (ADB types): a new connection per call (as the Axis 1.4 app), the Java apps' validation, queries
 * and update; the echo operations and getQuote under the rules of lab.common.Echoes; refusals are Client
 * faults with the contract's message.
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

    /** The row after its version was raised by one; a nil result (nothing written) when no row has the id. */
    @Override
    public UpdatePlayerResponse updatePlayer(UpdatePlayer request) {
        UpdatePlayerResponse response = new UpdatePlayerResponse();
        try {
            VersionUpdate.of(request.getId(), request.getEngine()).run(DATABASE, row -> {
                VersionedPlayer player = fill(new VersionedPlayer(), row);
                player.setVer(row.getInt(Contract.VERSIONED_COLUMNS.length));
                response.setUpdatePlayerReturn(player);
            });
        } catch (InvalidRequest e) {
            throw ContractFault.client(e.getMessage());
        } catch (SQLException e) {
            throw databaseUnavailable(e);
        }
        return response;
    }

    @Override
    public EchoStructsResponse echoStructs(EchoStructs request) {
        Item[] items = request.getItem();
        refusing(() -> {
            Echoes.checkItems(items == null ? 0 : items.length);
            for (Item item : items) {
                Echoes.checkFinite(item.getVarFloat());
            }
        });
        EchoStructsResponse response = new EchoStructsResponse();
        response.setEchoStructsReturn(items);
        return response;
    }

    @Override
    public EchoEmployeesResponse echoEmployees(EchoEmployees request) {
        Employee[] items = request.getItem();
        refusing(() -> {
            Echoes.checkItems(items == null ? 0 : items.length);
            for (Employee item : items) {
                Echoes.checkFinite(item.getSalary());
            }
        });
        EchoEmployeesResponse response = new EchoEmployeesResponse();
        response.setEchoEmployeesReturn(items);
        return response;
    }

    @Override
    public EchoListResponse echoList(EchoList request) {
        ListNode list = request.getList();
        refusing(() -> {
            int nodes = 0;
            for (ListNode node = list; node != null && nodes <= Echoes.MAX_LIST_NODES; node = node.getNext()) {
                nodes++;
                Echoes.checkFinite(node.getVarFloat());
            }
            Echoes.checkListNodes(nodes);
        });
        EchoListResponse response = new EchoListResponse();
        response.setEchoListReturn(list);
        return response;
    }

    @Override
    public EchoIntsResponse echoInts(EchoInts request) {
        int[] items = request.getItem();
        refusing(() -> Echoes.checkItems(items == null ? 0 : items.length));
        EchoIntsResponse response = new EchoIntsResponse();
        response.setEchoIntsReturn(items);
        return response;
    }

    @Override
    public EchoDoublesResponse echoDoubles(EchoDoubles request) {
        double[] items = request.getItem();
        refusing(() -> {
            Echoes.checkItems(items == null ? 0 : items.length);
            for (double item : items) {
                Echoes.checkFinite(item);
            }
        });
        EchoDoublesResponse response = new EchoDoublesResponse();
        response.setEchoDoublesReturn(items);
        return response;
    }

    @Override
    public EchoStringsResponse echoStrings(EchoStrings request) {
        String[] items = request.getItem();
        refusing(() -> Echoes.checkItems(items == null ? 0 : items.length));
        EchoStringsResponse response = new EchoStringsResponse();
        response.setEchoStringsReturn(items);
        return response;
    }

    @Override
    public EchoImageResponse echoImage(EchoImage request) {
        DataHandler image = request.getImage();
        refusing(() -> Echoes.checkImage(image == null ? 0 : bytesOf(image)));
        EchoImageResponse response = new EchoImageResponse();
        response.setEchoImageReturn(image);
        return response;
    }

    @Override
    public EchoVoidResponse echoVoid(EchoVoid request) {
        return new EchoVoidResponse();
    }

    @Override
    public GetQuoteResponse getQuote(GetQuote request) {
        refusing(() -> Echoes.checkSymbol(request.getSymbol()));
        GetQuoteResponse response = new GetQuoteResponse();
        response.setGetQuoteReturn(Echoes.quote(Quote.class, request.getSymbol()));
        return response;
    }

    /** The contract's checks of a request. */
    private interface Checks {
        void run() throws InvalidRequest;
    }

    private static void refusing(Checks checks) {
        try {
            checks.run();
        } catch (InvalidRequest e) {
            throw ContractFault.client(e.getMessage());
        }
    }

    /** The decoded image's size: ADB hands over the bytes behind a DataHandler, which says no length. */
    private static int bytesOf(DataHandler image) {
        try (InputStream bytes = image.getInputStream()) {
            return (int) Math.min(Integer.MAX_VALUE, bytes.transferTo(OutputStream.nullOutputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Player[] players(PlayerQuery.Maker query) {
        try {
            return query.make().collect(DATABASE, PlayerServiceImpl::player).toArray(new Player[0]);
        } catch (InvalidRequest e) {
            throw ContractFault.client(e.getMessage());
        } catch (SQLException e) {
            throw databaseUnavailable(e);
        }
    }

    private static ContractFault databaseUnavailable(SQLException e) {
        LOG.warning("database error: " + e.getMessage());
        return ContractFault.server("database unavailable");
    }

    private static Player player(ResultSet row) throws SQLException {
        return fill(new Player(), row);
    }

    /** The contract's columns of the row into a Player (or a VersionedPlayer, its extension). */
    private static <P extends Player> P fill(P player, ResultSet row) throws SQLException {
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
