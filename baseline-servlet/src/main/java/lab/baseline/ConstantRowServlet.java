package lab.baseline;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import lab.common.PlayerPage;
import lab.common.PlayersServlet;

/**
 * The constant-row baseline: the single-row page of the registry's default id (100), rendered by
 * the same code as the servlets' from a row held here, with no database.
 */
public class ConstantRowServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final String[] ROW = {"100", "adamswi02", "Willie", "Adams", "1972", "10", "8", "215", "79",
        "R", "R"};

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (PlayersServlet.refusedMethod(request, response)) {
            return;
        }
        PlayerPage page = new PlayerPage(response, "single");
        page.row(ROW);
        page.end();
    }
}
