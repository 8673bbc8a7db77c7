package lab.pooled;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import lab.common.Database;
import lab.common.PlayersServlet;

/**
 * Borrows connections from a fixed-size HikariCP pool. When every connection is busy a request waits
 * at most pool.timeoutMs and then gets a 503, never hangs.
 */
public class PooledServlet extends PlayersServlet {
    private static final long serialVersionUID = 1L;
    private transient HikariDataSource pool;
    private transient PoolWaitLog waitLog;

    @Override
    public void init() {
        Database database = Database.fromConfig();
        HikariConfig config = new HikariConfig();
        config.setPoolName("lab");
        config.setDriverClassName(database.driverClassName());
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.user());
        config.setPassword(database.password());
        // HikariCP recommends a fixed-size pool: minimumIdle = maximumPoolSize.
        config.setMaximumPoolSize(database.poolSize());
        config.setMinimumIdle(database.poolSize());
        config.setConnectionTimeout(database.poolTimeoutMs());
        // Start even while the database is down; requests get 503 until it is back.
        config.setInitializationFailTimeout(-1);
        pool = new HikariDataSource(config);
        if (database.poolWaitLog() != null) {
            waitLog = new PoolWaitLog(pool.getHikariPoolMXBean(), Paths.get(database.poolWaitLog()));
            waitLog.start();
        }
    }

    @Override
    public void destroy() {
        if (waitLog != null) {
            waitLog.stop();
        }
        pool.close();
    }

    @Override
    protected Connection connection() throws SQLException {
        return pool.getConnection();
    }
}
