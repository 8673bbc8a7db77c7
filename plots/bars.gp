# Saturation throughput of every app x engine, one page per workload.
# Called by plots/report.py with -e setting:
#   output                 the PDF to write
#   workloads              the workloads, space-separated; for each workload w:
#   file_<w>, heading_<w>  its data file and page title
#   logy_<w>               1 when its bars span more than a decade
#   n, title<i>, colour<i> the apps' legend entries and colours
# Data blocks: 0 = located saturation points, 1 = lower bounds (client-bound or plan limit),
# 2 = engine group labels. Columns: x, req/s (median over the rounds), colour (0xrrggbb), value
# label, 2006 req/s, the median's interval over the rounds (low, high; NaN with one round).

set terminal pdfcairo enhanced color font "Sans,10" size 11in,6in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics lc rgb "#dddddd"
set key outside right top box samplen 2 spacing 1.2 font ",9"
set xtics scale 0 font ",11"
set ylabel "saturation throughput (replies/s)"
set offsets 0.5, 0.5, 0, 0

do for [w in workloads] {
    file = value("file_".w)
    set title value("heading_".w) font ",13"
    if (value("logy_".w)) { set logscale y; set yrange [*:*] } else { unset logscale y; set yrange [0:*] }
    plot file index 0 using 1:2:(0.8):3 with boxes lc rgb variable notitle, \
         file index 1 using 1:2:(0.8):3 with boxes fs transparent solid 0.3 border lc rgb variable lc rgb variable notitle, \
         file index 0 using 1:(valid(7) ? $7 : $2):4 with labels offset 0,0.7 font ",9" notitle, \
         file index 1 using 1:(valid(7) ? $7 : $2):4 with labels offset 0,0.7 font ",9" notitle, \
         file index 0 using 1:2:6:7 with yerrorbars pt -1 lw 1.5 lc rgb "black" notitle, \
         file index 1 using 1:2:6:7 with yerrorbars pt -1 lw 1.5 lc rgb "black" notitle, \
         file index 0 using 1:5 with points pt 3 ps 1.4 lc rgb "black" notitle, \
         file index 1 using 1:5 with points pt 3 ps 1.4 lc rgb "black" notitle, \
         file index 2 using 1:(NaN):xticlabels(2) with points notitle, \
         for [i=1:n] keyentry with boxes fs solid 0.85 lc rgb value("colour".i) title value("title".i), \
         keyentry with boxes fs transparent solid 0.3 border lc rgb "black" lc rgb "black" title "lower bound (>=, pale)", \
         keyentry with yerrorbars pt -1 lw 1.5 lc rgb "black" title "interval over the rounds", \
         keyentry with points pt 3 ps 1.4 lc rgb "black" title "2006 study"
}
