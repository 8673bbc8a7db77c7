<?php
// Shared by the pages (single.php, large.php, rows.php, update.php, updates.php) and PHP's SOAP service (soap-php/): the
// contract's parameter rules, its queries, the database connection and the HTML shape
// (contract/README.md). Plain PDO: a new connection per request, or, where Apache sets
// LAB_DB_PERSISTENT (the php-persistent app), one kept open by each prefork worker.
declare(strict_types=1);

const TABLES = ['myisam' => 'people_myisam', 'innodb' => 'people_innodb'];
const COLUMNS = ['id', 'playerID', 'nameFirst', 'nameLast', 'birthYear', 'birthMonth', 'birthDay',
                 'weight', 'height', 'bats', 'throws'];
// The rows workload's largest count: the whole table, so no request can ask for more.
const MAX_ROW_COUNT = 16000;
const SELECT_COLUMNS = 'id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws';
// The update page's columns: the row's and its version, which only the write workloads show.
const VERSIONED_COLUMNS = [...COLUMNS, 'ver'];
// The updates workload's most rows a request raises: TechEmpower's top level of its updates test.
const MAX_UPDATES = 20;
const KNOWN_PARAMETERS = ['id', 'name', 'count', 'queries', 'engine'];
// A '%' that does not begin an escape of two hex digits (RFC 3986, section 2.1); urldecode would keep it as text.
const MALFORMED_ESCAPE = '/%(?![0-9A-Fa-f]{2})/';
const UNDECODABLE = "\u{FFFD}";

final class Refused extends Exception
{
    public function __construct(public readonly int $status, string $message)
    {
        parent::__construct($message);
    }
}

function escape(string $value): string
{
    return htmlspecialchars($value, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML401, 'UTF-8');
}

/**
 * Query parameters as the servlet API sees them: each name may repeat, so repeats can be refused. A
 * query string whose percent-encoding is malformed anywhere does not decode: every known parameter
 * reads as U+FFFD, so that the contract's first check refuses it, as Tomcat 11 refuses it whole.
 */
function query_parameters(): array
{
    $query = $_SERVER['QUERY_STRING'] ?? '';
    if (preg_match(MALFORMED_ESCAPE, $query)) {
        return array_fill_keys(KNOWN_PARAMETERS, [UNDECODABLE]);
    }
    $parameters = [];
    foreach (explode('&', $query) as $pair) {
        if ($pair === '') {
            continue;
        }
        [$name, $value] = array_pad(explode('=', $pair, 2), 2, '');
        $parameters[urldecode($name)][] = urldecode($value);
    }
    return $parameters;
}

function parameter(array $parameters, string $name): ?string
{
    $values = $parameters[$name] ?? [];
    if (count($values) > 1) {
        throw new Refused(400, "parameter $name given more than once");
    }
    return $values[0] ?? null;
}

function table_for(array $parameters): string
{
    $engine = parameter($parameters, 'engine') ?? 'myisam';
    if (!isset(TABLES[$engine])) {
        throw new Refused(400, 'engine must be myisam or innodb');
    }
    return TABLES[$engine];
}

function player_id(array $parameters): int
{
    $id = parameter($parameters, 'id') ?? '';
    if (preg_match('/^[1-9][0-9]{0,9}$/D', $id) !== 1 || (int) $id > 2147483647) {
        throw new Refused(400, 'id must be an integer from 1 to 2147483647');
    }
    return (int) $id;
}

function name_pattern(array $parameters): string
{
    $name = parameter($parameters, 'name') ?? '%';
    // One pattern: valid UTF-8, no control characters, at most 64 characters.
    if (preg_match('/^[^\x00-\x1f\x7f\x{FFFD}]{0,64}$/uD', $name) !== 1) {
        throw new Refused(400, 'name must be at most 64 characters of text');
    }
    return $name;
}

