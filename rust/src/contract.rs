//! The rules of contract/README.md: the columns, the engine-to-table map, the workloads' statements
//! and how their parameters are checked.
use std::collections::HashMap;

use axum::http::StatusCode;

pub const COLUMNS: [&str; 11] = ["id", "playerID", "nameFirst", "nameLast", "birthYear", "birthMonth",
    "birthDay", "weight", "height", "bats", "throws"];
const MAX_NAME_LENGTH: usize = 64;
const MAX_ROW_COUNT: u32 = 16_000;
/// The most rows an updates request raises: TechEmpower's top level of its updates test.
const MAX_UPDATES: i64 = 20;

/// An answer of the contract's validation table: its status and message.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into() }
    }

    fn bad_request(message: impl Into<String>) -> Self {
        Refusal::new(StatusCode::BAD_REQUEST, message)
    }
}

/// A query's one parameter.
#[derive(Debug, PartialEq)]
pub enum Argument {
    Number(i64),
    Text(String),
}

/// One of the contract's SELECTs with its parameter, checked.
#[derive(Debug, PartialEq)]
pub struct Query {
    pub sql: String,
    pub argument: Argument,
}

/// A write workload's two statements on each of its ids: a row's version raised, then the row read
/// back with it.
#[derive(Debug, PartialEq)]
pub struct Update {
    pub raise: String,
    pub read: String,
    pub ids: Vec<i64>,
}

impl Update {
    fn of(table: &str, ids: Vec<i64>) -> Self {
        Update { raise: format!("UPDATE {table} SET ver = ver + 1 WHERE id = ?"),
            read: format!("SELECT {}, ver FROM {table} WHERE id = ?", COLUMNS.join(", ")), ids }
    }
}

/// A query string's values by name.
pub type Parameters = HashMap<String, Vec<String>>;

/// Percent-decoding with '+' as a space; None when an escape is malformed or the bytes are not UTF-8.
fn decode(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        rest = tail;
        bytes.push(match first {
            b'+' => b' ',
            b'%' => {
                let hex = std::str::from_utf8(rest.get(..2)?).ok()?;
                rest = &rest[2..];
                u8::from_str_radix(hex, 16).ok()?
            }
            other => other,
        });
    }
    String::from_utf8(bytes).ok()
}

const KNOWN_PARAMETERS: [&str; 5] = ["id", "name", "count", "queries", "engine"];

/// Whether a '%' of the text does not begin an escape of two hex digits (RFC 3986, section 2.1).
fn malformed_escape(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, &byte)| {
        byte == b'%' && !bytes.get(at + 1..at + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    })
}

/// A raw query string split on '&' alone, as PHP and Tomcat split it. One whose percent-encoding is
/// malformed anywhere does not decode: every known parameter reads as U+FFFD, so that the contract's
/// first check refuses it, as Tomcat 11 refuses such a query string whole; a value whose escapes are
/// not UTF-8 reads as U+FFFD, so that the name check refuses it.
pub fn parse_query(raw: &str) -> Parameters {
    let mut parameters = Parameters::new();
    if malformed_escape(raw) {
        for name in KNOWN_PARAMETERS {
            parameters.insert(name.to_owned(), vec![char::REPLACEMENT_CHARACTER.to_string()]);
        }
        return parameters;
    }
    for pair in raw.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if let Some(key) = decode(key) {
            let value = decode(value).unwrap_or_else(|| char::REPLACEMENT_CHARACTER.to_string());
            parameters.entry(key).or_default().push(value);
        }
    }
    parameters
}

/// A parameter's one value, present or not; given more than once it is refused.
fn one<'a>(parameters: &'a Parameters, name: &str) -> Result<Option<&'a str>, Refusal> {
    match parameters.get(name).map(Vec::as_slice) {
        None => Ok(None),
        Some([value]) => Ok(Some(value)),
        Some(_) => Err(Refusal::bad_request(format!("parameter {name} given more than once"))),
    }
}

/// The fixed table for an engine name (myisam when absent); the name never reaches SQL.
fn table(parameters: &Parameters) -> Result<&'static str, Refusal> {
    match one(parameters, "engine")? {
        None | Some("myisam") => Ok("people_myisam"),
        Some("innodb") => Ok("people_innodb"),
        Some(_) => Err(Refusal::bad_request("engine must be myisam or innodb")),
    }
}

