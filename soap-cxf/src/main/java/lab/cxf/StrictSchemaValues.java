package lab.cxf;

import javax.xml.bind.DatatypeConverter;
import javax.xml.bind.annotation.adapters.XmlAdapter;
import lab.common.Echoes;

/** The contract's simple types as the schema reads them, where JAXB's own parsers are lenient. */
public final class StrictSchemaValues {
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

    /** An xs:base64Binary, read by the Java engines' one strict decoder (lab.common.Echoes). */
    public static final class Base64Binary extends XmlAdapter<String, byte[]> {
        @Override
        public byte[] unmarshal(String lexical) {
            return Echoes.base64Binary(lexical);
        }

        @Override
        public String marshal(byte[] bytes) {
            return DatatypeConverter.printBase64Binary(bytes);
        }
    }
}
