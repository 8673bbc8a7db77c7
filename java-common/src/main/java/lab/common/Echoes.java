package lab.common;

import java.util.regex.Pattern;

/**
 * The rules of the SOAP papers' operations (contract/README.md, "Echo operations"), which read no
 * database: the caps on what is echoed, finite numbers only, and getQuote's fixed answer. Each Java
 * engine applies them to its own wire types.
 */
public final class Echoes {
    public static final int MAX_ITEMS = 16000;
    public static final int MAX_LIST_NODES = 64;
    private static final Pattern SYMBOL = Pattern.compile("[A-Z]{1,8}");

    /** getQuote's answer but the symbol, in the Quote type's order (a StockQuote-shaped reply). */
    public static final String QUOTE_NAME = "International Business Machines";
    public static final String QUOTE_TIMESTAMP = "2008-06-23T16:00:00Z";
    public static final double[] QUOTE_PRICES = {89.5, 88.25, 90.75, 87.5, 88.0, 1.5, 1.625, 1.5e11, 24.75, 3.5};
    public static final int QUOTE_VOLUME = 8765432;

    private Echoes() {
    }

    /** An echo's item count: 1 to MAX_ITEMS. */
    public static void checkItems(int count) throws InvalidRequest {
        if (count < 1 || count > MAX_ITEMS) {
            throw new InvalidRequest(400, "echo takes 1 to " + MAX_ITEMS + " items");
        }
    }

    /** A linked list's length (counted up to one past the cap): 1 to MAX_LIST_NODES. */
    public static void checkListNodes(int count) throws InvalidRequest {
        if (count < 1 || count > MAX_LIST_NODES) {
            throw new InvalidRequest(400, "list must have 1 to " + MAX_LIST_NODES + " nodes");
        }
    }

    /** NaN and the infinities are valid xs:double, but PHP cannot write them back: refused everywhere. */
    public static void checkFinite(double number) throws InvalidRequest {
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            throw new InvalidRequest(400, "numbers must be finite");
        }
    }

    public static void checkSymbol(String symbol) throws InvalidRequest {
        if (symbol == null || !SYMBOL.matcher(symbol).matches()) {
            throw new InvalidRequest(400, "symbol must be 1 to 8 capital letters");
        }
    }
}
