package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"sync"
)

// The contract's escaping: PHP's htmlspecialchars(ENT_QUOTES), which html.EscapeString does not
// match (it writes &#39; and &#34;).
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#039;")

// view is how a page shows its rows: its title, its columns and their header row, and whether it
// shows one row by id, whose absence is the contract's 404.
type view struct {
	title   string
	columns []string
	header  string
	oneRow  bool
}

func newView(title string, shown []string, oneRow bool) view {
	return view{title, shown, "<tr><th>" + strings.Join(shown, "</th><th>") + "</th></tr>\n", oneRow}
}

var (
	singleView  = newView("single", columns, true)
	largeView   = newView("large", columns, false)
	rowsView    = newView("rows", columns, false)
	updateView  = newView("update", versionedColumns, true)
	updatesView = newView("updates", versionedColumns, false)
)

// players serves the contract's HTML pages from one pool of connections.
type players struct {
	db         *sql.DB
	pool       *poolWatch
	statements *statements // nil: each query is sent as text, its argument escaped in (interpolateParams)
}

// statements holds the contract's statements (each workload's on either table), each prepared on the pool
// the first time it is asked for, as TechEmpower's go-std prepares its own once with db.Prepare;
// database/sql then prepares it once on each connection it runs on, and keeps it there.
type statements struct {
	db       *sql.DB
	prepared sync.Map // the query's text -> *sql.Stmt
}

func (s *statements) get(ctx context.Context, text string) (*sql.Stmt, error) {
	if stmt, ok := s.prepared.Load(text); ok {
		return stmt.(*sql.Stmt), nil
	}
	stmt, err := s.db.PrepareContext(ctx, text)
	if err != nil {
		return nil, err
	}
	if earlier, raced := s.prepared.LoadOrStore(text, stmt); raced {
		stmt.Close()
		return earlier.(*sql.Stmt), nil
	}
	return stmt, nil
}

// baselineRow is the constant-row baseline's row: the single-row page of the registry's default
// id (100), written by the same code with no database (contract/README.md, "Baselines").
var baselineRow = []sql.RawBytes{[]byte("100"), []byte("adamswi02"), []byte("Willie"), []byte("Adams"),
	[]byte("1972"), []byte("10"), []byte("8"), []byte("215"), []byte("79"), []byte("R"), []byte("R")}

