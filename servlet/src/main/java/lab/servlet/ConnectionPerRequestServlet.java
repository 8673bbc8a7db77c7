package lab.servlet;

import java.sql.Connection;
import java.sql.SQLException;
import lab.common.Database;
import lab.common.PlayersServlet;

/** Opens a new JDBC connection for every request and closes it: the architecture under test. */
public class ConnectionPerRequestServlet extends PlayersServlet {
    private static final long serialVersionUID = 1L;
    private transient Database database;

    @Override
    public void init() {
        database = Database.fromConfig();
    }

    @Override
    protected Connection connection() throws SQLException {
        return database.connect();
    }
}
