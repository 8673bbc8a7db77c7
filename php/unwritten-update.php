<?php
// Test-only: the registry's unwritten-update-php, in no set. update.php's page showing the version an
// update would have given, with no update: a cheat that the sweep's count of the writes must catch
// (tests/integration/test_database_work.py).
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $id = player_id($parameters);
    $table = table_for($parameters);
    $row = run_query('SELECT ' . SELECT_COLUMNS . ", ver + 1 AS ver FROM $table WHERE id = ?", $id, false)
        ->fetch(PDO::FETCH_ASSOC);
    update_page($row === false ? null : $row);
}, ['POST']);
