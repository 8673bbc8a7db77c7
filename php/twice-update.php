<?php
// Test-only: the registry's twice-update-php, in no set. update.php's page, each request's update run
// twice, as a retry that repeats a committed write would: a cheat that the sweep's count of the
// writes must catch (tests/integration/test_database_work.py).
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(function (array $parameters): void {
    update_query($parameters);
    update_page(update_query($parameters));
}, ['POST']);
