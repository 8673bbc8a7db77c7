package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"sync/atomic"
	"time"
)

// samplesPerSecond: how often the pool is read, as the pooled servlet's PoolWaitLog reads HikariCP's.
const samplesPerSecond = 20

// poolWatch keeps the lab's record of the pool (read by harness/measure/pool_log.py, as the pooled
// servlet's and gSOAP's are): for each second the pool was used, the most requests that waited for a
// connection and the most connections in use. It reads the pool's own db.Stats(); database/sql does
// not count the requests waiting at a moment, so the watch counts the queries under way, and those
// of them without a connection are the waiting ones.
type poolWatch struct {
	timeout time.Duration // the longest a request waits for a connection and its query's first answer
	queries atomic.Int64
}

// query runs q, waiting at most w.timeout for a connection and the query's first answer (as
// HikariCP's connectionTimeout: POOL_TIMEOUT_MS). The rows then stream without that bound.
func (w *poolWatch) query(ctx context.Context, run func(context.Context) (*sql.Rows, error)) (*sql.Rows, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	timer := time.AfterFunc(w.timeout, cancel)
	w.queries.Add(1)
	rows, err := run(ctx)
	timer.Stop()
	if err != nil {
		w.queries.Add(-1)
		cancel()
		return nil, nil, err
	}
	return rows, func() { rows.Close(); cancel(); w.queries.Add(-1) }, nil
}

// exec runs an UPDATE as query runs a SELECT: its connection and its answer within w.timeout,
// counted while under way. A statement cut by that bound may or may not have committed.
func (w *poolWatch) exec(ctx context.Context, run func(context.Context) (sql.Result, error)) (sql.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	w.queries.Add(1)
	defer w.queries.Add(-1)
	return run(ctx)
}

// record appends a line each second the pool was used: epoch second, most waiting, most in use.
func (w *poolWatch) record(path string, db *sql.DB) {
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		log.Printf("pool log: %v", err)
		return
	}
	defer file.Close()
	second, mostWaiting, mostActive := time.Now().Unix(), 0, 0
	for now := range time.Tick(time.Second / samplesPerSecond) {
		if now.Unix() != second {
			if mostWaiting > 0 || mostActive > 0 {
				fmt.Fprintf(file, "%d\t%d\t%d\n", second, mostWaiting, mostActive)
			}
			second, mostWaiting, mostActive = now.Unix(), 0, 0
		}
		inUse := db.Stats().InUse
		mostWaiting = max(mostWaiting, int(w.queries.Load())-inUse)
		mostActive = max(mostActive, inUse)
	}
}
