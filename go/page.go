package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// The contract's escaping: PHP's htmlspecialchars(ENT_QUOTES), which html.EscapeString does not
// match (it writes &#39; and &#34;).
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#039;")

var headerRow = "<tr><th>" + strings.Join(columns, "</th><th>") + "</th></tr>\n"

// players serves the contract's HTML pages from one pool of connections.
type players struct {
	db   *sql.DB
	pool *poolWatch
}

// baselineRow is the constant-row baseline's row: the single-row page of the registry's default
// id (100), written by the same code with no database (contract/README.md, "Baselines").
var baselineRow = []sql.RawBytes{[]byte("100"), []byte("adamswi02"), []byte("Willie"), []byte("Adams"),
	[]byte("1972"), []byte("10"), []byte("8"), []byte("215"), []byte("79"), []byte("R"), []byte("R")}

// routes: the three workloads, and the two baselines: the constant-row page and the static file.
func (p players) routes(staticBaseline string) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/single", p.page("single", singleQuery))
	mux.HandleFunc("/large", p.page("large", largeQuery))
	mux.HandleFunc("/rows", p.page("rows", rowsQuery))
	mux.HandleFunc("/baseline", func(w http.ResponseWriter, r *http.Request) {
		if !refused(w, r) {
			begin(w, "single")
			writeRow(w, baselineRow)
			end(w)
		}
	})
	mux.HandleFunc("GET /baseline.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, staticBaseline)
	})
	return mux
}

// refused answers a method other than GET or HEAD with the contract's 405, and says so.
func refused(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return false
	}
	w.Header().Set("Allow", "GET, HEAD")
	errorPage(w, http.StatusMethodNotAllowed, "method not allowed")
	return true
}

// page answers one workload: its parameters checked, its query run, every row written as it
// arrives from the database (a page of 16,000 rows is never held whole).
func (p players) page(title string, check func(parameters) (query, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if refused(w, r) {
			return
		}
		q, err := check(parseQuery(r.URL.RawQuery))
		if err == nil {
			err = p.write(r.Context(), w, title, q)
		}
		var invalid *invalidRequest
		switch {
		case err == nil:
		case errors.As(err, &invalid):
			errorPage(w, invalid.status, invalid.message)
		case r.Context().Err() != nil:
			// The client has gone (its timeout passed while the request waited): no one to answer.
		default:
			log.Printf("%s: database error: %v", title, err)
			errorPage(w, http.StatusServiceUnavailable, "database unavailable")
		}
	}
}

// write runs the query and writes its page; an error before the first row is returned for the
// caller's answer. One after it cannot change the status sent: the connection is cut, so that no
// client takes a page cut short for a whole one.
func (p players) write(ctx context.Context, w http.ResponseWriter, title string, q query) error {
	conn, rows, err := p.query(ctx, q)
	if err != nil {
		return err
	}
	defer p.pool.release(conn)
	defer rows.Close()
	values := make([]sql.RawBytes, len(columns))
	targets := make([]any, len(columns))
	for i := range values {
		targets[i] = &values[i]
	}
	begun := false
	for rows.Next() {
		if err := rows.Scan(targets...); err != nil {
			abort(title, err)
		}
		if !begun {
			begin(w, title)
			begun = true
		}
		writeRow(w, values)
	}
	if err := rows.Err(); err != nil {
		if begun {
			abort(title, err)
		}
		return err
	}
	if !begun {
		if title == "single" {
			return &invalidRequest{http.StatusNotFound, "no player with this id"}
		}
		begin(w, title)
	}
	end(w)
	return nil
}

// query runs q on a connection of the pool. A connection that the database dropped (MariaDB
// restarted while it idled) may show it only when it is used: as database/sql does for the queries
// it runs itself, q is then run again on another connection, at most twice (sql.Conn does not retry).
func (p players) query(ctx context.Context, q query) (*sql.Conn, *sql.Rows, error) {
	for attempt := 0; ; attempt++ {
		conn, err := p.pool.conn(ctx, p.db)
		if err != nil {
			return nil, nil, err
		}
		rows, err := conn.QueryContext(ctx, q.sql, q.argument)
		if err == nil {
			return conn, rows, nil
		}
		p.pool.release(conn) // a dropped connection leaves the pool as it goes back
		dropped := errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn)
		if !dropped || attempt == 2 {
			return nil, nil, err
		}
	}
}

func begin(w http.ResponseWriter, title string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"+title+
		"</title></head><body>\n<table>\n"+headerRow)
}

func writeRow(w http.ResponseWriter, values []sql.RawBytes) {
	io.WriteString(w, "<tr>")
	for _, value := range values {
		io.WriteString(w, "<td>")
		escaper.WriteString(w, string(value))
		io.WriteString(w, "</td>")
	}
	io.WriteString(w, "</tr>\n")
}

func end(w http.ResponseWriter) {
	io.WriteString(w, "</table>\n</body></html>\n")
}

// abort ends a page begun: net/http cuts the connection on this panic and logs no stack.
func abort(title string, err error) {
	log.Printf("%s: database error after the page began: %v", title, err)
	panic(http.ErrAbortHandler)
}

func errorPage(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%d %s</title></head>"+
		"<body><p>%s</p></body></html>\n", status, http.StatusText(status), escaper.Replace(message))
}
