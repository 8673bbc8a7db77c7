# A page of text: the report's title page or its saturation table.
# Called by plots/report.py with -e setting output and file. The data file holds two blocks of
# "line number <TAB> text" rows: 0 = headings (large), 1 = body (monospaced, so tables line up).

set terminal pdfcairo enhanced color font "Sans,10" size 11in,8.5in
set output output
set datafile separator "\t"
set termoption noenhanced

unset border
unset tics
unset key
set margins 0, 0, 0, 0
set xrange [0:1]
set yrange [66:-2]
plot file index 0 using (0.05):1:2 with labels left font "Sans,18", \
     file index 1 using (0.05):1:2 with labels left font "DejaVu Sans Mono,8"
