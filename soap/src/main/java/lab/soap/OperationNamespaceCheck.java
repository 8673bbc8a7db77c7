package lab.soap;

import lab.common.Contract;
import org.apache.axis.AxisFault;
import org.apache.axis.MessageContext;
import org.apache.axis.handlers.BasicHandler;
import org.apache.axis.message.SOAPBodyElement;

/**
 * Refuses an operation element outside the contract's namespace (Contract.NAMESPACE). Axis's wrapped dispatch falls back to the local name
 * alone, so without this check {@code <x:getPlayer xmlns:x="urn:other">} would be served.
 */
public class OperationNamespaceCheck extends BasicHandler {
    private static final long serialVersionUID = 1L;

    @Override
    public void invoke(MessageContext context) throws AxisFault {
        SOAPBodyElement operation = context.getRequestMessage().getSOAPEnvelope().getFirstBody();
        String problem = operation == null ? null : Contract.operationNamespaceProblem(operation.getNamespaceURI());
        if (problem != null) {
            throw Faults.fault(Faults.CLIENT, problem);
        }
    }
}
