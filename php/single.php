<?php
// The single workload: one row by primary key.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    $row = single_query($parameters)->fetch(PDO::FETCH_ASSOC);
    if ($row === false) {
        throw new Refused(404, 'no player with this id');
    }
    page_start('single');
    page_row($row);
    page_end();
});
