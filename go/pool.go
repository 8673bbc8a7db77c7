package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"sync"
	"time"
)

// poolWatch counts the requests waiting for one of the pool's connections and the connections in
// use, and keeps the lab's record of them (as the pooled servlet and gSOAP do, read by
// harness/measure/pool_log.py): for each second the pool was used, the most of each.
type poolWatch struct {
	timeout                 time.Duration // the longest a request waits for a connection
	mu                      sync.Mutex
	waiting, active         int
	mostWaiting, mostActive int
}

func (w *poolWatch) change(waiting, active int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiting += waiting
	w.active += active
	w.mostWaiting = max(w.mostWaiting, w.waiting)
	w.mostActive = max(w.mostActive, w.active)
}

// conn takes a connection from the pool, waiting while every one is in use, at most w.timeout (as
// HikariCP's connectionTimeout: POOL_TIMEOUT_MS).
func (w *poolWatch) conn(ctx context.Context, db *sql.DB) (*sql.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	w.change(1, 0)
	conn, err := db.Conn(ctx)
	if err != nil {
		w.change(-1, 0)
		return nil, err
	}
	w.change(-1, 1)
	return conn, nil
}

func (w *poolWatch) release(conn *sql.Conn) {
	conn.Close()
	w.change(0, -1)
}

// second is the most of each since the last call, which then starts from what is now.
func (w *poolWatch) second() (waiting, active int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	waiting, active = w.mostWaiting, w.mostActive
	w.mostWaiting, w.mostActive = w.waiting, w.active
	return waiting, active
}

// record appends a line each second the pool was used: epoch second, most waiting, most in use.
func (w *poolWatch) record(path string) {
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		log.Printf("pool log: %v", err)
		return
	}
	defer file.Close()
	for now := range time.Tick(time.Second) {
		if waiting, active := w.second(); waiting > 0 || active > 0 {
			fmt.Fprintf(file, "%d\t%d\t%d\n", now.Unix()-1, waiting, active)
		}
	}
}
