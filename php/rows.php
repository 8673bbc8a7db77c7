<?php
// The payload workload: the first `count` rows by id (1 to 16,000), for the size sweep.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(fn (array $parameters) => table_page('rows', rows_query($parameters)));
