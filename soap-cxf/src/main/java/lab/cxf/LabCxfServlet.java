package lab.cxf;

import java.io.IOException;
import javax.servlet.ServletConfig;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.cxf.jaxws.EndpointImpl;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;

/**
 * CXF's servlet (no Spring) publishing PlayerService and nothing else: every other path is a 404 (no
 * service list), GET serves only the WSDL (405 otherwise: calls are POSTed envelopes), and faults
 * are the contract's ({@link ContractFaults}).
 */
public class LabCxfServlet extends CXFNonSpringServlet {
    private static final long serialVersionUID = 1L;
    private static final String SERVICE_PATH = "/PlayerService";

    @Override
    protected void loadBus(ServletConfig config) {
        super.loadBus(config);
        EndpointImpl endpoint = new EndpointImpl(getBus(), new PlayerServiceImpl());
        endpoint.getInInterceptors().add(new OperationNamespaceCheck());
        endpoint.getOutFaultInterceptors().add(new ContractFaults());
        endpoint.publish(SERVICE_PATH);
    }

    @Override
    protected void invoke(HttpServletRequest request, HttpServletResponse response) throws ServletException {
        try {
            if (!SERVICE_PATH.equals(request.getPathInfo())) {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            String method = request.getMethod();
            boolean wsdl = (method.equals("GET") || method.equals("HEAD"))
                && "wsdl".equalsIgnoreCase(request.getQueryString());
            if (!wsdl && !method.equals("POST")) {
                response.setHeader("Allow", "POST");
                response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
                return;
            }
        } catch (IOException e) {
            throw new ServletException(e);
        }
        super.invoke(request, response);
    }
}
