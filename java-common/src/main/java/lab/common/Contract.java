package lab.common;

/**
 * The rules of contract/README.md: parameter validation, the engine-to-table map, the queries
 * (single, large, rows, and the two statements of update and updates) and the SOAP service's path and namespace. Every Java app goes through here,
 * so they cannot drift apart.
 */
public final class Contract {
    /** The SOAP service's path under each engine's servlet, and its operations' namespace. */
    public static final String SERVICE_PATH = "/PlayerService";
    public static final String NAMESPACE = "urn:lab";
    public static final String[] COLUMNS = {"id", "playerID", "nameFirst", "nameLast", "birthYear",
        "birthMonth", "birthDay", "weight", "height", "bats", "throws"};
    /** The update page's columns: the row's and its version, which only the write workloads show. */
    public static final String[] VERSIONED_COLUMNS = versioned();
    public static final int LARGE_FETCH_SIZE = 1000;
    private static final String SELECT = "SELECT " + String.join(", ", COLUMNS) + " FROM ";
    private static final int MAX_NAME_LENGTH = 64;
    /** The rows workload's largest count: the whole table, so no request can ask for more. */
    public static final int MAX_ROW_COUNT = 16000;
    /** The updates workload's most rows a request raises: TechEmpower's top level of its updates test. */
    public static final int MAX_UPDATES = 20;
    /** The largest request body a SOAP engine reads (PHP's post_max_size in the lab, 16 MB). */
    public static final long MAX_BODY_BYTES = 16L * 1024 * 1024;

    private Contract() {
    }

    private static String[] versioned() {
        String[] columns = java.util.Arrays.copyOf(COLUMNS, COLUMNS.length + 1);
        columns[COLUMNS.length] = "ver";
        return columns;
    }

    /** The update workload's write: one row's version raised by one. */
    public static String updateSql(String table) {
        return "UPDATE " + table + " SET ver = ver + 1 WHERE id = ?";
    }

    /** The update workload's read-back: the row with its version. */
    public static String versionedSingleSql(String table) {
        return "SELECT " + String.join(", ", VERSIONED_COLUMNS) + " FROM " + table + " WHERE id = ?";
    }

    public static String singleSql(String table) {
        return SELECT + table + " WHERE id = ?";
    }

    public static String largeSql(String table) {
        return SELECT + table + " WHERE nameLast LIKE ? ORDER BY id";
    }

    public static String rowsSql(String table) {
        return SELECT + table + " ORDER BY id LIMIT ?";
    }

    /** The one value of a parameter, null when absent; repeating a parameter is refused. */
    public static String single(String name, String[] values) throws InvalidRequest {
        if (values == null || values.length == 0) {
            return null;
        }
        if (values.length > 1) {
            throw new InvalidRequest(400, "parameter " + name + " given more than once");
        }
        return values[0];
    }

    public static int playerId(String id) throws InvalidRequest {
        if (id == null || !id.matches("[1-9][0-9]{0,9}") || Long.parseLong(id) > Integer.MAX_VALUE) {
            throw new InvalidRequest(400, "id must be an integer from 1 to 2147483647");
        }
        return Integer.parseInt(id);
    }

    public static int rowCount(String count) throws InvalidRequest {
        if (count == null || !count.matches("[1-9][0-9]{0,4}") || Integer.parseInt(count) > MAX_ROW_COUNT) {
            throw new InvalidRequest(400, "count must be an integer from 1 to " + MAX_ROW_COUNT);
        }
        return Integer.parseInt(count);
    }

    public static int updateCount(String queries) throws InvalidRequest {
        if (queries == null || !queries.matches("[1-9][0-9]?") || Integer.parseInt(queries) > MAX_UPDATES) {
            throw new InvalidRequest(400, "queries must be an integer from 1 to " + MAX_UPDATES);
        }
        return Integer.parseInt(queries);
    }

    /** The fixed table for an engine name (myisam when absent); the name never reaches SQL. */
    public static String table(String engine) throws InvalidRequest {
        if (engine == null || engine.equals("myisam")) {
            return "people_myisam";
        }
        if (engine.equals("innodb")) {
            return "people_innodb";
        }
        throw new InvalidRequest(400, "engine must be myisam or innodb");
    }

    /** What is wrong with a SOAP operation element's namespace (null when it is the contract's). */
    public static String operationNamespaceProblem(String namespace) {
        return NAMESPACE.equals(namespace) ? null : "operation must be in namespace " + NAMESPACE;
    }

    /** A LIKE pattern ('%' when absent): at most 64 characters of text, no control characters. */
    public static String namePattern(String name) throws InvalidRequest {
        if (name == null) {
            return "%";
        }
        boolean text = name.codePointCount(0, name.length()) <= MAX_NAME_LENGTH
            && name.codePoints().noneMatch(c -> c < 0x20 || c == 0x7f || c == 0xfffd);
        if (!text) {
            throw new InvalidRequest(400, "name must be at most 64 characters of text");
        }
        return name;
    }
}
