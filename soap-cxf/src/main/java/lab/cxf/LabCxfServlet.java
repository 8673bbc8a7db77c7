package lab.cxf;

import javax.servlet.ServletConfig;
import lab.common.Contract;
import lab.common.Phases;
import org.apache.cxf.jaxws.EndpointImpl;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;

/**
 * CXF's servlet (no Spring) publishing PlayerService, behind lab.common.SoapServiceOnly (web.xml),
 * which lets through only the service's POSTed envelopes and its WSDL; faults are the contract's
 * ({@link ContractFaults}).
 */
public class LabCxfServlet extends CXFNonSpringServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void loadBus(ServletConfig config) {
        super.loadBus(config);
        EndpointImpl endpoint = new EndpointImpl(getBus(), new PlayerServiceImpl());
        endpoint.getInInterceptors().add(new OperationNamespaceCheck());
        endpoint.getOutFaultInterceptors().add(new ContractFaults());
        if (Phases.ON) {
            endpoint.getInInterceptors().add(LogicClock.starts());
            endpoint.getInInterceptors().add(LogicClock.ends());
        }
        endpoint.publish(Contract.SERVICE_PATH);
    }
}