// routes: the five workloads, and the two baselines: the constant-row page and the static file.
func (p players) routes(staticBaseline string) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/single", p.page(singleView, singleQuery))
	mux.HandleFunc("/large", p.page(largeView, largeQuery))
	mux.HandleFunc("/rows", p.page(rowsView, rowsQuery))
	mux.HandleFunc("/update", p.update)
	mux.HandleFunc("/updates", p.updates)
	mux.HandleFunc("/baseline", func(w http.ResponseWriter, r *http.Request) {
		if !refused(w, r) {
			begin(w, singleView)
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

// page answers one read workload: its parameters checked, its query run, every row written as it
// arrives from the database (a page of 16,000 rows is never held whole).
func (p players) page(v view, check func(parameters) (query, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if refused(w, r) {
			return
		}
		q, err := check(parseQuery(r.URL.RawQuery))
		if err == nil {
			err = p.write(r.Context(), w, v, q)
		}
		answer(w, r, v.title, err)
	}
}

// update answers the update workload, POST alone: the row's version raised by one in autocommit,
// then the row read back with it. Never retried: database/sql runs a statement again only when the
// driver says that it was not sent (driver.ErrBadConn; go-sql-driver/mysql#302), and the statement
// that commits is one. The SELECT may take another connection of the pool: the UPDATE committed first.
func (p players) update(w http.ResponseWriter, r *http.Request) {
	if refusedWrite(w, r) {
		return
	}
	raise, read, err := updateQueries(parseQuery(r.URL.RawQuery))
	if err == nil {
		err = p.raise(r.Context(), raise)
	}
	if err == nil {
		err = p.write(r.Context(), w, updateView, read)
	}
	answer(w, r, updateView.title, err)
}

// updates answers the updates workload, POST alone: each drawn row raised and read back as update's
// is, every statement committed alone (TechEmpower's rule: a transaction holds one read and one write
// at most), the page written once its rows are read (twenty at most).
func (p players) updates(w http.ResponseWriter, r *http.Request) {
	if refusedWrite(w, r) {
		return
	}
	count, table, err := updatesCount(parseQuery(r.URL.RawQuery))
	raise, read := versionStatements(table)
	var raised [][]sql.RawBytes
	for _, id := range drawnIDs(count) {
		if err != nil {
			break
		}
		var row []sql.RawBytes
		if row, err = p.raised(r.Context(), query{raise, id}, query{read, id}); row != nil {
			raised = append(raised, row)
		}
	}
	if err == nil {
		begin(w, updatesView)
		for _, row := range raised {
			writeRow(w, row)
		}
		end(w)
	}
	answer(w, r, updatesView.title, err)
}

// refusedWrite answers a method other than POST with the contract's 405, and says so.
func refusedWrite(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodPost {
		return false
	}
	w.Header().Set("Allow", "POST")
	errorPage(w, http.StatusMethodNotAllowed, "method not allowed")
	return true
}

// raised runs a row's UPDATE, then reads the row back whole; nil when no row has the id.
func (p players) raised(ctx context.Context, raise, read query) ([]sql.RawBytes, error) {
	var invalid *invalidRequest
	if err := p.raise(ctx, raise); errors.As(err, &invalid) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	rows, done, err := p.query(ctx, read)
	if err != nil {
		return nil, err
	}
	defer done()
	if !rows.Next() {
		return nil, rows.Err()
	}
	values := make([][]byte, len(versionedColumns))
	targets := make([]any, len(values))
	for i := range values {
		targets[i] = &values[i] // a []byte target is a copy, kept past the rows' close
	}
	row := make([]sql.RawBytes, len(values))
	err = rows.Scan(targets...)
	for i, value := range values {
		row[i] = value
	}
	return row, err
}

// answer ends a page that returned err: the contract's error page for a refused request, none for a
// client that has gone, 503 for the database's error.
func answer(w http.ResponseWriter, r *http.Request, title string, err error) {
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

// raise runs the UPDATE; when it changed no row, no row has the id: the single page's 404.
func (p players) raise(ctx context.Context, q query) error {
	result, err := p.pool.exec(ctx, func(ctx context.Context) (sql.Result, error) {
		if p.statements == nil {
			return p.db.ExecContext(ctx, q.sql, q.argument)
		}
		stmt, err := p.statements.get(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		return stmt.ExecContext(ctx, q.argument)
	})
	if err != nil {
		return err
	}
	changed, err := result.RowsAffected()
	if err == nil && changed == 0 {
		return &invalidRequest{http.StatusNotFound, "no player with this id"}
	}
	return err
}

// write runs the query and writes its page; an error before the first row is returned for the
// caller's answer. One after it cannot change the status sent: the connection is cut, so that no
// client takes a page cut short for a whole one.
func (p players) write(ctx context.Context, w http.ResponseWriter, v view, q query) error {
	rows, done, err := p.query(ctx, q)
	if err != nil {
		return err
	}
	defer done()
	values := make([]sql.RawBytes, len(v.columns))
	targets := make([]any, len(v.columns))
	for i := range values {
		targets[i] = &values[i]
	}
	begun := false
	for rows.Next() {
		if err := rows.Scan(targets...); err != nil {
			abort(v.title, err)
		}
		if !begun {
			begin(w, v)
			begun = true
		}
		writeRow(w, values)
	}
	if err := rows.Err(); err != nil {
		if begun {
			abort(v.title, err)
		}
		return err
	}
	if !begun {
		if v.oneRow {
			return &invalidRequest{http.StatusNotFound, "no player with this id"}
		}
		begin(w, v)
	}
	end(w)
	return nil
}

// query runs q on the pool: as its prepared statement, or as text with the driver's interpolateParams.
// A connection that the database dropped (MariaDB restarted while it idled) is found by the driver
// before the query is sent on it, and database/sql then runs it on another.
func (p players) query(ctx context.Context, q query) (*sql.Rows, func(), error) {
	return p.pool.query(ctx, func(ctx context.Context) (*sql.Rows, error) {
		if p.statements == nil {
			return p.db.QueryContext(ctx, q.sql, q.argument)
		}
		stmt, err := p.statements.get(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		return stmt.QueryContext(ctx, q.argument)
	})
}

func begin(w http.ResponseWriter, v view) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"+v.title+
		"</title></head><body>\n<table>\n"+v.header)
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
