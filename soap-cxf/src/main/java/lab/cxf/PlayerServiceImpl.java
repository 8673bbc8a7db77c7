package lab.cxf;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.logging.Logger;
import javax.jws.WebService;
import lab.common.Contract;
import lab.common.Database;
import lab.common.Echoes;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;
import lab.common.VersionUpdate;
import lab.cxf.wire.Employee;
import lab.cxf.wire.Item;
import lab.cxf.wire.ListNode;
import lab.cxf.wire.Player;
import lab.cxf.wire.PlayerService;
import lab.cxf.wire.Quote;
import lab.cxf.wire.VersionedPlayer;

/**
 * The contract's operations behind the interface wsdl2java generated from contract/PlayerService.wsdl:
 * a new connection per call (as the Axis 1.4 app), the Java apps' validation, queries and update; the echo
 * operations and getQuote under the rules of lab.common.Echoes; refusals are Client faults with the
 * contract's message.
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

    /** The row after its version was raised by one; null (nothing written) when no row has the id. */
    @Override
    public VersionedPlayer updatePlayer(String id, String engine) {
        VersionedPlayer[] updated = new VersionedPlayer[1];
        try {
            VersionUpdate.of(id, engine).run(database, row -> {
                updated[0] = fill(new VersionedPlayer(), row);
                updated[0].setVer(row.getInt(Contract.VERSIONED_COLUMNS.length));
            });
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        } catch (SQLException e) {
            throw databaseUnavailable(e);
        }
        return updated[0];
    }

    @Override
    public List<Item> echoStructs(List<Item> items) {
        return echoed(items, item -> {
            if (item.getVarInt() == null || item.getVarFloat() == null || item.getVarString() == null) {
                throw ContractFaults.client(ContractFaults.MALFORMED); // JAXB leaves a missing field unset
            }
            Echoes.checkFinite(item.getVarFloat());
        });
    }

    @Override
    public List<Employee> echoEmployees(List<Employee> items) {
        return echoed(items, item -> {
            if (item.getId() == null || item.getAge() == null || item.getSalary() == null || item.isFullTime() == null
                || item.getFirstName() == null || item.getLastName() == null || item.getEmail() == null
                || item.getDepartment() == null || item.getTitle() == null) {
                throw ContractFaults.client(ContractFaults.MALFORMED); // JAXB leaves a missing field unset
            }
            Echoes.checkFinite(item.getSalary());
        });
    }

    @Override
    public ListNode echoList(ListNode list) {
        try {
            int nodes = 0;
            for (ListNode node = list; node != null && nodes <= Echoes.MAX_LIST_NODES; node = node.getNext()) {
                nodes++;
                if (node.getVarInt() == null || node.getVarFloat() == null || node.getVarString() == null) {
                    throw ContractFaults.client(ContractFaults.MALFORMED);
                }
                Echoes.checkFinite(node.getVarFloat());
            }
            Echoes.checkListNodes(nodes);
            return list;
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        }
    }

    @Override
    public List<Integer> echoInts(List<Integer> items) {
        return echoed(items, item -> { });
    }

    @Override
    public List<Double> echoDoubles(List<Double> items) {
        return echoed(items, Echoes::checkFinite);
    }

    @Override
    public List<String> echoStrings(List<String> items) {
        return echoed(items, item -> { });
    }

    @Override
    public byte[] echoImage(byte[] image) {
        try {
            Echoes.checkImage(image == null ? 0 : image.length);
            return image;
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        }
    }

    @Override
    public void echoVoid() {
    }

    @Override
    public Quote getQuote(String symbol) {
        try {
            Echoes.checkSymbol(symbol);
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        }
        return Echoes.quote(Quote.class, symbol);
    }

    /** A check on each item. */
    private interface ItemCheck<T> {
        void check(T item) throws InvalidRequest;
    }

    private static <T> List<T> echoed(List<T> items, ItemCheck<T> check) {
        try {
            Echoes.checkItems(items.size());
            for (T item : items) {
                check.check(item);
            }
            return items;
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        }
    }

    private List<Player> players(PlayerQuery.Maker query) {
        try {
            return query.make().collect(database, PlayerServiceImpl::player);
        } catch (InvalidRequest e) {
            throw ContractFaults.client(e.getMessage());
        } catch (SQLException e) {
            throw databaseUnavailable(e);
        }
    }

    private static ContractFaults.ContractFault databaseUnavailable(SQLException e) {
        LOG.warning("database error: " + e.getMessage());
        return ContractFaults.server("database unavailable");
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
        player.setThrows(row.getString(11));
        return player;
    }
}
