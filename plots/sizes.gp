# Throughput and reply time against the payload's row count, one line per app (make size-sweep).
# Called by plots/report.py with -e setting:
#   output, heading        the PDF to write and its title
#   n                      the number of apps; for each i in 1..n:
#   file<i>, title<i>      a data file written by report.py and its legend entry
#   colour<i>              the app's colour ("#rrggbb")
# Columns: rows, saturation req/s (median over the rounds), reply time ms at the lowest passing rate,
# p50 ms at saturation, 1 when the throughput is a lower bound (drawn hollow).

set terminal pdfcairo enhanced color font "Sans,9" size 11in,4.6in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

series(i) = value("file".i)
colour(i) = value("colour".i)

set multiplot layout 1,2 title heading font ",12"
set grid lc rgb "#dddddd"
set logscale xy
set xlabel "rows in the reply (N, log scale)"
set key top right box opaque samplen 3 spacing 1.1 font ",8"

set ylabel "saturation throughput (replies/s, log scale)"
plot for [i=1:n] series(i) using 1:2 with linespoints lc rgb colour(i) pt 7 ps 0.6 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) using 1:($5 > 0 ? $2 : NaN) with points lc rgb colour(i) pt 6 ps 1.4 notitle, \
     keyentry with points lc rgb "black" pt 6 ps 1.4 title "lower bound (client or plan ran out)"

set ylabel "reply time (ms, log scale)"
set key top left
plot for [i=1:n] series(i) using 1:3 with linespoints lc rgb colour(i) pt 7 ps 0.6 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) using 1:4 with points lc rgb colour(i) pt 8 ps 0.7 notitle, \
     keyentry with points lc rgb "black" pt 7 ps 0.6 title "at low load (lowest passing rate)", \
     keyentry with points lc rgb "black" pt 8 ps 0.7 title "p50 at saturation"
unset multiplot
