package lab.common;

import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;

/**
 * The clock of {@link Phases}: the last filter in front of a SOAP engine's servlet (each SOAP app's
 * web.xml), so that the request's time starts where the engine receives it and ends once the reply,
 * flushed, has left. Without {@code lab.soapPhases} it only passes the request on.
 */
public class PhaseTiming implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!Phases.ON) {
            chain.doFilter(request, response);
            return;
        }
        Phases.received();
        try {
            chain.doFilter(request, response);
            response.flushBuffer();
            Phases.sent(((HttpServletRequest) request).getContextPath().substring(1));
        } finally {
            Phases.forget();
        }
    }
}
