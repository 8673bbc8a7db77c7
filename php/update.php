<?php
// The update workload: one row's version raised by primary key, then the row with its version.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(fn (array $parameters) => update_page(update_query($parameters)), ['POST']);
