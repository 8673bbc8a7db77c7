package lab.soap;

import javax.xml.namespace.QName;
import lab.common.Echoes;
import org.apache.axis.encoding.ser.Base64Deserializer;
import org.apache.axis.encoding.ser.BaseDeserializerFactory;

/**
 * xs:base64Binary as the schema reads it: Axis's own decoder skips what is not base64 ("not*base64!"
 * became the bytes of "notbase6"); this one refuses it, and a misplaced '=', as a malformed request.
 */
public final class StrictBase64 {
    private StrictBase64() {
    }

    /** The deserializer Axis makes for each byte[] it reads (server-config.wsdd's typeMapping). */
    public static class Deserializer extends Base64Deserializer {
        public Deserializer(Class javaType, QName xmlType) {
            super(javaType, xmlType);
        }

        @Override
        public Object makeValue(String source) {
            return Echoes.base64Binary(source);
        }
    }

    public static class Factory extends BaseDeserializerFactory {
        public Factory(Class javaType, QName xmlType) {
            super(Deserializer.class, xmlType, javaType);
        }
    }
}
