# The speed canary against the servers' cost (harness/results/calibration.py): one point per cell and
# round, the machine's slowness at saturation (1 / the canary's speed) across, the servers' CPU ms per
# reply over the cell's median up; one colour per app. Called by plots/report.py with -e setting:
#   output, heading        the PDF to write and its title (with Pearson's r)
#   n                      the number of apps; for each i in 1..n:
#   file<i>, title<i>      a data file written by report.py and its legend entry
#   colour<i>              the app's colour ("#rrggbb")
# Columns: slowness, relative cost, round.

set terminal pdfcairo enhanced color font "Sans,9" size 11in,4.6in
set output output
set datafile separator "\t"
set termoption noenhanced

series(i) = value("file".i)
colour(i) = value("colour".i)

set title heading font ",12"
set grid lc rgb "#dddddd"
set xlabel "machine slowness at saturation (1 / the speed canary's speed; 1 = the run's reference)"
set ylabel "servers' CPU ms per reply (over the cell's median)"
set key outside right top box opaque samplen 2 spacing 1.1 font ",8"
plot for [i=1:n] series(i) using 1:2 with points lc rgb colour(i) pt 7 ps 0.9 title value("title".i), \
     1 with lines lc rgb "#999999" dt 2 notitle
