"""The lab's harness, grouped by what each part does; the lower never imports the higher. One command
line over it all: `python3 -m harness VERB` (cli).

- drivers/  the load drivers, pure: each load generator's command and its output read as figures.
- measure/  the instruments of a step: the load generators run, the per-step monitors, /proc, ports and the TCP counters, the JVM's compiler.
- results/  the results format, with one owner: records, files, the manifest, the rounds' statistics.
- judge/    pure judgements of what was measured: a step's verdict, disturbance, the bottleneck.
- hosts/    where the servers run: a server as the sweep drives it, here or through the agent on
            its host, the step monitors across hosts, the hosts' versions and machine.
- run/      running a run: the options, a step, a cell's procedure, the guard, the warm-ups, the
            rounds' order, progress, and the verbs that measure (the sweep, the cross-check...).
- report/   the report of a run: tables, data files and gnuplot; the verbs `plots` and `compare`.

The pure core (parsers, judge, results, planner, schedule, progress, report's tables) is unit-tested
on recorded outputs; the edges run processes and servers.
"""
