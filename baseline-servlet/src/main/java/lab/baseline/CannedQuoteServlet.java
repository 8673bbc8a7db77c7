package lab.baseline;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The engine-less SOAP baseline (ICWS'08, Figs. 1-2): a POSTed envelope is read and dropped, and the
 * answer is getQuote's canned response (contract/quote-response.xml, in the WAR), with no SOAP engine
 * between. Anything but POST is a 405.
 */
public class CannedQuoteServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private byte[] answer;

    @Override
    public void init() throws ServletException {
        try (InputStream canned = getServletContext().getResourceAsStream("/quote-response.xml")) {
            answer = canned.readAllBytes();
        } catch (IOException | NullPointerException e) {
            throw new ServletException("no canned quote response in the WAR", e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.getInputStream().transferTo(OutputStream.nullOutputStream());
        response.setContentType("text/xml; charset=utf-8");
        response.setContentLength(answer.length);
        response.getOutputStream().write(answer);
    }
}
