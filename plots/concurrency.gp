# Throughput and latency against concurrency (make concurrency-sweep): one page, two panels, a line
# per app (and engine). Called by harness/report/concurrency.py with -e setting:
#   output, heading        the PDF page to write and its title
#   driver                 the load generator's name (wrk, ab)
#   n                      the number of series; for each i in 1..n:
#   file<i>, title<i>      a data file and its legend entry
#   colour<i>, dash<i>     the series' colour ("#rrggbb") and gnuplot dash type
# Each data file holds four blocks: 0 = the levels no flag bound (joined), 1 = flagged levels (the
# client ran out, a server's connection cap, errors, other work: drawn apart, never joined), 2 = the
# peak, 3 = the knee. Columns: connections, replies/s, p50 ms, p99 ms, wrk's first raw report.

set terminal pdfcairo enhanced color font "Sans,9" size 11in,4.6in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

series(i) = value("file".i)
colour(i) = value("colour".i)
dash(i) = value("dash".i)

set multiplot layout 1,2 title heading font ",12"
set grid lc rgb "#dddddd"
set key top left box opaque samplen 3 spacing 1.1 font ",8"
set logscale x 2
set xrange [0.8:1300]
set xlabel sprintf("concurrent connections (%s, closed loop)", driver)

set ylabel "throughput (replies/s)"
set yrange [0:*]
plot for [i=1:n] series(i) index 0 using 1:2 with linespoints lc rgb colour(i) dt dash(i) pt 7 ps 0.5 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) index 1 using 1:2 with points lc rgb colour(i) pt 6 ps 1.2 notitle, \
     for [i=1:n] series(i) index 2 using 1:2 with points lc rgb colour(i) pt 13 ps 1.6 notitle, \
     keyentry with points lc rgb "black" pt 13 ps 1.3 title "peak", \
     keyentry with points lc rgb "black" pt 6 ps 1.2 title "flagged level (client, server cap, errors, other work)"

set ylabel "latency (ms, log scale): p99 solid, p50 dotted"
set logscale y
set yrange [*:*]
plot for [i=1:n] series(i) index 0 using 1:4 with linespoints lc rgb colour(i) dt dash(i) pt 7 ps 0.5 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) index 0 using 1:3 with lines lc rgb colour(i) dt 3 lw 1 notitle, \
     for [i=1:n] series(i) index 1 using 1:4 with points lc rgb colour(i) pt 6 ps 1.2 notitle, \
     for [i=1:n] series(i) index 3 using 1:4 with points lc rgb colour(i) pt 9 ps 1.6 notitle, \
     keyentry with points lc rgb "black" pt 9 ps 1.3 title "knee: p99 past twice the lowest level's", \
     keyentry with points lc rgb "black" pt 6 ps 1.2 title "flagged level"
unset multiplot
