package lab.soap;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import lab.common.Contract;
import lab.common.PlayerQuery;
import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/** One row of the people table as Axis serializes it: the contract's columns, as bean properties. */
public class Player {
    private int id;
    private String playerID;
    private String nameFirst;
    private String nameLast;
    private int birthYear;
    private int birthMonth;
    private int birthDay;
    private int weight;
    private int height;
    private String bats;
    private String throwsHand;

    /** Axis's bean metadata, so the fields go on the wire (and in the WSDL) in table order. */
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Player.class, "Player", columns());

    private static Object[][] columns() {
        Object[][] fields = new Object[Contract.COLUMNS.length][];
        for (int i = 0; i < fields.length; i++) {
            String column = Contract.COLUMNS[i];
            boolean text = column.equals("playerID") || column.startsWith("name")
                || column.equals("bats") || column.equals("throws");
            fields[i] = new Object[] {column, text ? Constants.XSD_STRING : Constants.XSD_INT};
        }
        return fields;
    }

    public Player() {
    }

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    static Player from(ResultSet row) throws SQLException {
        Player player = new Player();
        player.fill(row);
        return player;
    }

    /** Takes the contract's columns from the row, in table order. */
    final void fill(ResultSet row) throws SQLException {
        id = row.getInt(1);
        playerID = row.getString(2);
        nameFirst = row.getString(3);
        nameLast = row.getString(4);
        birthYear = row.getInt(5);
        birthMonth = row.getInt(6);
        birthDay = row.getInt(7);
        weight = row.getInt(8);
        height = row.getInt(9);
        bats = row.getString(10);
        throwsHand = row.getString(11);
    }

    public int getId() { return id; }
    public void setId(int id) { this.id = id; }
    public String getPlayerID() { return playerID; }
    public void setPlayerID(String playerID) { this.playerID = playerID; }
    public String getNameFirst() { return nameFirst; }
    public void setNameFirst(String nameFirst) { this.nameFirst = nameFirst; }
    public String getNameLast() { return nameLast; }
    public void setNameLast(String nameLast) { this.nameLast = nameLast; }
    public int getBirthYear() { return birthYear; }
    public void setBirthYear(int birthYear) { this.birthYear = birthYear; }
    public int getBirthMonth() { return birthMonth; }
    public void setBirthMonth(int birthMonth) { this.birthMonth = birthMonth; }
    public int getBirthDay() { return birthDay; }
    public void setBirthDay(int birthDay) { this.birthDay = birthDay; }
    public int getWeight() { return weight; }
    public void setWeight(int weight) { this.weight = weight; }
    public int getHeight() { return height; }
    public void setHeight(int height) { this.height = height; }
    public String getBats() { return bats; }
    public void setBats(String bats) { this.bats = bats; }
    public String getThrows() { return throwsHand; }
    public void setThrows(String throwsHand) { this.throwsHand = throwsHand; }

    /** Collects the rows of a query as players, in order. */
    static final class Collector implements PlayerQuery.RowHandler<RuntimeException> {
        private final List<Player> players = new ArrayList<Player>();

        @Override
        public void row(ResultSet row) throws SQLException {
            players.add(from(row));
        }

        Player[] players() {
            return players.toArray(new Player[0]);
        }
    }
}
