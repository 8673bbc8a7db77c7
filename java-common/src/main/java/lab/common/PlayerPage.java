package lab.common;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.servlet.http.HttpServletResponse;

/**
 * The contract's HTML table, started at its first row (or its end), so errors before it can still
 * answer with their own status.
 */
public final class PlayerPage {
    private final HttpServletResponse response;
    private final String title;
    private final String[] columns;
    private PrintWriter out;

    public PlayerPage(HttpServletResponse response, String title) {
        this(response, title, Contract.COLUMNS);
    }

    /** A page of the given columns (the update page's Contract.VERSIONED_COLUMNS). */
    public PlayerPage(HttpServletResponse response, String title, String[] columns) {
        this.response = response;
        this.title = title;
        this.columns = columns;
    }

    /** The current row of a result set whose columns are the page's, in order. */
    public void row(ResultSet rows) throws SQLException, IOException {
        String[] values = new String[columns.length];
        for (int column = 0; column < values.length; column++) {
            values[column] = rows.getString(column + 1);
        }
        row(values);
    }

    /** A row's values in the order of the page's columns. */
    public void row(String... values) throws IOException {
        start();
        out.print("<tr>");
        for (String value : values) {
            out.print("<td>");
            out.print(Html.escape(value));
            out.print("</td>");
        }
        out.print("</tr>\n");
    }

    public void end() throws IOException {
        start();
        out.print("</table>\n</body></html>\n");
    }

    private void start() throws IOException {
        if (out != null) {
            return;
        }
        response.setContentType("text/html; charset=utf-8");
        out = response.getWriter();
        out.print("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title
            + "</title></head><body>\n<table>\n<tr>");
        for (String column : columns) {
            out.print("<th>" + column + "</th>");
        }
        out.print("</tr>\n");
    }
}
