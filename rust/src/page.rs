//! The contract's HTML pages, their routes and their answers.
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use sqlx::MySqlPool;

use crate::contract::{self, Argument, Parameters, Query, Refusal, Update, COLUMNS};
use crate::pool_watch::PoolWatch;

/// A row of either table, its fields in the contract's column order.
#[derive(sqlx::FromRow)]
#[sqlx(rename_all = "camelCase")]
pub struct Player {
    id: i32,
    #[sqlx(rename = "playerID")]
    player_id: String,
    name_first: String,
    name_last: String,
    birth_year: i16,
    birth_month: i8,
    birth_day: i8,
    weight: i16,
    height: i16,
    bats: String,
    throws: String,
}

/// The update page's row: a player and its version, which no read page shows.
#[derive(sqlx::FromRow)]
pub struct VersionedPlayer {
    #[sqlx(flatten)]
    player: Player,
    ver: u32,
}

/// The constant-row baseline's row: the single-row page of the registry's default id (100), written
/// by the page's own code with no database (contract/README.md, "Baselines").
fn baseline_player() -> Player {
    Player { id: 100, player_id: "adamswi02".into(), name_first: "Willie".into(), name_last: "Adams".into(),
        birth_year: 1972, birth_month: 10, birth_day: 8, weight: 215, height: 79, bats: "R".into(),
        throws: "R".into() }
}

pub struct App {
    pub pool: MySqlPool,
    pub watch: PoolWatch,
    pub static_baseline: PathBuf,
}

type Shared = State<Arc<App>>;

/// The five workloads and the two baselines; any other path is not found.
pub fn routes(app: Arc<App>) -> Router {
    Router::new()
        .route("/single", any(|state: Shared, method: Method, RawQuery(raw): RawQuery| {
            workload(state, method, raw, "single", contract::single)
        }))
        .route("/large", any(|state: Shared, method: Method, RawQuery(raw): RawQuery| {
            workload(state, method, raw, "large", contract::large)
        }))
        .route("/rows", any(|state: Shared, method: Method, RawQuery(raw): RawQuery| {
            workload(state, method, raw, "rows", contract::rows)
        }))
        .route("/update", any(|state: Shared, method: Method, RawQuery(raw): RawQuery| {
            update(state, method, raw, "update", contract::update)
        }))
        .route("/updates", any(|state: Shared, method: Method, RawQuery(raw): RawQuery| {
            update(state, method, raw, "updates", contract::updates)
        }))
        .route("/baseline", any(|method: Method| async move {
            only_reads(&method).map(|()| html(StatusCode::OK, page("single", &[baseline_player()])))
        }))
        .route("/baseline.html", any(|State(app): Shared, method: Method| async move {
            only_reads(&method)?;
            let file = tokio::fs::read(&app.static_baseline).await.map_err(|error| {
                eprintln!("baseline.html: {error}");
                Refusal::new(StatusCode::NOT_FOUND, "no such page")
            })?;
            Ok::<_, Refusal>(html(StatusCode::OK, file))
        }))
        .fallback(|| async { Refusal::new(StatusCode::NOT_FOUND, "no such page") })
        .with_state(app)
}

/// A method other than GET or HEAD gets the contract's 405.
fn only_reads(method: &Method) -> Result<(), Refusal> {
    match *method {
        Method::GET | Method::HEAD => Ok(()),
        _ => Err(Refusal::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")),
    }
}

/// One workload's page: its parameters checked, its query run on a connection of the pool.
async fn workload(State(app): Shared, method: Method, raw: Option<String>, title: &'static str,
                  check: fn(&Parameters) -> Result<Query, Refusal>) -> Result<Response, Refusal> {
    only_reads(&method)?;
    let query = check(&contract::parse_query(raw.as_deref().unwrap_or("")))?;
    let players = fetch(&app, &query).await.map_err(|error| {
        eprintln!("{title}: database error: {error}");
        Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
    })?;
    if players.is_empty() && title == "single" {
        return Err(Refusal::new(StatusCode::NOT_FOUND, "no player with this id"));
    }
    Ok(html(StatusCode::OK, page(title, &players)))
}

/// The query's rows, on a connection taken from the pool (a prepared statement, sqlx's only way to
/// bind a parameter; each connection keeps its statements). A connection that the database dropped
/// while it idled (MariaDB restarted) shows it only when used, where the pool does not ping it first
/// (RUST_TEST_BEFORE_ACQUIRE=false): the query then runs on another, as database/sql retries its own,
/// once for each connection the pool may hold; the dropped one fails its ping on release and is closed.
async fn fetch(app: &App, query: &Query) -> Result<Vec<Player>, sqlx::Error> {
    let mut attempts = app.pool.options().get_max_connections();
    loop {
        let mut connection = app.watch.acquire(&app.pool).await?;
        let statement = sqlx::query_as(&query.sql);
        let statement = match &query.argument {
            Argument::Number(number) => statement.bind(*number),
            Argument::Text(text) => statement.bind(text.as_str()),
        };
        match statement.fetch_all(&mut **connection).await {
            Err(sqlx::Error::Io(_)) if attempts > 0 => attempts -= 1,
            result => return result,
        }
    }
}

/// A write workload's page, POST alone: each row's version raised in autocommit, then the row read
/// back with it (TechEmpower's rule: a transaction holds one read and one write at most); the update
/// page's one row missing is the contract's 404.
async fn update(State(app): Shared, method: Method, raw: Option<String>, title: &'static str,
                check: fn(&Parameters) -> Result<Update, Refusal>) -> Response {
    if method != Method::POST {
        let mut refused = Refusal::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed").into_response();
        refused.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
        return refused;
    }
    let statements = match check(&contract::parse_query(raw.as_deref().unwrap_or(""))) {
        Ok(statements) => statements,
        Err(refusal) => return refusal.into_response(),
    };
    match raise(&app, &statements).await {
        Ok(rows) if rows.is_empty() && title == "update" => {
            Refusal::new(StatusCode::NOT_FOUND, "no player with this id").into_response()
        }
        Ok(rows) => html(StatusCode::OK, versioned_page(title, &rows)),
        Err(error) => {
            eprintln!("{title}: database error: {error}");
            Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "database unavailable").into_response()
        }
    }
}

