# Where the servers' CPU went at each profiled cell's saturation (`make profile`), as ICWS'08's
# Fig. 9: one stacked bar per cell, a colour per component (harness/judge/cpu_components.json).
# Called by plots/report.py with -e setting:
#   output   the PDF to write
#   file     the data (harness/report/profiles.py bars_data): a header row of the components'
#            titles, then per cell its label and each component's share in %
#   n        how many components (columns 2 .. n+1)
#   heading  the page title

set terminal pdfcairo enhanced color font "Sans,10" size 11in,6in
set output output
set datafile separator "\t"
set termoption noenhanced

set title heading font ",13"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set yrange [0:100]
set ylabel "share of the servers' CPU in the profile (%)"
set grid ytics lc rgb "#dddddd"
set key outside right top box samplen 2 spacing 1.1 font ",9" autotitle columnheader
set xtics rotate by -35 scale 0 font ",8"
# Okabe-Ito, then Paul Tol's muted colours: a component keeps its colour on every page.
array colours[12] = ["#0072B2", "#56B4E9", "#E69F00", "#D55E00", "#CC79A7", "#009E73", "#F0E442", "#882255", \
                     "#44AA99", "#999933", "#000000", "#888888"]
plot for [i=2:n+1] file using i:xtic(1) lc rgb colours[(i-2) % 12 + 1]
