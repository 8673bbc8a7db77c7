<?php
// The large workload: every row whose last name matches a LIKE pattern, in id order (16,000 for '%').
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(fn (array $parameters) => table_page('large', large_query($parameters)));
