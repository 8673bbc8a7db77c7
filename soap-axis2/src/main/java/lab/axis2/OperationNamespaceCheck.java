package lab.axis2;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Refuses an operation element outside urn:lab with the contract's own message, before dispatch
 * (Axis2 alone answers it as an unknown operation). In axis2.xml's PreDispatch phase.
 */
public class OperationNamespaceCheck extends AbstractHandler {
    static final String NAMESPACE = "urn:lab";

    @Override
    public InvocationResponse invoke(MessageContext context) throws AxisFault {
        OMElement operation = context.getEnvelope().getBody().getFirstElement();
        OMNamespace namespace = operation == null ? null : operation.getNamespace();
        if (operation != null && (namespace == null || !NAMESPACE.equals(namespace.getNamespaceURI()))) {
            throw ContractFault.client("operation must be in namespace " + NAMESPACE).asAxisFault();
        }
        return InvocationResponse.CONTINUE;
    }
}
