package lab.soap;

import javax.xml.namespace.QName;
import org.apache.axis.AxisFault;
import org.apache.axis.Constants;

/** The only two faults the service sends: Client (the caller's input) and Server (the database). */
final class Faults {
    static final QName CLIENT = new QName(Constants.URI_SOAP11_ENV, "Client");
    static final QName SERVER = new QName(Constants.URI_SOAP11_ENV, "Server");
    /** What a request the service cannot read is told. */
    static final String MALFORMED = "malformed SOAP request";

    private Faults() {
    }

    /** A fault with the message only: no hostname or stack-trace details. */
    static AxisFault fault(QName code, String message) {
        AxisFault fault = new AxisFault(code, message, null, null);
        fault.clearFaultDetails();
        return fault;
    }
}
