package lab.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The database settings all apps share, read from the file named by the system property
 * {@code lab.config} (written by `make up` into var/secrets/), and plain DriverManager connections.
 */
public final class Database implements PlayerQuery.ConnectionSource {
    private static final String DRIVER = "org.mariadb.jdbc.Driver";
    private final Properties settings;

    private Database(Properties settings) {
        this.settings = settings;
    }

    public static Database fromConfig() {
        String path = System.getProperty("lab.config");
        if (path == null) {
            throw new IllegalStateException("system property lab.config is not set");
        }
        Properties settings = new Properties();
        try (InputStream in = Files.newInputStream(Paths.get(path))) {
            settings.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read lab.config " + path, e);
        }
        try {
            // Tomcat's DriverManager does not discover drivers in WEB-INF/lib by itself.
            Class.forName(DRIVER);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(DRIVER + " is not on the classpath", e);
        }
        return new Database(settings);
    }

    public String driverClassName() {
        return DRIVER;
    }

    /** A db.url setting wins (e.g. to point at a MySQL server); else MariaDB on host and port. */
    public String jdbcUrl() {
        String url = settings.getProperty("db.url");
        if (url != null) {
            return url;
        }
        return "jdbc:mariadb://" + settings.getProperty("db.host") + ":" + settings.getProperty("db.port")
            + "/" + settings.getProperty("db.name") + "?connectTimeout=5000&socketTimeout=60000";
    }

    public String user() {
        return settings.getProperty("db.user");
    }

    public String password() {
        return settings.getProperty("db.password");
    }

    public int poolSize() {
        return Integer.parseInt(settings.getProperty("pool.size", "5"));
    }

    /**
     * Where a pool logs the seconds in which requests waited for it: the JVM's own (system property
     * lab.poolWaitLog, one per Tomcat when each app has its own); null: nowhere.
     */
    public String poolWaitLog() {
        return System.getProperty("lab.poolWaitLog");
    }

    public long poolTimeoutMs() {
        return Long.parseLong(settings.getProperty("pool.timeoutMs", "5000"));
    }

    /** A new connection, as the plain servlet and the SOAP service open for every request. */
    @Override
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user(), password());
    }
}
