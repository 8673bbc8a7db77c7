<?php
// The large workload: every row whose last name matches a LIKE pattern, in id order (16,000 for '%').
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $name = name_pattern($parameters);
    $table = table_for($parameters);
    $db = connect();
    // Unbuffered: rows are streamed from the server to the client, never held whole in PHP.
    $db->setAttribute(PDO::MYSQL_ATTR_USE_BUFFERED_QUERY, false);
    $statement = $db->prepare('SELECT ' . SELECT_COLUMNS . " FROM $table WHERE nameLast LIKE ? ORDER BY id");
    $statement->bindValue(1, $name, PDO::PARAM_STR);
    $statement->execute();
    page_start('large');
    while (($row = $statement->fetch(PDO::FETCH_ASSOC)) !== false) {
        page_row($row);
    }
    page_end();
});
