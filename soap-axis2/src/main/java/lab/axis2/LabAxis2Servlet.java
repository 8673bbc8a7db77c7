package lab.axis2;

import java.io.IOException;
import java.io.OutputStream;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * AxisServlet serving PlayerService and nothing else: every other path is a 404 (no service list),
 * GET serves only the WSDL (no REST invocation: 405), and every fault leaves as the contract's
 * ({@link ContractFault}).
 */
public class LabAxis2Servlet extends AxisServlet {
    private static final long serialVersionUID = 1L;
    private static final String SERVICE_PATH = "/PlayerService";
    // Axis2 writes the service's address into the WSDL it serves with a trailing slash.
    private static final String SERVICE_PATH_AS_PUBLISHED = SERVICE_PATH + "/";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!isService(request, response)) {
            return;
        }
        if ("wsdl".equalsIgnoreCase(request.getQueryString())) {
            super.doGet(request, response);
        } else {
            notAllowed(response);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (isService(request, response)) {
            super.doPost(request, response);
        }
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        notAllowed(response);
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        notAllowed(response);
    }

    @Override
    protected void handleFault(MessageContext context, OutputStream out, AxisFault fault) throws AxisFault {
        super.handleFault(context, out, ContractFault.contractFault(fault));
    }

    private static boolean isService(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        if (SERVICE_PATH.equals(path) || SERVICE_PATH_AS_PUBLISHED.equals(path)) {
            return true;
        }
        response.sendError(HttpServletResponse.SC_NOT_FOUND);
        return false;
    }

    private static void notAllowed(HttpServletResponse response) throws IOException {
        response.setHeader("Allow", "POST");
        response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
    }
}
