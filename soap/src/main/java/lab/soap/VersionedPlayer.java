package lab.soap;

import java.sql.ResultSet;
import java.sql.SQLException;
import lab.common.Contract;
import lab.common.PlayerQuery;
import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/**
 * A row after its update: the Player's columns, then its version. Axis writes a subclass's type as an
 * extension of its parent's, with the parent's elements first, so the wire carries the columns in
 * table order and ver last, as the HTML update page does.
 */
public class VersionedPlayer extends Player {
    private int ver;

    private static final TypeDesc TYPE_DESC = BeanTypes.describe(VersionedPlayer.class, "VersionedPlayer",
        new Object[][] {{"ver", Constants.XSD_INT}});

    public VersionedPlayer() {
    }

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    public int getVer() { return ver; }
    public void setVer(int ver) { this.ver = ver; }

    /** The row the update's SELECT read back: the contract's columns, then ver. */
    static final class Collector implements PlayerQuery.RowHandler<RuntimeException> {
        private VersionedPlayer player;

        @Override
        public void row(ResultSet row) throws SQLException {
            player = new VersionedPlayer();
            player.fill(row);
            player.ver = row.getInt(Contract.VERSIONED_COLUMNS.length);
        }

        /** The row read back, or null when no row has the id (and nothing was written). */
        VersionedPlayer player() {
            return player;
        }
    }
}