function row_count(array $parameters): int
{
    $count = parameter($parameters, 'count') ?? '';
    if (preg_match('/^[1-9][0-9]{0,4}$/D', $count) !== 1 || (int) $count > MAX_ROW_COUNT) {
        throw new Refused(400, 'count must be an integer from 1 to ' . MAX_ROW_COUNT);
    }
    return (int) $count;
}

function update_count(array $parameters): int
{
    $queries = parameter($parameters, 'queries') ?? '';
    if (preg_match('/^[1-9][0-9]?$/D', $queries) !== 1 || (int) $queries > MAX_UPDATES) {
        throw new Refused(400, 'queries must be an integer from 1 to ' . MAX_UPDATES);
    }
    return (int) $queries;
}

/** Distinct ids, each uniform over the table's, by mt_rand as TechEmpower's PHP entries draw theirs. */
function drawn_ids(int $count): array
{
    $ids = [];
    while (count($ids) < $count) {
        $ids[mt_rand(1, MAX_ROW_COUNT)] = true;
    }
    return array_keys($ids);
}

function connect(): PDO
{
    $dsn = sprintf('mysql:host=%s;port=%s;dbname=%s;charset=utf8mb4',
        $_SERVER['LAB_DB_HOST'], $_SERVER['LAB_DB_PORT'], $_SERVER['LAB_DB_NAME']);
    return new PDO($dsn, $_SERVER['LAB_DB_USER'], $_SERVER['LAB_DB_PASSWORD'], [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_TIMEOUT => 5,
        PDO::ATTR_PERSISTENT => ($_SERVER['LAB_DB_PERSISTENT'] ?? '') === '1',
    ]);
}

/**
 * Runs one of the contract's queries with its one bound value; streamed queries (up to 16,000 rows)
 * are unbuffered, so rows flow from the server to the client and are never held whole in PHP.
 */
function run_query(string $sql, int|string $value, bool $streamed, ?PDO $db = null): PDOStatement
{
    $db ??= connect();
    $db->setAttribute(PDO::MYSQL_ATTR_USE_BUFFERED_QUERY, !$streamed);
    $statement = $db->prepare($sql);
    $statement->bindValue(1, $value, is_int($value) ? PDO::PARAM_INT : PDO::PARAM_STR);
    $statement->execute();
    return $statement;
}

/** The single workload: one row by primary key (checks the id, then the engine). */
function single_query(array $parameters): PDOStatement
{
    $id = player_id($parameters);
    $table = table_for($parameters);
    return run_query('SELECT ' . SELECT_COLUMNS . " FROM $table WHERE id = ?", $id, false);
}

/** The large workload: every row whose last name matches a LIKE pattern, in id order. */
function large_query(array $parameters): PDOStatement
{
    $name = name_pattern($parameters);
    $table = table_for($parameters);
    return run_query('SELECT ' . SELECT_COLUMNS . " FROM $table WHERE nameLast LIKE ? ORDER BY id", $name, true);
}

/** The payload workload: the first `count` rows by id. */
function rows_query(array $parameters): PDOStatement
{
    $count = row_count($parameters);
    $table = table_for($parameters);
    return run_query('SELECT ' . SELECT_COLUMNS . " FROM $table ORDER BY id LIMIT ?", $count, true);
}

/**
 * The update workload: one row's version raised by one, in autocommit (no transaction: one statement,
 * committed alone, as TechEmpower's updates ran each), then the row read back with its version on the
 * same connection; null when no row has the id, and then nothing was written. Never retried.
 */
function update_query(array $parameters): ?array
{
    $id = player_id($parameters);
    return raised_row(connect(), table_for($parameters), $id);
}

/**
 * The updates workload: distinct random rows, each raised and read back as update's is, every
 * statement committed alone (TechEmpower's rule: a transaction holds one read and one write at most),
 * in the order drawn, on one connection.
 */
