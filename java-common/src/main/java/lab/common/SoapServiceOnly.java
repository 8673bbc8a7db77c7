package lab.common;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * In front of a SOAP engine's servlet (each SOAP app's web.xml): the service and nothing else. A
 * path other than the service's is a 404 (no service list, no engine pages), GET or HEAD serves only
 * its WSDL ({@code ?wsdl}), anything but a POSTed envelope is a 405, and a body declared past
 * {@link Contract#MAX_BODY_BYTES} is a Client fault. The init-param
 * {@code service-paths} lists the service's paths under the servlet, comma-separated (default
 * {@link Contract#SERVICE_PATH}).
 */
public class SoapServiceOnly implements Filter {
    /** A body declared past the contract's bound is refused before the engine reads a byte of it. */
    static final String TOO_LARGE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv="
        + "\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Client"
        + "</faultcode><faultstring>request body must be at most 16 MB</faultstring></soapenv:Fault></soapenv:Body>"
        + "</soapenv:Envelope>";

    private Set<String> servicePaths = Collections.singleton(Contract.SERVICE_PATH);

    @Override
    public void init(FilterConfig config) {
        String paths = config.getInitParameter("service-paths");
        if (paths != null) {
            servicePaths = new HashSet<>(Arrays.asList(paths.split(",")));
        }
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        if (request.getContentLengthLong() > Contract.MAX_BODY_BYTES) {
            response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR); // SOAP 1.1: faults travel with 500
            response.setContentType("text/xml; charset=utf-8");
            response.getWriter().write(TOO_LARGE);
            return;
        }
        int refused = refusal(servicePaths, request.getPathInfo(), request.getMethod(), request.getQueryString());
        if (refused == HttpServletResponse.SC_METHOD_NOT_ALLOWED) {
            response.setHeader("Allow", "POST");
        }
        if (refused != 0) {
            response.sendError(refused);
            return;
        }
        chain.doFilter(request, response);
    }

    /** The status a request is refused with, or 0 when it goes on to the engine. */
    static int refusal(Set<String> servicePaths, String path, String method, String query) {
        if (path == null || !servicePaths.contains(path)) {
            return HttpServletResponse.SC_NOT_FOUND;
        }
        boolean wsdl = ("GET".equals(method) || "HEAD".equals(method)) && "wsdl".equalsIgnoreCase(query);
        return wsdl || "POST".equals(method) ? 0 : HttpServletResponse.SC_METHOD_NOT_ALLOWED;
    }
}
