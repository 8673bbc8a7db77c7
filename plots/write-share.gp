# The write-share curve (experiments/write-share.json): a column per app, against the share of its
# requests that write. Top: each engine's saturation throughput, the median of the rounds with their
# lowest and highest. Bottom: the second engine's servers' CPU per reply over the first's, by turns,
# with its 95 % interval; above the line at 1 the first engine is the cheaper.
# Called by harness/report/render.py with -e setting:
#   output, heading     the PDF to write and its title
#   n                   the number of apps; for each i in 1..n:
#   file_<i>, title_<i> a data file written by harness/report/write_share.py, the app's name
#   shares              the xtics: "P %" at each place, as gnuplot's set xtics list
#   first, second       the two engines' names (the data's columns 3-5 and 6-8)
# Columns: place, share, first's rps, low, high, second's rps, low, high, CPU ratio, low, high.

set terminal pdfcairo enhanced color font "Sans,9" size (4.2 * n) * 1in, 7.6in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

of(name, i) = value(sprintf("%s_%d", name, i))

set multiplot layout 2,n columnsfirst title heading font ",12"
set grid lc rgb "#dddddd"
set xlabel "share of requests that write"
eval("set xtics (" . shares . ")")
set xrange [-0.4:*]
set offsets 0, 0.4, 0, 0
do for [i=1:n] {
    set title of("title", i)
    set key top right box opaque samplen 3 spacing 1.1 font ",7"
    set ylabel "saturation throughput (replies/s)"
    set yrange [0:*]
    plot of("file", i) using 1:3:4:5 with yerrorlines lc rgb "#1f77b4" pt 7 ps 0.6 lw 1.5 title first, \
         of("file", i) using 1:6:7:8 with yerrorlines lc rgb "#d62728" pt 5 ps 0.6 lw 1.5 title second

    set key top left
    set ylabel sprintf("%s's CPU per reply over %s's (by turns)", second, first)
    set yrange [*:*]
    plot of("file", i) using 1:9:10:11 with yerrorlines lc rgb "black" pt 7 ps 0.6 lw 1.5 title "95 % interval", \
         1 with lines dt 2 lc rgb "#888888" notitle
}
unset multiplot
