<?php
// Test-only: the registry's cached-php, in no set. single.php's page kept in a file on its first
// answer and served from there after, as a page cache would: the cheat that the sweep's count of
// the database's work must catch (tests/integration/test_database_work.py). Only a GET of the
// canonical query is cached, and only a 200: anything else is single.php's to answer, so hostile
// input still gets its 4xx and the cache holds at most one file per row and engine.
declare(strict_types=1);

$query = $_SERVER['QUERY_STRING'] ?? '';
$cacheable = $_SERVER['REQUEST_METHOD'] === 'GET'
    && preg_match('/\Aid=[1-9][0-9]{0,9}&engine=(myisam|innodb)\z/', $query) === 1;
$cached = sys_get_temp_dir() . '/lab-cached-single-' . hash('sha256', $query) . '.html';
if ($cacheable && is_file($cached)) {
    header('Content-Type: text/html; charset=utf-8');
    readfile($cached);
    return;
}
if ($cacheable) {
    ob_start(function (string $page) use ($cached): string {
        if (http_response_code() === 200) {
            file_put_contents($cached, $page, LOCK_EX);
        }
        return $page;
    });
}
require __DIR__ . '/single.php';
