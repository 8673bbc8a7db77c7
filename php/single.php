<?php
// The single workload: one row by primary key.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $id = player_id($parameters);
    $table = table_for($parameters);
    $statement = connect()->prepare('SELECT ' . SELECT_COLUMNS . " FROM $table WHERE id = ?");
    $statement->bindValue(1, $id, PDO::PARAM_INT);
    $statement->execute();
    $row = $statement->fetch(PDO::FETCH_ASSOC);
    if ($row === false) {
        throw new Refused(404, 'no player with this id');
    }
    page_start('single');
    page_row($row);
    page_end();
});
