package lab.cxf;

import java.util.logging.Logger;
import javax.xml.namespace.QName;
import org.apache.cxf.binding.soap.SoapFault;
import org.apache.cxf.binding.soap.SoapMessage;
import org.apache.cxf.binding.soap.interceptor.AbstractSoapInterceptor;
import org.apache.cxf.phase.Phase;

/**
 * The only faults the service sends: the contract's, raised by the service or the namespace check
 * ({@link ContractFault}), leave as they are; any other (CXF's own: not XML, a DTD, an unknown
 * operation, an empty body) becomes the contract's Client fault "malformed SOAP request", its own
 * reason going to the log. No fault carries details.
 */
public class ContractFaults extends AbstractSoapInterceptor {
    private static final Logger LOG = Logger.getLogger(ContractFaults.class.getName());
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    static final String MALFORMED = "malformed SOAP request";

    /** A fault the contract defines, so that it can be told from CXF's own. */
    static final class ContractFault extends SoapFault {
        private static final long serialVersionUID = 1L;

        ContractFault(String code, String message) {
            super(message, new QName(SOAP11, code));
        }
    }

    public ContractFaults() {
        super(Phase.PRE_LOGICAL);
    }

    static ContractFault client(String message) {
        return new ContractFault("Client", message);
    }

    static ContractFault server(String message) {
        return new ContractFault("Server", message);
    }

    @Override
    public void handleMessage(SoapMessage message) {
        Exception fault = message.getContent(Exception.class);
        ContractFault ours = contractFault(fault);
        if (ours == null) {
            LOG.warning("refused as malformed: " + (fault == null ? "no fault" : fault.getMessage()));
            ours = client(MALFORMED);
        }
        message.setContent(Exception.class, ours);
    }

    private static ContractFault contractFault(Throwable fault) {
        for (Throwable cause = fault; cause != null; cause = cause.getCause()) {
            if (cause instanceof ContractFault) {
                return (ContractFault) cause;
            }
        }
        return null;
    }
}
