package lab.cxf;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import lab.common.Contract;
import org.apache.cxf.binding.soap.SoapMessage;
import org.apache.cxf.binding.soap.interceptor.AbstractSoapInterceptor;
import org.apache.cxf.phase.Phase;
import org.apache.cxf.wsdl.interceptors.DocLiteralInInterceptor;

/**
 * Refuses an operation element outside the contract's namespace with the contract's own message (CXF alone answers
 * it as an unknown operation), before the body is read into objects.
 */
public class OperationNamespaceCheck extends AbstractSoapInterceptor {
    public OperationNamespaceCheck() {
        super(Phase.UNMARSHAL);
        addBefore(DocLiteralInInterceptor.class.getName());
    }

    @Override
    public void handleMessage(SoapMessage message) {
        XMLStreamReader body = message.getContent(XMLStreamReader.class);
        String problem = body == null || body.getEventType() != XMLStreamConstants.START_ELEMENT
            ? null : Contract.operationNamespaceProblem(body.getNamespaceURI());
        if (problem != null) {
            throw ContractFaults.client(problem);
        }
    }
}
