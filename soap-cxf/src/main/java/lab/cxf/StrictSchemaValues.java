package lab.cxf;

import java.util.Base64;
import java.util.regex.Pattern;
import javax.xml.bind.DatatypeConverter;
import javax.xml.bind.annotation.adapters.XmlAdapter;

/** The contract's simple types as the schema reads them, where JAXB's own parsers are lenient. */
public final class StrictSchemaValues {
    private static final Pattern XML_WHITESPACE = Pattern.compile("[ \t\r\n]");

    private StrictSchemaValues() {
    }

    /** An xs:int; NumberFormatException (a malformed request) past its range or not a number (JAXB wraps around). */
    public static int parseInt(String lexical) {
        String trimmed = lexical.trim();
        return Integer.parseInt(trimmed.startsWith("+") ? trimmed.substring(1) : trimmed);
    }

    /** An xs:boolean: true, false, 1 or 0; IllegalArgumentException otherwise (JAXB reads "maybe" as false). */
    public static boolean parseBoolean(String lexical) {
        switch (lexical.trim()) {
            case "true":
            case "1":
                return true;
            case "false":
            case "0":
                return false;
            default:
                throw new IllegalArgumentException("not an xs:boolean");
        }
    }

    /**
     * An xs:base64Binary: IllegalArgumentException past a character outside base64 or a misplaced '='.
     * Whitespace, which the Schema allows anywhere, is taken out only when the text holds some.
     */
    public static final class Base64Binary extends XmlAdapter<String, byte[]> {
        @Override
        public byte[] unmarshal(String lexical) {
            try {
                return Base64.getDecoder().decode(lexical);
            } catch (IllegalArgumentException e) {
                return Base64.getDecoder().decode(XML_WHITESPACE.matcher(lexical).replaceAll(""));
            }
        }

        @Override
        public String marshal(byte[] bytes) {
            return DatatypeConverter.printBase64Binary(bytes);
        }
    }
}
