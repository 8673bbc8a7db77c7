package lab.axis2;

import java.io.OutputStream;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * Axis2's AxisServlet behind lab.common.SoapServiceOnly (web.xml), which lets through only
 * PlayerService's POSTed envelopes and its WSDL (no service list, no REST invocation); every fault
 * leaves as the contract's ({@link ContractFault}).
 */
public class LabAxis2Servlet extends AxisServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void handleFault(MessageContext context, OutputStream out, AxisFault fault) throws AxisFault {
        super.handleFault(context, out, ContractFault.contractFault(fault));
    }
}