/// Each id's update, then its row, on one connection of the pool; a row no id has is skipped. Never
/// run again, unlike fetch's reads: a connection lost mid-statement leaves unknown whether it committed.
async fn raise(app: &App, update: &Update) -> Result<Vec<VersionedPlayer>, sqlx::Error> {
    let mut connection = app.watch.acquire(&app.pool).await?;
    let mut rows = Vec::with_capacity(update.ids.len());
    for &id in &update.ids {
        let done = sqlx::query(&update.raise).bind(id).execute(&mut **connection).await?;
        if done.rows_affected() == 0 {
            continue;
        }
        rows.extend(sqlx::query_as(&update.read).bind(id).fetch_optional(&mut **connection).await?);
    }
    Ok(rows)
}

fn html(status: StatusCode, body: impl IntoResponse) -> Response {
    (status, [(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], body).into_response()
}

/// PHP's htmlspecialchars(ENT_QUOTES), the contract's escaping.
fn escape_into(out: &mut String, value: &str) {
    for character in value.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#039;"),
            other => out.push(other),
        }
    }
}

fn text(out: &mut String, value: &str) {
    out.push_str("<td>");
    escape_into(out, value);
    out.push_str("</td>");
}

fn number(out: &mut String, value: impl std::fmt::Display) {
    write!(out, "<td>{value}</td>").unwrap();
}

fn cells(out: &mut String, player: &Player) {
    number(out, player.id);
    text(out, &player.player_id);
    text(out, &player.name_first);
    text(out, &player.name_last);
    number(out, player.birth_year);
    number(out, player.birth_month);
    number(out, player.birth_day);
    number(out, player.weight);
    number(out, player.height);
    text(out, &player.bats);
    text(out, &player.throws);
}

/// A page of rows under its columns' header, built whole: sent at once, with its length.
fn table_page<T>(title: &str, header: &str, rows: &[T], row_cells: impl Fn(&mut String, &T)) -> String {
    let mut out = String::with_capacity(256 + 160 * rows.len());
    write!(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\n\
        <table>\n<tr><th>{header}</th></tr>\n").unwrap();
    for row in rows {
        out.push_str("<tr>");
        row_cells(&mut out, row);
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</body></html>\n");
    out
}

/// The page of a read workload's rows.
pub fn page(title: &str, players: &[Player]) -> String {
    table_page(title, &COLUMNS.join("</th><th>"), players, cells)
}

/// A write workload's page: its rows with the version last.
fn versioned_page(title: &str, rows: &[VersionedPlayer]) -> String {
    let header = format!("{}</th><th>ver", COLUMNS.join("</th><th>"));
    table_page(title, &header, rows, |out, row| {
        cells(out, &row.player);
        number(out, row.ver);
    })
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let reason = self.status.canonical_reason().unwrap_or("");
        let mut body = format!("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{} {reason}</title>\
            </head><body><p>", self.status.as_u16());
        escape_into(&mut body, &self.message);
        body.push_str("</p></body></html>\n");
        let mut response = html(self.status, body);
        if self.status == StatusCode::METHOD_NOT_ALLOWED {
            response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_escapes_as_php_htmlspecialchars_does() {
        let player = Player { name_last: "O'B<&>\"".into(), ..baseline_player() };
        let written = page("single", &[player]);
        assert!(written.starts_with("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>single</title>"));
        assert!(written.contains("<td>Willie</td><td>O&#039;B&lt;&amp;&gt;&quot;</td><td>1972</td>"), "{written}");
        assert!(written.ends_with("</table>\n</body></html>\n"));
    }

    #[test]
    fn the_update_page_shows_the_version_last() {
        let written = versioned_page("update", &[VersionedPlayer { player: baseline_player(), ver: 7 }]);
        assert!(written.contains("<th>throws</th><th>ver</th></tr>\n"), "{written}");
        assert!(written.contains("<td>R</td><td>R</td><td>7</td></tr>\n"), "{written}");
        assert!(written.contains("<title>update</title>"));
    }
}