fn select(table: &str, rest: &str) -> String {
    format!("SELECT {} FROM {table} {rest}", COLUMNS.join(", "))
}

/// A number of at most `digits` digits, the first not 0, at most `max`.
fn bounded(text: Option<&str>, digits: usize, max: i64) -> Option<i64> {
    let text = text?;
    let well_formed = (1..=digits).contains(&text.len())
        && !text.starts_with('0')
        && text.bytes().all(|byte| byte.is_ascii_digit());
    well_formed.then(|| text.parse().ok()).flatten().filter(|&number| number <= max)
}

/// The single row and the update's: the id, then the engine.
fn id_and_table(parameters: &Parameters) -> Result<(i64, &'static str), Refusal> {
    let id = bounded(one(parameters, "id")?, 10, i64::from(i32::MAX))
        .ok_or_else(|| Refusal::bad_request("id must be an integer from 1 to 2147483647"))?;
    Ok((id, table(parameters)?))
}

pub fn single(parameters: &Parameters) -> Result<Query, Refusal> {
    let (id, table) = id_and_table(parameters)?;
    Ok(Query { sql: select(table, "WHERE id = ?"), argument: Argument::Number(id) })
}

/// The update: checked as the single row is.
pub fn update(parameters: &Parameters) -> Result<Update, Refusal> {
    let (id, table) = id_and_table(parameters)?;
    Ok(Update::of(table, vec![id]))
}

/// The updates: the count, then the engine; that many distinct ids, each uniform over the table's
/// (rand's sampling without replacement; TechEmpower's axum draws its own with rand too).
pub fn updates(parameters: &Parameters) -> Result<Update, Refusal> {
    let count = bounded(one(parameters, "queries")?, 2, MAX_UPDATES)
        .ok_or_else(|| Refusal::bad_request(format!("queries must be an integer from 1 to {MAX_UPDATES}")))?;
    let table = table(parameters)?;
    let drawn = rand::seq::index::sample(&mut rand::thread_rng(), MAX_ROW_COUNT as usize, count as usize);
    Ok(Update::of(table, drawn.iter().map(|index| index as i64 + 1).collect()))
}

/// The large page: the name (a LIKE pattern, '%' when absent), then the engine.
pub fn large(parameters: &Parameters) -> Result<Query, Refusal> {
    let name = one(parameters, "name")?.unwrap_or("%");
    if !is_text(name) {
        return Err(Refusal::bad_request("name must be at most 64 characters of text"));
    }
    let sql = select(table(parameters)?, "WHERE nameLast LIKE ? ORDER BY id");
    Ok(Query { sql, argument: Argument::Text(name.to_owned()) })
}

/// The first rows: the count, then the engine.
pub fn rows(parameters: &Parameters) -> Result<Query, Refusal> {
    let count = bounded(one(parameters, "count")?, 5, i64::from(MAX_ROW_COUNT))
        .ok_or_else(|| Refusal::bad_request(format!("count must be an integer from 1 to {MAX_ROW_COUNT}")))?;
    Ok(Query { sql: select(table(parameters)?, "ORDER BY id LIMIT ?"), argument: Argument::Number(count) })
}

