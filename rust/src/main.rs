//! The contract's HTML pages (contract/README.md) served by axum on tokio from a sqlx pool of
//! MariaDB connections. Every setting comes from the lab (stack/runtime_servers.py); each is written
//! down, with why, in docs/apps.md.
mod contract;
mod page;
mod pool_watch;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderValue};
use axum::response::Response;
use clap::Parser;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use sqlx::mysql::{MySqlConnectOptions, MySqlPoolOptions};
use tokio::net::TcpListener;
use tokio::signal::unix::{signal, SignalKind};
use tower::ServiceExt;

use page::App;
use pool_watch::PoolWatch;

#[derive(Parser)]
#[command(version = concat!(env!("CARGO_PKG_VERSION"), ": ", env!("RUSTC_VERSION"), ", ", env!("LAB_CRATES")))]
struct Options {
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// The TCP port to listen on
    #[arg(long)]
    port: u16,
    /// The lab's app.properties: the database and its account
    #[arg(long)]
    config: PathBuf,
    /// Where to write this process's pid once it listens
    #[arg(long)]
    pidfile: PathBuf,
    /// Database connections, open and idle alike
    #[arg(long, default_value_t = 5)]
    pool_size: u32,
    /// Seconds a kept-alive connection may wait for its next request
    #[arg(long, default_value_t = 5)]
    idle_timeout: u64,
    /// Requests a connection carries after its first
    #[arg(long, default_value_t = 100)]
    keep_alive_requests: usize,
    /// Where to record the pool's use each second
    #[arg(long)]
    pool_log: Option<PathBuf>,
    /// Whether the pool pings a connection before handing it out (sqlx's test_before_acquire)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    test_before_acquire: bool,
    /// The static baseline page, served at /baseline.html
    #[arg(long)]
    static_baseline: PathBuf,
}

/// The lab's key=value file, the one every app reads.
fn read_properties(path: &PathBuf) -> std::io::Result<HashMap<String, String>> {
    Ok(std::fs::read_to_string(path)?.lines().map(str::trim).filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim().to_owned(), value.trim().to_owned()))
        .collect())
}

/// sqlx's pool: every connection kept open (min = max, as the Go and Java pools keep theirs), a
/// request waiting at most POOL_TIMEOUT_MS for one; connected as the first requests come.
fn open_pool(config: &HashMap<String, String>, size: u32, test_before_acquire: bool) -> Result<sqlx::MySqlPool, String> {
    let setting = |key: &str| config.get(key).cloned().ok_or_else(|| format!("{key} missing from the config"));
    let timeout: u64 = setting("pool.timeoutMs")?.parse().map_err(|error| format!("pool.timeoutMs: {error}"))?;
    let port = setting("db.port")?.parse().map_err(|error| format!("db.port: {error}"))?;
    let connect = MySqlConnectOptions::new().host(&setting("db.host")?).port(port)
        .username(&setting("db.user")?).password(&setting("db.password")?).database(&setting("db.name")?);
    Ok(MySqlPoolOptions::new().max_connections(size).min_connections(size).test_before_acquire(test_before_acquire)
        .acquire_timeout(Duration::from_millis(timeout)).connect_lazy_with(connect))
}

/// On the one CPU the lab gives a server, one thread that polls the connections and runs the tasks, as
/// TechEmpower's axum runs a current-thread runtime per CPU; on more, tokio's multi-thread runtime, a
/// worker per CPU.
fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    let mut builder = if cpus == 1 { tokio::runtime::Builder::new_current_thread() }
                      else { tokio::runtime::Builder::new_multi_thread() };
    builder.enable_all().build()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    runtime()?.block_on(serve(Options::parse()))
}

async fn serve(options: Options) -> Result<(), Box<dyn std::error::Error>> {
    let config = read_properties(&options.config).map_err(|error| format!("{}: {error}", options.config.display()))?;
    let pool = open_pool(&config, options.pool_size, options.test_before_acquire)?;
    let app = Arc::new(App { pool: pool.clone(), watch: PoolWatch::default(),
                             static_baseline: options.static_baseline.clone() });
    let listener = TcpListener::bind(SocketAddr::new(options.bind, options.port)).await?;
    std::fs::write(&options.pidfile, format!("{}\n", std::process::id()))?;
    if let Some(path) = options.pool_log.clone() {
        let app = app.clone();
        tokio::spawn(async move { app.watch.record(path).await });
    }
    let runtime = tokio::runtime::Handle::current();
    eprintln!("listening on {}, {} database connections, test_before_acquire={}, {:?} runtime of {} worker threads, {}, {}",
              listener.local_addr()?, options.pool_size, options.test_before_acquire, runtime.runtime_flavor(),
              runtime.metrics().num_workers(), env!("RUSTC_VERSION"), env!("LAB_CRATES"));

    let router = page::routes(app);
    let mut http = http1::Builder::new();
    // The idle limit: hyper's wait for a request's head, which on a kept-alive connection starts
    // when the connection goes idle.
    http.timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(options.idle_timeout));
    let graceful = GracefulShutdown::new();
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => { eprintln!("accept: {error}"); continue; }
            },
            _ = terminate.recv() => break,
            _ = interrupt.recv() => break,
        };
        stream.set_nodelay(true)?; // as Go's net/http and Node.js's http set theirs
        let limit = options.keep_alive_requests;
        let served = Arc::new(AtomicUsize::new(0));
        // Apache's MaxKeepAliveRequests: the connection closes once it has carried `limit` requests
        // after its first (hyper has no such limit of its own).
        let service = ServiceExt::<Request<Incoming>>::map_response(router.clone(), move |mut response: Response| {
            if served.fetch_add(1, Ordering::Relaxed) >= limit {
                response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        });
        let connection = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that leaves mid-request is no error of the server's.
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
    pool.close().await;
    let _ = std::fs::remove_file(&options.pidfile);
    Ok(())
}
