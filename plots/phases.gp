# Where a SOAP request's time goes against N (make soap-phases): one column per workload kind (rows-N,
# echo-N), one row per phase (un-marshal, business logic, marshal), one line per engine, log-log.
# Called by harness/report/render.py with -e setting:
#   output, heading        the PDF to write and its title
#   g                      the number of columns (workload kinds); for each j in 1..g:
#   heading_<j>            the column's title
#   n_<j>                  its number of engines; for each i in 1..n_<j>:
#   file_<j>_<i>, title_<j>_<i>, colour_<j>_<i>   a data file (N, then each phase in ms), its legend entry, "#rrggbb"

set terminal pdfcairo enhanced color font "Sans,9" size (5.5 * g) * 1in, 11in
set output output
set termoption noenhanced

at(name, j) = value(sprintf("%s_%d", name, j))
of(name, j, i) = value(sprintf("%s_%d_%d", name, j, i))

set multiplot layout 3,g columnsfirst title heading font ",12"
set grid lc rgb "#dddddd"
set logscale xy
set xlabel "N (log scale)"
do for [j=1:g] {
    do for [k=1:3] {
        set title sprintf("%s: %s", at("heading", j), k == 1 ? "un-marshalling" : (k == 2 ? "business logic" : "marshalling"))
        set key top left box opaque samplen 3 spacing 1.1 font ",7"
        set ylabel "median time (ms, log scale)"
        plot for [i=1:at("n", j)] of("file", j, i) using 1:(column(k + 1) > 0 ? column(k + 1) : NaN) \
             with linespoints lc rgb of("colour", j, i) pt 7 ps 0.6 lw 1.5 title of("title", j, i)
    }
}
unset multiplot