/// At most 64 characters, none a control character or U+FFFD.
fn is_text(name: &str) -> bool {
    name.chars().count() <= MAX_NAME_LENGTH
        && !name.chars().any(|c| c < '\u{20}' || c == '\u{7f}' || c == char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(check: fn(&Parameters) -> Result<Query, Refusal>, raw: &str, message: &str) {
        assert_eq!(check(&parse_query(raw)), Err(Refusal::bad_request(message)), "{raw}");
    }

    #[test]
    fn a_query_string_is_split_on_ampersands_alone_and_decoded() {
        let parameters = parse_query("name=O%27Br+ien;x&engine=innodb&&id=1&id=2");
        assert_eq!(parameters["name"], ["O'Br ien;x"]);
        assert_eq!(parameters["id"], ["1", "2"]);
        assert_eq!(parameters["engine"], ["innodb"]);
    }

    #[test]
    fn a_value_that_does_not_decode_reads_as_the_replacement_character() {
        assert_eq!(parse_query("name=%FF")["name"], ["\u{FFFD}"]);
        assert_eq!(parse_query("name=%zz")["name"], ["\u{FFFD}"]);
        assert_eq!(parse_query("name=%4")["name"], ["\u{FFFD}"]);
        refused(large, "name=%FF", "name must be at most 64 characters of text");
    }

    #[test]
    fn a_malformed_escape_anywhere_leaves_every_known_parameter_undecodable() {
        for raw in ["id=1&bad=%zz", "name=%", "id=1&%4=x", "count=100%"] {
            let parameters = parse_query(raw);
            for name in KNOWN_PARAMETERS {
                assert_eq!(parameters[name], ["\u{FFFD}"], "{raw}");
            }
        }
        refused(single, "id=1&engine=%ZZ", "id must be an integer from 1 to 2147483647");
        refused(rows, "count=1&unknown=%", "count must be an integer from 1 to 16000");
    }

    #[test]
    fn each_workload_checks_its_parameter_then_the_engine() {
        let query = single(&parse_query("id=2147483647&engine=innodb")).unwrap();
        assert_eq!(query.sql, "SELECT id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, \
            weight, height, bats, throws FROM people_innodb WHERE id = ?");
        assert_eq!(query.argument, Argument::Number(2_147_483_647));
        refused(single, "id=2147483648", "id must be an integer from 1 to 2147483647");
        refused(single, "id=01", "id must be an integer from 1 to 2147483647");
        refused(single, "id=+1", "id must be an integer from 1 to 2147483647");
        refused(single, "engine=nope", "id must be an integer from 1 to 2147483647");
        refused(single, "id=1&engine=MyISAM", "engine must be myisam or innodb");
        refused(rows, "count=16001", "count must be an integer from 1 to 16000");
        assert_eq!(rows(&parse_query("count=16000")).unwrap().argument, Argument::Number(16_000));
        assert!(rows(&parse_query("count=1")).unwrap().sql.ends_with("FROM people_myisam ORDER BY id LIMIT ?"));
        assert_eq!(large(&parse_query("")).unwrap().argument, Argument::Text("%".into()));
        refused(large, "name=a&name=b", "parameter name given more than once");
    }

    #[test]
    fn the_update_is_checked_as_the_single_row_then_raises_the_version_and_reads_the_row_with_it() {
        assert_eq!(update(&parse_query("id=0&engine=nope")),
                   Err(Refusal::bad_request("id must be an integer from 1 to 2147483647")));
        let statements = update(&parse_query("id=7&engine=innodb")).unwrap();
        assert_eq!(statements.raise, "UPDATE people_innodb SET ver = ver + 1 WHERE id = ?");
        assert!(statements.read.ends_with(", throws, ver FROM people_innodb WHERE id = ?"), "{}", statements.read);
        assert_eq!(statements.ids, [7]);
    }

    #[test]
    fn the_updates_check_their_count_then_the_engine_and_draw_distinct_ids_of_the_table() {
        for queries in ["", "0", "01", "21", "99", "1.5", "+1", "abc"] {
            assert_eq!(updates(&parse_query(&format!("queries={queries}"))),
                       Err(Refusal::bad_request("queries must be an integer from 1 to 20")), "{queries}");
        }
        assert_eq!(updates(&parse_query("queries=20&engine=nope")),
                   Err(Refusal::bad_request("engine must be myisam or innodb")));
        for _ in 0..1000 {
            let mut ids = updates(&parse_query("queries=20&engine=innodb")).unwrap().ids;
            assert!(ids.iter().all(|id| (1..=16_000).contains(id)), "{ids:?}");
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), 20);
        }
    }

    #[test]
    fn a_name_is_at_most_64_characters_none_a_control_character() {
        assert!(large(&parse_query(&format!("name={}", "é".repeat(64)))).is_ok());
        refused(large, &format!("name={}", "é".repeat(65)), "name must be at most 64 characters of text");
        for control in ["a%00", "a%7F", "%EF%BF%BD"] {
            refused(large, &format!("name={control}"), "name must be at most 64 characters of text");
        }
    }
}
