package lab.axis2;

import lab.common.Contract;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Refuses an operation element outside the contract's namespace with the contract's own message, before dispatch
 * (Axis2 alone answers it as an unknown operation). In axis2.xml's PreDispatch phase.
 */
public class OperationNamespaceCheck extends AbstractHandler {
    @Override
    public InvocationResponse invoke(MessageContext context) throws AxisFault {
        OMElement operation = context.getEnvelope().getBody().getFirstElement();
        OMNamespace namespace = operation == null ? null : operation.getNamespace();
        String problem = operation == null ? null
            : Contract.operationNamespaceProblem(namespace == null ? null : namespace.getNamespaceURI());
        if (problem != null) {
            throw ContractFault.client(problem).asAxisFault();
        }
        return InvocationResponse.CONTINUE;
    }
}