function updates_query(array $parameters): array
{
    $count = update_count($parameters);
    $table = table_for($parameters);
    $db = connect();
    return array_filter(array_map(fn (int $id) => raised_row($db, $table, $id), drawn_ids($count)));
}

function raised_row(PDO $db, string $table, int $id): ?array
{
    if (run_query("UPDATE $table SET ver = ver + 1 WHERE id = ?", $id, false, $db)->rowCount() === 0) {
        return null;
    }
    $row = run_query('SELECT ' . SELECT_COLUMNS . ", ver FROM $table WHERE id = ?", $id, false, $db)->fetch(PDO::FETCH_ASSOC);
    return $row === false ? null : $row;
}

function page_start(string $title, array $columns = COLUMNS): void
{
    header('Content-Type: text/html; charset=utf-8');
    echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>$title</title></head><body>\n<table>\n<tr>";
    foreach ($columns as $column) {
        echo "<th>$column</th>";
    }
    echo "</tr>\n";
}

function page_row(array $row, array $columns = COLUMNS): void
{
    echo '<tr>';
    foreach ($columns as $column) {
        echo '<td>', escape((string) $row[$column]), '</td>';
    }
    echo "</tr>\n";
}

function page_end(): void
{
    echo "</table>\n</body></html>\n";
}

/** The update page: the row with its version, or the single page's 404 when no row has the id. */
function update_page(?array $row): void
{
    if ($row === null) {
        throw new Refused(404, 'no player with this id');
    }
    versioned_page('update', [$row]);
}

/** The rows that writes raised, each with its version. */
function versioned_page(string $title, array $rows): void
{
    page_start($title, VERSIONED_COLUMNS);
    foreach ($rows as $row) {
        page_row($row, VERSIONED_COLUMNS);
    }
    page_end();
}

/** A page of every row a query returns (none: an empty table). */
function table_page(string $title, PDOStatement $statement): void
{
    page_start($title);
    while (($row = $statement->fetch(PDO::FETCH_ASSOC)) !== false) {
        page_row($row);
    }
    page_end();
}

function error_page(int $status, string $message): void
{
    $reasons = [400 => 'Bad Request', 404 => 'Not Found', 405 => 'Method Not Allowed',
                503 => 'Service Unavailable'];
    http_response_code($status);
    header('Content-Type: text/html; charset=utf-8');
    echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>$status {$reasons[$status]}</title>",
         '</head><body><p>', escape($message), "</p></body></html>\n";
}

/**
 * Ends a page already begun whose database failed under it by cutting its connection, so that no
 * client takes a page cut short for a whole one. PHP cannot abort a response it has begun: the
 * server would end the chunked body as if whole. So the worker ends itself, as a crash would, and
 * its server closes the connection without the body's last chunk (prefork's child is the worker;
 * mod_proxy_fcgi sees its PHP-FPM backend break) and starts another worker.
 */
function cut_connection(): never
{
    flush();
    posix_kill(getmypid(), SIGKILL_NUMBER);
    exit(1); // not reached: SIGKILL cannot be caught
}

const SIGKILL_NUMBER = 9; // pcntl's SIGKILL, whose extension the web SAPIs do not load

/**
 * Runs one page: validation failures become 4xx, an unreachable database (or a lock it waited for past
 * its timeout) a 503, never a trace. A reading page answers GET and HEAD, a writing one POST alone.
 */
function serve(callable $page, array $methods = ['GET', 'HEAD']): void
{
    if (!in_array($_SERVER['REQUEST_METHOD'], $methods, true)) {
        header('Allow: ' . implode(', ', $methods));
        error_page(405, 'method not allowed');
        return;
    }
    try {
        $page(query_parameters());
    } catch (Refused $e) {
        error_page($e->status, $e->getMessage());
    } catch (PDOException $e) {
        error_log('lab: database error: ' . $e->getMessage());
        if (!headers_sent()) {
            error_page(503, 'database unavailable');
        } else {
            cut_connection();
        }
    }
}
