# Throughput and reply time against N, one line per app, one column per workload that grows by N
# (make size-sweep: rows-N per engine, echo-N and the typed echoes), side by side so that the cost of
# each direction shows: rows-N grows the reply only, an echo both the request and the reply.
# Called by plots/report.py with -e setting:
#   output, heading        the PDF to write and its title
#   g                      the number of columns (sized workloads); for each j in 1..g:
#   heading_<j>            the column's title
#   n_<j>                  its number of apps; for each i in 1..n_<j>:
#   file_<j>_<i>, title_<j>_<i>, colour_<j>_<i>   a data file written by report.py, its legend entry, "#rrggbb"
#   levels_<j>             its number of reference lines (the engine-less SOAP baselines' getQuote);
#                          for each k: level_<j>_<k> (req/s), leveltitle_<j>_<k>, levelcolour_<j>_<k>
# Columns: N, saturation req/s (median over the rounds), reply time ms at the lowest passing rate,
# p50 ms at saturation, 1 when the throughput is a lower bound (drawn hollow).

set terminal pdfcairo enhanced color font "Sans,9" size (5.5 * g) * 1in, 8.6in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

at(name, j) = value(sprintf("%s_%d", name, j))
of(name, j, i) = value(sprintf("%s_%d_%d", name, j, i))

set multiplot layout 2,g columnsfirst title heading font ",12"
set grid lc rgb "#dddddd"
set logscale xy
set xlabel "N (log scale)"
do for [j=1:g] {
    set title at("heading", j)
    set key top right box opaque samplen 3 spacing 1.1 font ",7"
    set ylabel "saturation throughput (replies/s, log scale)"
    plot for [i=1:at("n", j)] of("file", j, i) using 1:2 with linespoints lc rgb of("colour", j, i) pt 7 ps 0.6 lw 1.5 title of("title", j, i), \
         for [i=1:at("n", j)] of("file", j, i) using 1:($5 > 0 ? $2 : NaN) with points lc rgb of("colour", j, i) pt 6 ps 1.4 notitle, \
         for [k=1:at("levels", j)] of("level", j, k) with lines dt 2 lw 1.2 lc rgb of("levelcolour", j, k) title of("leveltitle", j, k), \
         keyentry with points lc rgb "black" pt 6 ps 1.4 title "lower bound (client or plan ran out)"

    set key top left
    set ylabel "reply time (ms, log scale)"
    plot for [i=1:at("n", j)] of("file", j, i) using 1:3 with linespoints lc rgb of("colour", j, i) pt 7 ps 0.6 lw 1.5 title of("title", j, i), \
         for [i=1:at("n", j)] of("file", j, i) using 1:4 with points lc rgb of("colour", j, i) pt 8 ps 0.7 notitle, \
         keyentry with points lc rgb "black" pt 7 ps 0.6 title "at low load (lowest passing rate)", \
         keyentry with points lc rgb "black" pt 8 ps 0.7 title "p50 at saturation"
}
unset multiplot
