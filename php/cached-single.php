<?php
// Test-only: the registry's cached-php, in no set. single.php's page kept in a file on its first
// answer and served from there after, as a page cache would: the cheat that the sweep's count of
// the database's work must catch (tests/integration/test_database_work.py).
declare(strict_types=1);

$cached = sys_get_temp_dir() . '/lab-cached-single-' . hash('sha256', $_SERVER['QUERY_STRING'] ?? '') . '.html';
if (is_file($cached)) {
    header('Content-Type: text/html; charset=utf-8');
    readfile($cached);
    return;
}
ob_start(function (string $page) use ($cached): string {
    if (http_response_code() === 200) {
        file_put_contents($cached, $page, LOCK_EX);
    }
    return $page;
});
require __DIR__ . '/single.php';
