package lab.cxf;

/** An xs:int as the schema reads it: JAXB's own parser wraps a number past the range around. */
public final class XsInt {
    private XsInt() {
    }

    /** The value; NumberFormatException (a malformed request) past xs:int's range or not a number. */
    public static int parse(String lexical) {
        String trimmed = lexical.trim();
        return Integer.parseInt(trimmed.startsWith("+") ? trimmed.substring(1) : trimmed);
    }
}
