package lab.axis2;

import java.util.logging.Logger;
import javax.xml.namespace.QName;
import org.apache.axis2.AxisFault;

/**
 * A fault the contract defines: raised by the service or the namespace check, unchecked so that it
 * passes through the generated skeleton. {@link #contractFault} turns any fault into the one the
 * contract sends: its own as it is, Axis2's (not XML, a DTD, an unknown operation, an empty body)
 * as the Client fault "malformed SOAP request", without details.
 */
public final class ContractFault extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ContractFault.class.getName());
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private final String code;

    private ContractFault(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    static ContractFault client(String message) {
        return new ContractFault("Client", message);
    }

    static ContractFault server(String message) {
        return new ContractFault("Server", message);
    }

    AxisFault asAxisFault() {
        return new AxisFault(new QName(SOAP11, code), getMessage(), this);
    }

    static AxisFault contractFault(AxisFault fault) {
        for (Throwable cause = fault; cause != null; cause = cause.getCause()) {
            if (cause instanceof ContractFault) {
                return new AxisFault(new QName(SOAP11, ((ContractFault) cause).code), cause.getMessage(), (Throwable) null);
            }
        }
        LOG.warning("refused as malformed: " + fault.getMessage());
        return new AxisFault(new QName(SOAP11, "Client"), "malformed SOAP request", (Throwable) null);
    }
}
