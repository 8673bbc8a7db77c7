# A paper's per-rate table beside ours (make reproduce PAPER=study2006): one page, the reply rate
# against the offered rate on the left, the response time (to the first byte) on the right, the
# paper's rows as open squares on both, the verdict and what differs underneath. Called by
# harness/run/reproduce.py with -e setting:
#   output, heading        the PDF page and its title
#   data, notes            the data file (harness/report/paper_sweeps.py) and the notes' file
#   n, title<i>, colour<i> the series
# data: per series two blocks, ours (offered, replies/s, low, high, response ms, replies/s again when
# the step did not pass) then the paper's rows (offered, replies/s, response ms, the top of a range the paper gives).

set terminal pdfcairo enhanced color font "Sans,9" size 11in,8.5in
set output output
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced

set multiplot title heading font ",13"
set grid ytics lc rgb "#dddddd"
set key top left box opaque samplen 2 spacing 1.1 font ",8"
set xlabel "offered rate (requests/s)"
set xrange [0:*]

set origin 0, 0.42
set size 0.5, 0.54
set ylabel "reply rate (replies/s)"
set yrange [0:*]
plot for [i=1:n] data index (2*i-2) using 1:2:3:4 with yerrorlines lc rgb value("colour".i) pt 7 ps 0.5 lw 1.5 \
         title value("title".i)." (ours)", \
     for [i=1:n] data index (2*i-2) using 1:6 with points pt 6 ps 1.4 lc rgb value("colour".i) notitle, \
     for [i=1:n] data index (2*i-1) using 1:2 with points pt 4 ps 1.4 lw 1.5 lc rgb value("colour".i) \
         title value("title".i)." (the paper)", \
     x with lines dt 2 lc rgb "#444444" title "reply rate = offered rate", \
     keyentry with points pt 6 ps 1.4 lc rgb "black" title "ours: a step that did not pass"

set origin 0.5, 0.42
set size 0.5, 0.54
set ylabel "response time, to the first byte (ms)"
set logscale y 10
set yrange [*:*]
plot for [i=1:n] data index (2*i-2) using 1:5 with linespoints lc rgb value("colour".i) pt 7 ps 0.5 lw 1.5 \
         title value("title".i)." (ours)", \
     for [i=1:n] data index (2*i-1) using 1:3:3:4 with yerrorbars pt 4 ps 1.4 lw 1.5 lc rgb value("colour".i) \
         title value("title".i)." (the paper)"

unset logscale y
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
