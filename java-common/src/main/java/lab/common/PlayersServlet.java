package lab.common;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The HTML pages of the contract, mapped to /single, /large, /rows, and /update and /updates (the
 * ones that write, by POST). Subclasses differ only in where a connection comes from: that difference is what the lab
 * measures.
 */
public abstract class PlayersServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(PlayersServlet.class.getName());
    private static final String UNDECODABLE = "\uFFFD";
    /** A '%' that does not begin an escape of two hex digits (RFC 3986, section 2.1). */
    private static final Pattern MALFORMED_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");
    private static final String[] READING = {"GET", "HEAD"};
    private static final String[] WRITING = {"POST"};
    private static final String UPDATE_PATH = "/update";
    private static final String UPDATES_PATH = "/updates";

    protected abstract Connection connection() throws SQLException;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        boolean writes = UPDATE_PATH.equals(request.getServletPath()) || UPDATES_PATH.equals(request.getServletPath());
        if (refusedMethod(request, response, writes ? WRITING : READING)) {
            return;
        }
        try {
            switch (request.getServletPath()) {
                case UPDATE_PATH:
                    update(request, response);
                    break;
                case UPDATES_PATH:
                    updates(response, VersionUpdate.drawn(parameter(request, "queries"), parameter(request, "engine")));
                    break;
                case "/large":
                    table(response, "large", PlayerQuery.large(parameter(request, "name"), parameter(request, "engine")));
                    break;
                case "/rows":
                    table(response, "rows", PlayerQuery.rows(parameter(request, "count"), parameter(request, "engine")));
                    break;
                default:
                    single(request, response);
            }
        } catch (InvalidRequest e) {
            errorPage(response, e.status(), e.getMessage());
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "database error: {0}", e.getMessage());
            if (response.isCommitted()) {
                // The page has begun and its status is sent: Tomcat's ErrorReportValve answers an
                // exception over a committed response by closing the connection, so that no client
                // takes a page cut short for a whole one.
                throw new ServletException("database error after the page began", e);
            }
            response.reset();
            errorPage(response, 503, "database unavailable");
        }
    }

    private void single(HttpServletRequest request, HttpServletResponse response)
            throws IOException, InvalidRequest, SQLException {
        PlayerQuery query = PlayerQuery.single(parameter(request, "id"), parameter(request, "engine"));
        PlayerPage page = new PlayerPage(response, "single");
        if (query.run(this::connection, page::row) == 0) {
            throw new InvalidRequest(404, "no player with this id");
        }
        page.end();
    }

    private void update(HttpServletRequest request, HttpServletResponse response)
            throws IOException, InvalidRequest, SQLException {
        VersionUpdate update = VersionUpdate.of(parameter(request, "id"), parameter(request, "engine"));
        PlayerPage page = new PlayerPage(response, "update", Contract.VERSIONED_COLUMNS);
        if (update.run(this::connection, page::row) == 0) {
            throw new InvalidRequest(404, "no player with this id");
        }
        page.end();
    }

    private void updates(HttpServletResponse response, VersionUpdate updates) throws IOException, SQLException {
        PlayerPage page = new PlayerPage(response, "updates", Contract.VERSIONED_COLUMNS);
        updates.run(this::connection, page::row);
        page.end();
    }

    /** A page of every row the query returns, however many (none is an empty table). */
    private void table(HttpServletResponse response, String title, PlayerQuery query)
            throws IOException, SQLException {
        PlayerPage page = new PlayerPage(response, title);
        query.run(this::connection, page::row);
        page.end();
    }

    /**
     * A parameter's one value. A query string that does not decode is text that is not text: Servlet 4's
     * containers (Tomcat 9) give bytes that are not UTF-8 as U+FFFD and drop a pair whose percent-encoding
     * is malformed (so the raw string is checked for that first), and Servlet 6.1's (Tomcat 11) refuse
     * every parameter with an IllegalStateException; each becomes U+FFFD, so that the contract's check
     * answers its 400.
     */
    private static String parameter(HttpServletRequest request, String name) throws InvalidRequest {
        String query = request.getQueryString();
        if (query != null && MALFORMED_ESCAPE.matcher(query).find()) {
            return Contract.single(name, new String[] {UNDECODABLE});
        }
        String[] values;
        try {
            values = request.getParameterValues(name);
        } catch (IllegalStateException e) {
            values = new String[] {UNDECODABLE};
        }
        return Contract.single(name, values);
    }

    /** The contract's reading pages answer GET and HEAD only: anything else gets its 405, and true. */
    public static boolean refusedMethod(HttpServletRequest request, HttpServletResponse response) throws IOException {
        return refusedMethod(request, response, READING);
    }

    private static boolean refusedMethod(HttpServletRequest request, HttpServletResponse response, String[] allowed)
            throws IOException {
        if (java.util.Arrays.asList(allowed).contains(request.getMethod())) {
            return false;
        }
        response.setHeader("Allow", String.join(", ", allowed));
        errorPage(response, 405, "method not allowed");
        return true;
    }

    private static void errorPage(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/html; charset=utf-8");
        response.getWriter().print("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + status
            + " " + Html.reason(status) + "</title></head><body><p>" + Html.escape(message)
            + "</p></body></html>\n");
    }
}
