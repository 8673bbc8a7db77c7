"""Running a run: its options, one step (step), one cell (procedure, probe, planner, verify, guard),
a JIT server's warm-up (jvm_warmup), the rounds' order (schedule), the run itself (runner, progress,
session), and the verbs that measure (harness/cli.py: sweep, crosscheck, concurrency-sweep, profile...)."""
