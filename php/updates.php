<?php
// The updates workload: distinct random rows' versions raised one by one, each row then read back.
declare(strict_types=1);
require __DIR__ . '/lab.php';

serve(fn (array $parameters) => versioned_page('updates', updates_query($parameters)), ['POST']);
