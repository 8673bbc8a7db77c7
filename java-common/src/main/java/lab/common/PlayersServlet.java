package lab.common;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The two HTML pages of the contract, mapped to /single and /large. Subclasses differ only in where
 * a connection comes from: that difference is what the lab measures.
 */
public abstract class PlayersServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(PlayersServlet.class.getName());

    protected abstract Connection connection() throws SQLException;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD");
            errorPage(response, 405, "method not allowed");
            return;
        }
        try {
            if (request.getServletPath().equals("/large")) {
                large(request, response);
            } else {
                single(request, response);
            }
        } catch (InvalidRequest e) {
            errorPage(response, e.status(), e.getMessage());
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "database error: {0}", e.getMessage());
            if (!response.isCommitted()) {
                response.reset();
                errorPage(response, 503, "database unavailable");
            }
        }
    }

    private void single(HttpServletRequest request, HttpServletResponse response)
            throws IOException, InvalidRequest, SQLException {
        int id = Contract.playerId(Contract.single("id", request.getParameterValues("id")));
        String table = Contract.table(Contract.single("engine", request.getParameterValues("engine")));
        try (Connection connection = connection();
             PreparedStatement statement = connection.prepareStatement(Contract.singleSql(table))) {
            statement.setInt(1, id);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new InvalidRequest(404, "no player with this id");
                }
                PrintWriter out = pageStart(response, "single");
                row(out, rows);
                pageEnd(out);
            }
        }
    }

    private void large(HttpServletRequest request, HttpServletResponse response)
            throws IOException, InvalidRequest, SQLException {
        String name = Contract.namePattern(Contract.single("name", request.getParameterValues("name")));
        String table = Contract.table(Contract.single("engine", request.getParameterValues("engine")));
        try (Connection connection = connection();
             PreparedStatement statement = connection.prepareStatement(Contract.largeSql(table))) {
            statement.setString(1, name);
            // Stream rows from the server in batches instead of holding all 16,000 in memory.
            statement.setFetchSize(Contract.LARGE_FETCH_SIZE);
            try (ResultSet rows = statement.executeQuery()) {
                PrintWriter out = pageStart(response, "large");
                while (rows.next()) {
                    row(out, rows);
                }
                pageEnd(out);
            }
        }
    }

    private static PrintWriter pageStart(HttpServletResponse response, String title) throws IOException {
        response.setContentType("text/html; charset=utf-8");
        PrintWriter out = response.getWriter();
        out.print("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title
            + "</title></head><body>\n<table>\n<tr>");
        for (String column : Contract.COLUMNS) {
            out.print("<th>" + column + "</th>");
        }
        out.print("</tr>\n");
        return out;
    }

    private static void row(PrintWriter out, ResultSet rows) throws SQLException {
        out.print("<tr>");
        for (int column = 1; column <= Contract.COLUMNS.length; column++) {
            out.print("<td>");
            out.print(Html.escape(rows.getString(column)));
            out.print("</td>");
        }
        out.print("</tr>\n");
    }

    private static void pageEnd(PrintWriter out) {
        out.print("</table>\n</body></html>\n");
    }

    private static void errorPage(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/html; charset=utf-8");
        response.getWriter().print("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + status
            + " " + Html.reason(status) + "</title></head><body><p>" + Html.escape(message)
            + "</p></body></html>\n");
    }
}
