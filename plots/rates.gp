# Reply rate and reply time against offered rate for one or more series (one page, two panels).
# Called by plots/report.py with -e setting:
#   output, heading        the PDF to write and its title
#   n                      the number of series; for each i in 1..n:
#   file<i>, title<i>      a data file written by report.py and its legend entry
#   colour<i>, dash<i>     the series' colour ("#rrggbb") and gnuplot dash type
#   logx                   1 when the offered rates span more than a decade
#   svg                    1: an SVG of the same figure (the HTML report's) instead of a PDF
# Each data file holds three blocks: 0 = judged steps (pass or fail, joined in order of offered rate),
# 1 = steps not judged: client-bound or disturbed (drawn apart, never joined), 2 = the saturation point.
# Columns: offered req/s, reply req/s, reply time ms (mean), verdict, raw httperf output, p50 ms,
# p99 ms (from httperf's connection-lifetime histogram; NaN in runs recorded before it), response ms
# (httperf's response time, to the first byte: the 2006 study's "response time"; the mean reply time
# adds the transfer to the last byte).

if (exists("svg") && svg) {
    set terminal svg enhanced font "Sans,9" size 1100,460 background rgb "white"
} else {
    set terminal pdfcairo enhanced color font "Sans,9" size 11in,4.6in
}
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
if (logx) { set logscale x }
set xlabel "offered rate (requests/s)"

set ylabel "reply rate (replies/s)"
set yrange [0:*]
plot for [i=1:n] series(i) index 0 using 1:2 with linespoints lc rgb colour(i) dt dash(i) pt 7 ps 0.5 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) index 1 using 1:2 with points lc rgb colour(i) pt 6 ps 1.2 notitle, \
     for [i=1:n] series(i) index 2 using 1:2 with points lc rgb colour(i) pt 13 ps 1.6 notitle, \
     x with lines lc rgb "#888888" dt 3 title "ideal: reply = offered", \
     keyentry with points lc rgb "black" pt 13 ps 1.3 title "saturation point", \
     keyentry with points lc rgb "black" pt 6 ps 1.2 title "client-bound or disturbed step (not judged)"

set ylabel "reply time (ms, request sent to last byte; log scale)"
set logscale y
set yrange [*:*]
set key top left
plot for [i=1:n] series(i) index 0 using 1:3 with linespoints lc rgb colour(i) dt dash(i) pt 7 ps 0.5 lw 1.5 title value("title".i), \
     for [i=1:n] series(i) index 1 using 1:3 with points lc rgb colour(i) pt 6 ps 1.2 notitle, \
     for [i=1:n] series(i) index 2 using 1:3 with points lc rgb colour(i) pt 13 ps 1.6 notitle, \
     for [i=1:n] series(i) index 0 using 1:6 with points lc rgb colour(i) pt 2 ps 0.5 notitle, \
     for [i=1:n] series(i) index 0 using 1:7 with points lc rgb colour(i) pt 8 ps 0.6 notitle, \
     for [i=1:n] series(i) index 0 using 1:8 with lines lc rgb colour(i) dt 3 lw 1 notitle, \
     keyentry with points lc rgb "black" pt 7 ps 0.5 title "mean", \
     keyentry with lines lc rgb "black" dt 3 lw 1 title "response: to the first byte (the 2006 study's)", \
     keyentry with points lc rgb "black" pt 2 ps 0.5 title "p50 (1 ms bins)", \
     keyentry with points lc rgb "black" pt 8 ps 0.6 title "p99 (1 ms bins)"
unset multiplot
