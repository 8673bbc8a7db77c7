// The contract's HTML pages (contract/README.md) served by Go's net/http from a database/sql pool of
// go-sql-driver/mysql connections. Every setting comes from the lab (stack/servers.py); the pool is
// set as the driver's README recommends (docs/apps.md).
package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

func main() {
	bind := flag.String("bind", "127.0.0.1", "the address to listen on")
	port := flag.Int("port", 0, "the TCP port to listen on")
	configFile := flag.String("config", "", "the lab's app.properties: the database and its account")
	pidfile := flag.String("pidfile", "", "where to write this process's pid once it listens")
	poolSize := flag.Int("pool-size", 5, "database connections, open and idle alike")
	interpolate := flag.Bool("interpolate-params", false, "the driver's interpolateParams")
	idleTimeout := flag.Duration("idle-timeout", 5*time.Second, "how long a kept-alive connection may idle")
	keepAliveRequests := flag.Int("keep-alive-requests", 100, "requests a connection carries after its first")
	poolLog := flag.String("pool-log", "", "where to record the pool's use each second")
	staticBaseline := flag.String("static-baseline", "", "the static baseline page, served at /baseline.html")
	version := flag.Bool("version", false, "print the Go and driver versions built in, and exit")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.LUTC)
	if *version {
		fmt.Println(versions())
		return
	}

	config, err := readProperties(*configFile)
	if err != nil {
		log.Fatal(err)
	}
	poolTimeout, err := strconv.Atoi(config["pool.timeoutMs"])
	if err != nil {
		log.Fatalf("pool.timeoutMs: %v", err)
	}
	pool := &poolWatch{timeout: time.Duration(poolTimeout) * time.Millisecond}
	db, err := openPool(config, *poolSize, *interpolate, pool.timeout)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	listener, err := net.Listen("tcp", net.JoinHostPort(*bind, strconv.Itoa(*port)))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	defer os.Remove(*pidfile)

	go pool.record(*poolLog, db)
	app := players{db: db, pool: pool}
	if !*interpolate {
		app.statements = &statements{db: db}
	}
	server := &http.Server{
		Handler:           closingAfter(*keepAliveRequests, app.routes(*staticBaseline)),
		ConnContext:       countingRequests,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       *idleTimeout,
	}
	stopped := make(chan error, 1)
	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		<-signals
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		stopped <- server.Shutdown(ctx)
	}()
	log.Printf("listening on %s, %d database connections, interpolateParams=%t, GOMAXPROCS=%d, %s",
		listener.Addr(), *poolSize, *interpolate, runtime.GOMAXPROCS(0), versions())
	if err := server.Serve(listener); !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	if err := <-stopped; err != nil {
		log.Print(err)
	}
}

type servedKey struct{}

// countingRequests gives each connection a count of the requests it has carried.
func countingRequests(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, servedKey{}, new(int))
}

// closingAfter closes a kept-alive connection once it has carried limit requests after its first,
// as Apache's MaxKeepAliveRequests does (net/http has no such limit of its own). A connection's
// requests are served one after another, so its count needs no lock.
func closingAfter(limit int, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served, ok := r.Context().Value(servedKey{}).(*int); ok {
			if *served++; *served > limit {
				w.Header().Set("Connection", "close")
			}
		}
		next.ServeHTTP(w, r)
	})
}

// openPool: the driver's recommended settings (its README's "Important settings"): as many idle
// connections as open ones, so the pool never churns, and a lifetime under five minutes.
func openPool(config map[string]string, size int, interpolate bool, dialTimeout time.Duration) (*sql.DB, error) {
	driverConfig := mysql.NewConfig()
	driverConfig.Net = "tcp"
	driverConfig.Addr = net.JoinHostPort(config["db.host"], config["db.port"])
	driverConfig.User = config["db.user"]
	driverConfig.Passwd = config["db.password"]
	driverConfig.DBName = config["db.name"]
	driverConfig.InterpolateParams = interpolate
	driverConfig.Timeout = dialTimeout
	connector, err := mysql.NewConnector(driverConfig)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(size)
	db.SetMaxIdleConns(size)
	db.SetConnMaxLifetime(3 * time.Minute)
	return db, nil
}

// versions: the Go release and the driver's module version this binary was built with.
func versions() string {
	driver := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, module := range info.Deps {
			if module.Path == "github.com/go-sql-driver/mysql" {
				driver = module.Version
			}
		}
	}
	return fmt.Sprintf("%s, go-sql-driver/mysql %s", runtime.Version(), driver)
}

// readProperties reads the lab's key=value file (the one every app reads).
func readProperties(path string) (map[string]string, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	values := map[string]string{}
	lines := bufio.NewScanner(file)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if key, value, found := strings.Cut(line, "="); found && !strings.HasPrefix(line, "#") {
			values[strings.TrimSpace(key)] = strings.TrimSpace(value)
		}
	}
	return values, lines.Err()
}
