"""Pure judgements of what was measured: a step's verdict (verdict), whether other work disturbed it
(disturbance), and what limited a located cell (bottleneck)."""
