<?php
// The large workload: every row whose last name matches a LIKE pattern, in id order (16,000 for '%').
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $name = name_pattern($parameters);
    $table = table_for($parameters);
    rows_page('large', 'SELECT ' . SELECT_COLUMNS . " FROM $table WHERE nameLast LIKE ? ORDER BY id", $name);
});
