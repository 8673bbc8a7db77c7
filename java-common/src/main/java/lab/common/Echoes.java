package lab.common;

import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The rules of the SOAP papers' operations (contract/README.md, "Echo operations"), which read no
 * database: the caps on what is echoed, finite numbers only, and getQuote's fixed answer. Each Java
 * engine applies them to its own wire types.
 */
public final class Echoes {
    public static final int MAX_ITEMS = 16000;
    public static final int MAX_LIST_NODES = 64;
    /** Lublin's image: up to 1 MiB, past the paper's largest data set of a million variables. */
    public static final int MAX_IMAGE_BYTES = 1 << 20;
    private static final Pattern SYMBOL = Pattern.compile("[A-Z]{1,8}");
    private static final Pattern XML_WHITESPACE = Pattern.compile("[ \t\r\n]");

    /** getQuote's answer but the symbol, in the Quote type's order (a StockQuote-shaped reply). */
    private static final Object[][] QUOTE = {
        {"name", "International Business Machines"}, {"lastTradeTimestamp", "2008-06-23T16:00:00Z"},
        {"last", 89.5}, {"open", 88.25}, {"high", 90.75}, {"low", 87.5}, {"prevClose", 88.0}, {"change", 1.5},
        {"percentageChange", 1.625}, {"marketCap", 1.5e11}, {"peRatio", 24.75}, {"earnings", 3.5},
        {"volume", 8765432}};

    private static final Map<Class<?>, Map<String, Method>> SETTERS = new ConcurrentHashMap<>();

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

    /** An image's size in bytes, decoded: 1 to MAX_IMAGE_BYTES. */
    public static void checkImage(int bytes) throws InvalidRequest {
        if (bytes < 1 || bytes > MAX_IMAGE_BYTES) {
            throw new InvalidRequest(400, "image must be 1 to " + MAX_IMAGE_BYTES + " bytes");
        }
    }

    /**
     * An xs:base64Binary as the Schema reads it, where the engines' own decoders skip what is not base64:
     * IllegalArgumentException past a character outside base64 or a misplaced '='. Whitespace, which
     * the Schema allows anywhere, is taken out only when the text holds some.
     */
    public static byte[] base64Binary(String lexical) {
        try {
            return Base64.getDecoder().decode(lexical);
        } catch (IllegalArgumentException e) {
            return Base64.getDecoder().decode(XML_WHITESPACE.matcher(lexical).replaceAll(""));
        }
    }

    /** NaN and the infinities are valid xs:double, but PHP cannot write them back: refused everywhere. */
    public static void checkFinite(double number) throws InvalidRequest {
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            throw new InvalidRequest(400, "numbers must be finite");
        }
    }

    /**
     * getQuote's answer for a valid symbol as an engine's own Quote bean (whatever its generator):
     * each field set through the bean's setter of that name.
     */
    public static <T> T quote(Class<T> beanClass, String symbol) {
        try {
            T quote = beanClass.getDeclaredConstructor().newInstance();
            Map<String, Method> setters = SETTERS.computeIfAbsent(beanClass, Echoes::settersOf);
            setters.get("symbol").invoke(quote, symbol);
            for (Object[] field : QUOTE) {
                setters.get((String) field[0]).invoke(quote, field[1]);
            }
            return quote;
        } catch (ReflectiveOperationException | NullPointerException e) {
            throw new IllegalStateException(beanClass + " is not the contract's Quote", e);
        }
    }

    /** A bean's setters by property name: looked up once per bean class, not on every call. */
    private static Map<String, Method> settersOf(Class<?> beanClass) {
        try {
            Map<String, Method> setters = new HashMap<>();
            for (PropertyDescriptor property : Introspector.getBeanInfo(beanClass).getPropertyDescriptors()) {
                setters.put(property.getName(), property.getWriteMethod());
            }
            return setters;
        } catch (IntrospectionException e) {
            throw new IllegalStateException(beanClass + " is not a bean", e);
        }
    }

    public static void checkSymbol(String symbol) throws InvalidRequest {
        if (symbol == null || !SYMBOL.matcher(symbol).matches()) {
            throw new InvalidRequest(400, "symbol must be 1 to 8 capital letters");
        }
    }
}
