<?php
// The payload workload: the first `count` rows by id (1 to 16,000), for the size sweep.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $count = row_count($parameters);
    $table = table_for($parameters);
    rows_page('rows', 'SELECT ' . SELECT_COLUMNS . " FROM $table ORDER BY id LIMIT ?", $count);
});
