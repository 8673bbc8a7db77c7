package lab.soap;

import java.sql.SQLException;
import java.util.logging.Logger;
import lab.common.Database;
import lab.common.Echoes;
import lab.common.InvalidRequest;
import lab.common.PlayerQuery;
import lab.common.VersionUpdate;
import org.apache.axis.AxisFault;

/**
 * The SOAP face of the contract: getPlayer (single), findPlayers (large), firstPlayers (rows) and
 * updatePlayer (update), a new connection per call. Parameters arrive as text and go through the same validation as the HTML
 * apps; refusals are Client faults with the contract's message and no details. The SOAP papers'
 * operations (the echoes and getQuote) read no database, under the rules of lab.common.Echoes.
 */
public class PlayerService {
    private static final Logger LOG = Logger.getLogger(PlayerService.class.getName());
    private static final Database DATABASE = Database.fromConfig();

    /** The player with this id, or null (an xsi:nil result) when there is none. */
    public Player getPlayer(String id, String engine) throws AxisFault {
        try {
            Player[] found = players(PlayerQuery.single(id, engine));
            return found.length == 0 ? null : found[0];
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    /** Every player whose last name matches the LIKE pattern, in id order. */
    public Player[] findPlayers(String name, String engine) throws AxisFault {
        try {
            return players(PlayerQuery.large(name, engine));
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    /** The first count players by id (the payload workload). */
    public Player[] firstPlayers(String count, String engine) throws AxisFault {
        try {
            return players(PlayerQuery.rows(count, engine));
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    /**
     * The player with this id after its version was raised by one, or null when there is none (and
     * nothing was written). Never retried: a call that fails may or may not have written.
     */
    public VersionedPlayer updatePlayer(String id, String engine) throws AxisFault {
        VersionedPlayer.Collector collector = new VersionedPlayer.Collector();
        try {
            VersionUpdate.of(id, engine).run(DATABASE, collector);
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        } catch (SQLException e) {
            throw databaseFault(e);
        }
        return collector.player();
    }

    public Item[] echoStructs(Item[] item) throws AxisFault {
        try {
            Echoes.checkItems(item == null ? 0 : item.length);
            for (Item each : item) {
                if (each == null || !Item.isComplete(each.getVarInt(), each.getVarFloat(), each.getVarString())) {
                    throw Faults.fault(Faults.CLIENT, Faults.MALFORMED);
                }
                Echoes.checkFinite(each.getVarFloat());
            }
            return item;
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    public Employee[] echoEmployees(Employee[] item) throws AxisFault {
        try {
            Echoes.checkItems(item == null ? 0 : item.length);
            for (Employee each : item) {
                if (each == null || !each.isComplete()) {
                    throw Faults.fault(Faults.CLIENT, Faults.MALFORMED);
                }
                Echoes.checkFinite(each.getSalary());
            }
            return item;
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    public ListNode echoList(ListNode list) throws AxisFault {
        try {
            int nodes = 0;
            for (ListNode node = list; node != null && nodes <= Echoes.MAX_LIST_NODES; node = node.getNext()) {
                nodes++;
                if (!Item.isComplete(node.getVarInt(), node.getVarFloat(), node.getVarString())) {
                    throw Faults.fault(Faults.CLIENT, Faults.MALFORMED);
                }
                Echoes.checkFinite(node.getVarFloat());
            }
            Echoes.checkListNodes(nodes);
            return list;
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    public int[] echoInts(int[] item) throws AxisFault {
        checkItems(item == null ? 0 : item.length);
        return item;
    }

    public double[] echoDoubles(double[] item) throws AxisFault {
        checkItems(item == null ? 0 : item.length);
        try {
            for (double each : item) {
                Echoes.checkFinite(each);
            }
            return item;
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    public String[] echoStrings(String[] item) throws AxisFault {
        checkItems(item == null ? 0 : item.length);
        return item;
    }

    public byte[] echoImage(byte[] image) throws AxisFault {
        try {
            Echoes.checkImage(image == null ? 0 : image.length);
            return image;
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    /** Lublin's VOID: nothing in, nothing out. */
    public void echoVoid() {
    }

    public Quote getQuote(String symbol) throws AxisFault {
        try {
            Echoes.checkSymbol(symbol);
            return Echoes.quote(Quote.class, symbol);
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    private static void checkItems(int count) throws AxisFault {
        try {
            Echoes.checkItems(count);
        } catch (InvalidRequest e) {
            throw Faults.fault(Faults.CLIENT, e.getMessage());
        }
    }

    // No lambdas or method references in this class: Axis 1.4 reads its bytecode for parameter
    // names and fails on the constant-pool entries they compile to (invokedynamic).
    private static Player[] players(PlayerQuery query) throws AxisFault {
        Player.Collector collector = new Player.Collector();
        try {
            query.run(DATABASE, collector);
        } catch (SQLException e) {
            throw databaseFault(e);
        }
        return collector.players();
    }

    private static AxisFault databaseFault(SQLException e) {
        LOG.warning("database error: " + e.getMessage());
        return Faults.fault(Faults.SERVER, "database unavailable");
    }
}
