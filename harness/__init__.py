"""The lab's harness: the sweep behind httperf-scripts/sweep.py and the report behind plots/report.py.

Pure core (unit-tested on recorded outputs): httperf_output (parse), verdict (judge), planner (next
rate), results (the records and files of a run), progress, verify's parsing, report's tables.
Edges (processes, servers, files): load (httperf, wrk, HTTP), ports, monitors (what is watched
during a step), hosts (the servers, here or on their hosts through agent over ssh), inventory
(versions, host), probe, guard (health and recovery), step, procedure
(one cell), runner (the run), and report's rendering (gnuplot).
"""
