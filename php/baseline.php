<?php
// The constant-row baseline: the single-row page of the registry's default id (100), rendered by
// the same code as single.php from a row held in the page, with no database.
declare(strict_types=1);
require __DIR__ . '/lab.php';

const BASELINE_ROW = ['id' => 100, 'playerID' => 'adamswi02', 'nameFirst' => 'Willie', 'nameLast' => 'Adams',
    'birthYear' => 1972, 'birthMonth' => 10, 'birthDay' => 8, 'weight' => 215, 'height' => 79,
    'bats' => 'R', 'throws' => 'R'];

serve(function (array $parameters): void {
    page_start('single');
    page_row(BASELINE_ROW);
    page_end();
});
