package lab.soap;

import java.util.logging.Logger;
import javax.servlet.ServletException;
import org.apache.axis.AxisFault;
import org.apache.axis.MessageContext;
import org.apache.axis.description.JavaServiceDesc;
import org.apache.axis.handlers.soap.SOAPService;
import org.apache.axis.server.AxisServer;
import org.apache.axis.transport.http.AxisServlet;

/**
 * AxisServlet behind lab.common.SoapServiceOnly (web.xml), which lets through only PlayerService's
 * POSTed envelopes and its WSDL (no service list, no AdminService or Version page, no ?method=
 * invocation); faults leave without the hostname and stack-trace details Axis adds. A request Axis
 * itself cannot read (malformed XML, an unknown operation) is the caller's fault: a Client fault
 * with a short message, and Axis's own reason goes to the log. At start, Axis's shared operation
 * lists are made safe for concurrent requests ({@link OperationListsFix}).
 */
public class LabAxisServlet extends AxisServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(LabAxisServlet.class.getName());

    @Override
    public void init() throws ServletException {
        super.init();
        try {
            AxisServer engine = getEngine();
            SOAPService service = engine.getService("PlayerService");
            OperationListsFix.apply((JavaServiceDesc) service.getInitializedServiceDesc(new MessageContext(engine)));
        } catch (AxisFault | ReflectiveOperationException e) {
            throw new ServletException("cannot prepare PlayerService", e);
        }
    }

    @Override
    protected void processAxisFault(AxisFault fault) {
        super.processAxisFault(fault);
        fault.clearFaultDetails();
        boolean ours = Faults.CLIENT.equals(fault.getFaultCode()) || Faults.SERVER.equals(fault.getFaultCode());
        if (!ours) {
            LOG.warning("refused as malformed: " + fault.getFaultString());
            fault.setFaultCode(Faults.CLIENT);
            fault.setFaultString(Faults.MALFORMED);
        }
    }
}
