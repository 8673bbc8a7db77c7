# A paper's figure beside ours (make reproduce PAPER=): one page, our throughput on the left, our
# ratio over the figure's reference app on the right (the paper's beside both where it gives them),
# the verdicts and what differs underneath. Called by harness/run/reproduce.py with -e setting:
#   output, heading        the PDF page and its title
#   kind                   "app" (a bar per app) or "lines" (against xlabel's x)
#   data, notes            the data file (harness/report/paper_figures.py) and the notes' file
#   xlabel, logx           the x axis of a "lines" figure; logx B > 0 draws it on a log scale of base B
#   ylabel                 the left panel's measure (default: throughput)
#   reference              the reference app's title (the ratio panel's denominator)
#   n, title<i>, colour<i>, dash<i>   a "lines" figure's series
# "app" data: block 0, a row per app: position, ours, low, high, the paper's bar, colour, label, ours
# again when a flag bound it (an open circle);
# block 1, a row per app but the reference: position, our ratio, low, high, the paper's low and high,
# colour, label. "lines" data: n blocks of our throughput (x, value, low, high, the value again when a
# flag bound it), n of our ratio (the same), n of the paper's ratio span (x_low, x_high, low, high), one
# per series, in series order.

set terminal pdfcairo enhanced color font "Sans,9" size 11in,8.5in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

set multiplot title heading font ",13"
set grid ytics lc rgb "#dddddd"
set key top left box opaque samplen 2 spacing 1.1 font ",8"
set style fill solid 0.85 border -1
set boxwidth 0.38

set origin 0, 0.42
set size 0.5, 0.54
if (!exists("ylabel")) { ylabel = "throughput (replies/s)" }
set ylabel ylabel
set yrange [0:*]
if (kind eq "app") {
    set xtics scale 0 rotate by 20 right font ",8"
    set xrange [-0.6:*]
    plot data index 0 using ($1-0.2):2:6:xtic(7) with boxes lc rgb variable title "ours (median; whiskers: interval)", \
         data index 0 using ($1-0.2):2:3:4 with yerrorbars lc rgb "black" pt 0 notitle, \
         data index 0 using ($1+0.2):5 with boxes fill empty lc rgb "black" title "the paper's bar (its machine)", \
         data index 0 using ($1-0.2):8 with points pt 6 ps 2 lw 2 lc rgb "black" title "flagged (client, server cap, errors)"
} else {
    set xlabel xlabel
    if (logx) { set logscale x logx }
    plot for [i=1:n] data index (i-1) using 1:2:3:4 with yerrorlines lc rgb value("colour".i) dt value("dash".i) \
         pt 7 ps 0.5 lw 1.5 title value("title".i), \
         for [i=1:n] data index (i-1) using 1:5 with points pt 6 ps 1.4 lc rgb value("colour".i) notitle, \
         keyentry with points pt 6 ps 1.4 lc rgb "black" title "flagged (client, server cap, errors)"
}

set origin 0.5, 0.42
set size 0.5, 0.54
set ylabel "ratio over ".reference
set yrange [0:*]
if (kind eq "app") {
    plot data index 1 using ($1-0.2):2:7:xtic(8) with boxes lc rgb variable title "ours", \
         data index 1 using ($1-0.2):2:3:4 with yerrorbars lc rgb "black" pt 0 notitle, \
         data index 1 using ($1+0.2):(($5+$6)/2) with boxes fill empty lc rgb "black" title "the paper's", \
         data index 1 using ($1+0.2):(($5+$6)/2):5:6 with yerrorbars lc rgb "black" pt 0 notitle, \
         1 with lines dt 2 lc rgb "#444444" notitle
} else {
    plot for [i=1:n] data index (n+i-1) using 1:2:3:4 with yerrorlines lc rgb value("colour".i) dt value("dash".i) \
         pt 7 ps 0.5 lw 1.5 notitle, \
         for [i=1:n] data index (2*n+i-1) using (($1+$2)/2):(($3+$4)/2):1:2:3:4 with boxxyerror \
         fs transparent solid 0.2 border lc rgb value("colour".i) notitle, \
         keyentry with boxes fs transparent solid 0.2 border lc rgb "#888888" title "the paper's ratio: its range over its span", \
         1 with lines dt 2 lc rgb "#444444" notitle
}

unset logscale x
unset xlabel
unset ylabel
unset grid
unset key
unset border
unset tics
set origin 0, 0
set size 1, 0.41
set xrange [0:1]
set yrange [28:0]
plot notes using (0.03):1:2 with labels left font "Sans,8"
unset multiplot
