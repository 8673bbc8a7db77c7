package lab.soap;

import org.apache.axis.AxisFault;
import org.apache.axis.MessageContext;
import org.apache.axis.handlers.BasicHandler;
import org.apache.axis.message.SOAPBodyElement;

/**
 * Refuses an operation element outside urn:lab. Axis's wrapped dispatch falls back to the local name
 * alone, so without this check {@code <x:getPlayer xmlns:x="urn:other">} would be served.
 */
public class OperationNamespaceCheck extends BasicHandler {
    private static final long serialVersionUID = 1L;
    static final String NAMESPACE = "urn:lab";

    @Override
    public void invoke(MessageContext context) throws AxisFault {
        SOAPBodyElement operation = context.getRequestMessage().getSOAPEnvelope().getFirstBody();
        if (operation != null && !NAMESPACE.equals(operation.getNamespaceURI())) {
            throw Faults.fault(Faults.CLIENT, "operation must be in namespace " + NAMESPACE);
        }
    }
}
